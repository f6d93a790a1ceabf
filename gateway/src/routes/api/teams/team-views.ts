/** Between the team calls' JSON (spec part 1 §3, snake_case) and identity's protobuf messages. */
import type { Team, TeamDraft, TeamMember, TeamMemberDraft } from '@parlance/proto/parlance/identity/v1/teams';
import type { Static } from 'typebox';
import type { TeamSaveBody } from '../../../schemas/teams.schema.js';

type SaveBody = Static<typeof TeamSaveBody>;
type TeamInput = NonNullable<SaveBody['team']>;
type MemberInput = NonNullable<SaveBody['members']>[number];

/** A weight or target as the person typed it, as text; identity reads it and names what is wrong. */
const typedText = (value: number | string | null | undefined): string => (value === null || value === undefined ? '' : String(value));

export function teamDraft(team: TeamInput | undefined): TeamDraft {
  return {
    id: team?.id ?? '',
    name: team?.name ?? '',
    department: team?.department ?? '',
    hasCriteriaGroups: team?.criteria_group !== undefined,
    criteriaGroups: (team?.criteria_group ?? []).map((group) => ({
      id: group.id ?? '',
      name: group.name ?? '',
      criteria: (group.criteria ?? []).map((criterion) => ({
        id: criterion.id ?? '',
        name: criterion.name ?? '',
        prompt: criterion.prompt ?? '',
        weightText: typedText(criterion.weight),
      })),
    })),
    successPrompt: team?.success_criteria?.prompt ?? '',
    ...(typeof team?.call_script === 'string' ? { callScript: team.call_script } : {}),
    crmId: team?.crm_id ?? '',
    ...(typeof team?.review_threshold === 'number' ? { reviewThreshold: team.review_threshold } : {}),
  };
}

export const memberDraft = (member: MemberInput): TeamMemberDraft => ({
  firstName: member.first_name ?? '',
  lastName: member.last_name ?? '',
  email: member.email ?? '',
  crmId: member.crm_id ?? '',
  targetText: typedText(member.target),
});

export const teamView = (team: Team | undefined) => ({
  id: team?.id ?? '',
  name: team?.name ?? '',
  department: team?.department ?? '',
  criteria_group: (team?.criteriaGroups ?? []).map((group) => ({
    id: group.id,
    name: group.name,
    criteria: group.criteria.map((criterion) => ({ id: criterion.id, name: criterion.name, prompt: criterion.prompt, weight: criterion.weight })),
  })),
  success_criteria: { prompt: team?.successPrompt ?? '' },
  members: team?.memberEmails ?? [],
  call_script: team?.callScript ?? '',
  crm_id: team?.crmId ?? '',
  review_threshold: team?.reviewThreshold ?? 0,
  version: team?.version ?? 0,
  created_at: (team?.createdAt ?? new Date(0)).toISOString(),
  updated_at: (team?.updatedAt ?? new Date(0)).toISOString(),
});

export const teamMemberView = (member: TeamMember) => ({
  first_name: member.firstName,
  last_name: member.lastName,
  email: member.email,
  crm_id: member.crmId,
  target: member.target,
});

/** The short form the company object carries (spec part 2 §3). */
export const companyTeamView = (team: Team) => ({
  id: team.id,
  name: team.name,
  department: team.department,
  members: team.memberEmails,
  criteria_group: team.criteriaGroups.map((group) => ({ id: group.id, name: group.name, criteria: group.criteria.map(({ id, name }) => ({ id, name })) })),
});
