/**
 * The teams the demo company starts with, so `make run` shows something on the team screens: a
 * sales team and a support team, each with weighted criteria, a success prompt, a call script and
 * representatives with daily targets. Written once, when the demo company is created.
 */
import { randomUUID } from 'node:crypto';
import type { Executor } from '@parlance/platform/db/database';
import { checkTeam, type CriteriaGroupDraft, type TeamDraft, type TeamMemberDraft } from './domain/teams.js';
import { writeTeam } from './team-writes.js';

const criterion = (name: string, prompt: string, weight: number) => ({ id: randomUUID(), name, prompt, weightText: String(weight) });
const group = (name: string, criteria: ReturnType<typeof criterion>[]): CriteriaGroupDraft => ({ id: randomUUID(), name, criteria });
const member = (firstName: string, lastName: string, email: string, target: number): TeamMemberDraft => ({ firstName, lastName, email, crmId: '', targetText: String(target) });

const DEMO_TEAMS: Array<{ team: Omit<TeamDraft, 'id' | 'crmId'>; members: TeamMemberDraft[] }> = [
  {
    team: {
      name: 'Inbound Sales',
      department: 'sales',
      successPrompt: 'The call is successful when the prospect agrees to a product demo, a trial or a purchase, with a date.',
      callScript:
        'Thank you for calling Parlance, this is {name}. May I ask who I am speaking with? What made you reach out today? How do you review your calls now? Based on what you said, I would suggest a short demo. Would Tuesday or Thursday suit you?',
      criteriaGroups: [
        group('Opening', [
          criterion('Greeting', 'The representative greets the caller, says their own name and the company name in the first sentence.', 1.5),
          criterion('Rapport', 'The representative asks for the caller’s name and uses it at least once later in the call.', 1),
        ]),
        group('Discovery', [
          criterion('Needs discovery', 'The representative asks at least two open questions about how the caller reviews calls today and what they want to improve.', 2.5),
          criterion('Value proposition', 'The representative links at least one product capability to a need the caller stated.', 2),
        ]),
        group('Closing', [
          criterion('Objection handling', 'Every concern the caller raises (price, time, fit) is acknowledged and answered before moving on.', 1.5),
          criterion('Next steps', 'The representative proposes a concrete next step with a date and time, and the caller’s answer is confirmed.', 1.5),
        ]),
      ],
    },
    members: [member('Maya', 'Okafor', 'maya.okafor@parlance.local', 4), member('Liam', 'Brennan', 'liam.brennan@parlance.local', 3)],
  },
  {
    team: {
      name: 'Customer Care',
      department: 'support',
      successPrompt: 'The call is successful when the customer’s problem is resolved, or a ticket with a follow-up time is agreed.',
      callScript: '',
      criteriaGroups: [
        group('Care', [
          criterion('Verification', 'Before discussing the account, the representative confirms the customer’s identity with two security details.', 2),
          criterion('Empathy', 'The representative acknowledges the customer’s frustration in their own words at least once.', 2),
        ]),
        group('Resolution', [
          criterion('Troubleshooting', 'The representative asks what was tried already and gives clear step-by-step instructions.', 3),
          criterion('Confirmation', 'Before the call ends the representative asks whether the problem is solved and states any ticket number.', 3),
        ]),
      ],
    },
    members: [member('Sofia', 'Lindqvist', 'sofia.lindqvist@parlance.local', 12)],
  },
];

export async function createDemoTeams(tx: Executor, company: { id: string; departments: readonly string[] }, now: Date): Promise<void> {
  for (const demo of DEMO_TEAMS) {
    const checked = checkTeam({ ...demo.team, id: '', crmId: '' }, demo.members, { departments: company.departments, newId: randomUUID });
    await writeTeam(tx, company.id, randomUUID(), checked, { isNew: true }, now);
  }
}
