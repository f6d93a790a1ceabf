import { useEffect, useId, useReducer, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Spinner } from '../../components/spinner';
import {
  gatewayApi,
  useGetTeamQuery,
  type GetTeamApiResponse,
  useSaveTeamMutation,
  useSuggestCriterionPromptMutation,
} from '../../lib/api/gateway-api.generated';
import { serverMessage } from '../../lib/api/error-message';
import { companyRefreshed, selectAuthStatus, selectCompany, selectUser } from '../../lib/auth/auth-slice';
import { selectActiveDepartment } from '../../lib/auth/department-slice';
import { CallScriptEditor } from './call-script-editor';
import { CriteriaGroupsEditor } from './criteria-groups-editor';
import { MembersTable } from './members-table';
import { findCriterion, teamEditorEvents as events, teamEditorSlice, teamEditorStateOf, teamWithDraftsCommitted } from './team-editor-state';
import { editorTeamOf, newTeam, saveTeamArg } from './team-payload';
import {
  checkBeforeSave,
  friendlySaveError,
  saveDisabled,
  statusChecklist,
  targetSum,
  totalWeight,
  type EditorTeam,
  type TeamMemberRecord,
} from './team-rules';
import { TeamStatusPanel, type EditorTab } from './team-status-panel';
import './teams.css';

export const SUGGESTION_FAILED = 'Error generating AI suggestion. Please try again.';
export const LOAD_FAILED = 'Error fetching teams. Please try again.';

/** /teams/:teamId, 'new' creating a team (spec part 1 §2 and §4). */
export function TeamEditorPage() {
  const { teamId = 'new' } = useParams();
  const status = useAppSelector(selectAuthStatus);
  const user = useAppSelector(selectUser);
  const company = useAppSelector(selectCompany);
  const department = useAppSelector(selectActiveDepartment);
  const navigate = useNavigate();
  const isNew = teamId === 'new';

  // Another department chosen while editing: this team belongs elsewhere, back to the list.
  const departmentAtLoad = useRef(department);
  useEffect(() => {
    if (department !== departmentAtLoad.current) navigate('/teams');
  }, [department, navigate]);

  if (status !== 'authenticated' || !user || !company) return <Navigate to="/login" replace />;

  return (
    <div className="page teams-editor-page">
      <h1>{isNew ? 'Create Team' : 'Edit Team'}</h1>
      {isNew ? (
        <TeamEditor key="new" initialTeam={newTeam(department ?? '')} initialMembers={[]} isNew />
      ) : (
        <ExistingTeamEditor key={teamId} teamId={teamId} />
      )}
    </div>
  );
}

function ExistingTeamEditor({ teamId }: { teamId: string }) {
  // Always asks the server, so a team changed elsewhere is not edited from an old copy.
  const { data, isFetching, isError } = useGetTeamQuery({ id: teamId }, { refetchOnMountOrArgChange: true });
  // The editor is seeded once: later refetches (every team change invalidates 'teams') must not replace what is being edited.
  const [seed, setSeed] = useState<GetTeamApiResponse | null>(null);
  if (!seed && data && !isFetching && !isError) setSeed(data);

  if (seed) return <TeamEditor initialTeam={editorTeamOf(seed.team)} initialMembers={seed.members} isNew={false} />;
  if (isError) {
    return (
      <>
        <p className="alert" role="alert">
          {LOAD_FAILED}
        </p>
        <p>
          <Link to="/teams">Back to Team Management</Link>
        </p>
      </>
    );
  }
  return (
    <p>
      <Spinner label="Loading team" />
    </p>
  );
}

type TeamEditorProps = { initialTeam: EditorTeam; initialMembers: readonly TeamMemberRecord[]; isNew: boolean };

function TeamEditor({ initialTeam, initialMembers, isNew }: TeamEditorProps) {
  const [state, dispatch] = useReducer(teamEditorSlice.reducer, undefined, () => teamEditorStateOf(initialTeam, initialMembers));
  const [tab, setTab] = useState<EditorTab>('members');
  const idPrefix = useId();
  const appDispatch = useAppDispatch();
  const navigate = useNavigate();
  const [saveTeam, { isLoading: saving }] = useSaveTeamMutation();
  const [suggestPrompt] = useSuggestCriterionPromptMutation();
  const { team, members } = state;

  // What Save judges and sends: the team with the weights still being typed committed.
  const pending = teamWithDraftsCommitted(state);

  const save = async () => {
    dispatch(events.allWeightsCommitted());
    if (pending.refused) return;
    const team = pending.team;
    const problem = checkBeforeSave(team, members);
    if (problem) {
      window.alert(problem);
      return;
    }
    const result = await saveTeam(saveTeamArg(team, isNew, members));
    if (result.error) {
      window.alert(friendlySaveError(serverMessage(result.error)));
      return;
    }
    // The company object lists the teams (team pickers elsewhere read it): refresh it first.
    const company = await appDispatch(gatewayApi.endpoints.getCompany.initiate(undefined, { subscribe: false, forceRefetch: true }));
    if (company.data) {
      const { id, name, departments } = company.data;
      appDispatch(companyRefreshed({ id, name, departments }));
    }
    navigate('/teams');
  };

  const suggest = async (criterionId: string) => {
    const criterion = findCriterion(team, criterionId);
    if (!criterion || criterion.name.trim() === '' || state.generating[criterionId]) return;
    dispatch(events.suggestionRequested(criterionId));
    try {
      const answer = await suggestPrompt({ body: { criterionName: criterion.name, criterionDescription: criterion.prompt } }).unwrap();
      dispatch(events.suggestionReceived({ criterionId, suggestion: answer.suggestion }));
    } catch {
      dispatch(events.suggestionFailed(criterionId));
      window.alert(SUGGESTION_FAILED);
    }
  };

  const tabId = (which: EditorTab) => `${idPrefix}-tab-${which}`;
  const panelId = (which: EditorTab) => `${idPrefix}-panel-${which}`;
  const criterionCount = team.criteria_group.reduce((sum, group) => sum + group.criteria.length, 0);

  return (
    <div className="teams-editor">
      <TeamStatusPanel
        name={team.name}
        onRename={(name) => dispatch(events.teamRenamed(name))}
        totalWeight={totalWeight(team)}
        targetSum={targetSum(members)}
        memberCount={members.length}
        criterionCount={criterionCount}
        callScriptDone={team.call_script.trim() !== ''}
        tab={tab}
        onTabChosen={setTab}
        tabId={tabId}
        panelId={panelId}
        saveDisabled={saveDisabled(pending.team, members)}
        saving={saving}
        onSave={() => void save()}
        onCancel={() => navigate('/teams')}
        checklist={statusChecklist(team, members)}
      />
      <div className="teams-editor__content" role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)}>
        {tab === 'members' ? <MembersTable members={members} memberKeys={state.memberKeys} dispatch={dispatch} /> : null}
        {tab === 'criteria' ? <CriteriaGroupsEditor state={state} dispatch={dispatch} onSuggest={(id) => void suggest(id)} /> : null}
        {tab === 'script' ? <CallScriptEditor script={team.call_script} onEdit={(text) => dispatch(events.callScriptEdited(text))} /> : null}
      </div>
    </div>
  );
}
