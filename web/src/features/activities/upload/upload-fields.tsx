/**
 * What both upload dialogs share: the teams of the current department and the representatives of
 * the chosen team, the two selects that choose them, and the progress panel.
 */
import { useAppSelector } from '../../../app/hooks';
import { useFetchTeamsQuery, useGetTeamMembersQuery, type Team, type TeamMember } from '../../../lib/api/gateway-api.generated';
import { selectCompany } from '../../../lib/auth/auth-slice';
import { selectActiveDepartment } from '../../../lib/auth/department-slice';
import type { UploadProgress } from './upload-flows';
import { UPLOAD_MESSAGES } from './upload-rules';
import './upload.css';

const NO_TEAMS: Team[] = [];
const NO_MEMBERS: TeamMember[] = [];

/**
 * The company id, the teams of the current department and the chosen team's representatives
 * (an empty list when they cannot be fetched). Nothing is fetched while `active` is false.
 */
export function useUploadTargets(active: boolean, teamId: string) {
  const department = useAppSelector(selectActiveDepartment);
  const companyId = useAppSelector(selectCompany)?.id ?? null;
  const teams = useFetchTeamsQuery({ department: department ?? undefined }, { skip: !active || !department });
  const members = useGetTeamMembersQuery({ id: teamId }, { skip: !active || !teamId });
  const departmentTeams = (teams.data ?? NO_TEAMS).filter((team) => team.department === department);
  return {
    companyId,
    teams: departmentTeams,
    members: members.isError ? NO_MEMBERS : (members.currentData ?? NO_MEMBERS),
    membersLoading: members.isFetching,
  };
}

export const memberLabel = (member: TeamMember) => {
  const name = `${member.first_name} ${member.last_name}`.trim();
  return name ? `${name} (${member.email})` : member.email;
};

type TargetFieldsProps = {
  idPrefix: string;
  teams: readonly Team[];
  teamId: string;
  onTeamChange: (teamId: string) => void;
  members: readonly TeamMember[];
  membersLoading: boolean;
  representative: string;
  onRepresentativeChange: (email: string) => void;
  /** The calls dialog shows the representative only once a team is chosen. */
  representativeOnlyWithTeam: boolean;
  disabled: boolean;
};

export function TeamAndRepresentativeFields(props: TargetFieldsProps) {
  const { idPrefix, teams, teamId, members, representative, disabled } = props;
  const showRepresentative = !props.representativeOnlyWithTeam || teamId !== '';
  return (
    <>
      <div className="field">
        <label className="field__label" htmlFor={`${idPrefix}-team`}>
          Team
        </label>
        <select id={`${idPrefix}-team`} className="field__input" value={teamId} disabled={disabled} onChange={(event) => props.onTeamChange(event.target.value)}>
          <option value="">Select a team</option>
          {teams.map((team) => (
            <option key={team.id} value={team.id}>
              {team.name}
            </option>
          ))}
        </select>
      </div>
      {showRepresentative ? (
        <div className="field">
          <label className="field__label" htmlFor={`${idPrefix}-representative`}>
            Representative
          </label>
          <select
            id={`${idPrefix}-representative`}
            className="field__input"
            value={representative}
            disabled={disabled || teamId === ''}
            aria-busy={props.membersLoading || undefined}
            onChange={(event) => props.onRepresentativeChange(event.target.value)}
          >
            <option value="">{props.membersLoading ? 'Loading representatives...' : 'Select a representative'}</option>
            {members.map((member) => (
              <option key={member.email} value={member.email}>
                {memberLabel(member)}
              </option>
            ))}
          </select>
        </div>
      ) : null}
    </>
  );
}

/** 'Uploading n files...' or 'All files uploaded! ...', the file being sent, the elapsed time and the bars. */
export function UploadProgressPanel({ progress, showBars }: { progress: UploadProgress; showBars: boolean }) {
  return (
    <div className="upload-progress" role="status" aria-live="polite">
      <p className="upload-progress__headline">{progress.headline}</p>
      {progress.current ? <p className="upload-progress__line">{progress.current}</p> : null}
      {progress.elapsedSeconds !== null ? <p className="upload-progress__line">{UPLOAD_MESSAGES.elapsed(progress.elapsedSeconds)}</p> : null}
      {showBars ? (
        <ul className="upload-progress__files" aria-label="Upload progress">
          {progress.files.map((bar, index) => (
            <li key={`${index}-${bar.name}`} className="upload-progress__file">
              <span className="upload-progress__name">{bar.name}</span>
              <progress className="upload-progress__bar" max={100} value={bar.percent} aria-label={`${bar.name} upload progress`}>
                {bar.percent}%
              </progress>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
