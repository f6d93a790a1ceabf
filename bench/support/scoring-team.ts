/**
 * The team the scoring benches evaluate against: a broadband provider's inbound support and
 * retention team, with 10 weighted criteria in four groups (weights total 10), including a
 * prohibition and a conditional criterion, a success prompt and a short call script. The same
 * team as scoring holds it (TeamSnapshot) and as the team editor saves it (PUT /api/teams/save).
 */
import { randomUUID } from 'node:crypto';
import type { CriteriaGroup } from '@parlance/proto/parlance/identity/v1/teams';
import type { TeamSnapshot } from '@parlance/scoring/engines/evaluation-engine';
import { DEFAULT_REVIEW_THRESHOLD } from '@parlance/scoring/domain/review';
import type { MemberJson, TeamJson } from '../../test/teams/team-fixtures.js';

const GROUPS: ReadonlyArray<{ name: string; criteria: ReadonlyArray<readonly [name: string, prompt: string, weight: number]> }> = [
  {
    name: 'Opening',
    criteria: [
      ['Greeting', 'Greet the customer, name the company and introduce yourself by name.', 1],
      ['Verification', 'Verify the caller: ask for the account number and either the postcode or the date of birth before discussing the account.', 1.5],
    ],
  },
  {
    name: 'Discovery',
    criteria: [
      ['Discovery questions', 'Ask open questions about how the customer uses the connection at home: who is online, which devices, and when the problems happen.', 1.5],
      ['Empathy', "Acknowledge the customer's frustration with the outages or the price increase before offering a solution.", 1],
    ],
  },
  {
    name: 'Resolution',
    criteria: [
      ['Objection handling', 'When the customer objects to the price or mentions a competitor, explain the value and the total cost compared with the alternative.', 1.5],
      ['Recommendation', 'Recommend a plan that fits the needs the customer described and say its monthly price and contract length.', 1],
      ['No delivery promises', 'Do not promise delivery dates for equipment or engineer visits.', 0.5],
      ['Refund policy', 'If the customer asks for a refund, explain the refund policy.', 0.5],
    ],
  },
  {
    name: 'Closing',
    criteria: [
      ['Next steps', 'Agree concrete next steps: what happens next, who does it and when, such as a confirmation email or a follow-up call.', 1],
      ['Wrap-up', 'Summarise what was agreed and ask whether there is anything else you can help with.', 0.5],
    ],
  },
];

export const SUCCESS_PROMPT = 'The customer agrees to move to the annual plan or to upgrade to a faster fibre plan.';

export const CALL_SCRIPT = [
  'Thank you for calling Brightwave, my name is [name]. How can I help you today?',
  'Before I look at the account, could you confirm your account number and your postcode?',
  'Can you tell me how you use the internet at home, and when the problems happen?',
  'Based on what you have told me, I would recommend our annual fibre plan.',
  'Is there anything else I can help you with today?',
].join(' ');

export const CRITERIA_COUNT = GROUPS.reduce((sum, group) => sum + group.criteria.length, 0);

/** The team as scoring holds it, with fixed ids (criteria are read once per wording, as in the service). */
export function benchTeamSnapshot(): TeamSnapshot {
  const criteriaGroups: CriteriaGroup[] = GROUPS.map((group, g) => ({
    id: `group-${g + 1}`,
    name: group.name,
    criteria: group.criteria.map(([name, prompt, weight], c) => ({ id: `criterion-${g + 1}-${c + 1}`, name, prompt, weight })),
  }));
  return { id: 'bench-team', version: 1, name: 'Support and retention', department: 'support', criteriaGroups, successPrompt: SUCCESS_PROMPT, callScript: CALL_SCRIPT, reviewThreshold: DEFAULT_REVIEW_THRESHOLD };
}

/** The team as the team editor saves it, with these members. */
export function benchTeamPayload(members: readonly MemberJson[]): TeamJson {
  return {
    id: 'new',
    name: `Support and retention ${randomUUID().slice(0, 6)}`,
    department: 'support',
    criteria_group: GROUPS.map((group) => ({
      id: randomUUID(),
      name: group.name,
      criteria: group.criteria.map(([name, prompt, weight]) => ({ id: randomUUID(), name, prompt, weight })),
    })),
    success_criteria: { prompt: SUCCESS_PROMPT },
    members: members.map((member) => member.email),
    call_script: CALL_SCRIPT,
    crm_id: '',
  };
}
