/**
 * What the team screens send and read: the editor's copy of a team, the body of PUT
 * /api/teams/save (spec part 1 §3: team, isNew, members).
 */
import type { SaveTeamApiArg, Team } from '../../lib/api/gateway-api.generated';
import { DEFAULT_REVIEW_THRESHOLD, type EditorTeam, type TeamMemberRecord } from './team-rules';

/** The fields a save carries; the server's own (version, created_at, updated_at) are left out. */
export function editorTeamOf(team: Team | EditorTeam): EditorTeam {
  return {
    id: team.id,
    name: team.name ?? '',
    department: team.department ?? '',
    criteria_group: (team.criteria_group ?? []).map((group) => ({
      id: group.id,
      name: group.name ?? '',
      criteria: (group.criteria ?? []).map((criterion) => ({
        id: criterion.id,
        name: criterion.name ?? '',
        prompt: criterion.prompt ?? '',
        weight: criterion.weight ?? 0,
      })),
    })),
    success_criteria: { prompt: team.success_criteria?.prompt ?? '' },
    members: [...(team.members ?? [])],
    call_script: team.call_script ?? '',
    crm_id: team.crm_id ?? '',
    review_threshold: team.review_threshold ?? DEFAULT_REVIEW_THRESHOLD,
  };
}

/** An unsaved team ('new' is the id the server replaces) of the given department, with no groups yet. */
export function newTeam(department: string): EditorTeam {
  return {
    id: 'new',
    name: '',
    department,
    criteria_group: [],
    success_criteria: { prompt: '' },
    members: [],
    call_script: '',
    crm_id: '',
    review_threshold: DEFAULT_REVIEW_THRESHOLD,
  };
}

export const emptyMember = (): TeamMemberRecord => ({ first_name: '', last_name: '', email: '', crm_id: '', target: 0 });

/** The argument of useSaveTeamMutation: the team, whether it is created, and its members. */
export function saveTeamArg(team: EditorTeam, isNew: boolean, members: readonly TeamMemberRecord[]): SaveTeamApiArg {
  return {
    body: {
      team: editorTeamOf(team),
      isNew,
      members: members.map((member) => ({
        first_name: member.first_name,
        last_name: member.last_name,
        email: member.email,
        crm_id: member.crm_id,
        target: member.target,
      })),
    },
  };
}
