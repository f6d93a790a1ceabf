/**
 * The teams the demo company starts with, so `make run` shows something on every screen: two sales
 * teams, two support teams and a recruiting team, each with weighted criteria, a success prompt,
 * usually a call script, and representatives with daily targets. Written once, when the demo
 * company is created; the demo data (services/demo) speaks to exactly these criteria.
 */
import { randomUUID } from 'node:crypto';
import type { Executor } from '@parlance/platform/db/database';
import { checkTeam, type CriteriaGroupDraft, type TeamDraft, type TeamMemberDraft } from './domain/teams.js';
import { writeTeam } from './team-writes.js';

const criterion = (name: string, prompt: string, weight: number) => ({ id: randomUUID(), name, prompt, weightText: String(weight) });
const group = (name: string, criteria: ReturnType<typeof criterion>[]): CriteriaGroupDraft => ({ id: randomUUID(), name, criteria });
const member = (firstName: string, lastName: string, email: string, target: number): TeamMemberDraft => ({ firstName, lastName, email, crmId: '', targetText: String(target) });

export const DEMO_TEAMS: Array<{ team: Omit<TeamDraft, 'id' | 'crmId'>; members: TeamMemberDraft[] }> = [
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
    members: [
      member('Maya', 'Okafor', 'maya.okafor@parlance.local', 4),
      member('Liam', 'Brennan', 'liam.brennan@parlance.local', 3),
      member('Noah', 'Schmidt', 'noah.schmidt@parlance.local', 3),
    ],
  },
  {
    team: {
      name: 'Outbound Sales',
      department: 'sales',
      successPrompt: 'The call is successful when the prospect agrees to a discovery meeting with a date and time.',
      callScript:
        'Hi, this is {name} from Parlance. Did I catch you at a bad time? I am calling because teams like yours spend hours listening to calls. Who reviews your calls today? Would you be open to a twenty-minute meeting next week?',
      criteriaGroups: [
        group('Opening', [
          criterion('Permission', 'The representative says their name and company and asks whether it is a good time to talk.', 1.5),
          criterion('Reason for calling', 'The representative gives a clear reason for the call that relates to the prospect’s business.', 1.5),
        ]),
        group('Qualification', [
          criterion('Qualification', 'The representative asks who reviews calls today, how many people are on the phones and what tool they use.', 2.5),
        ]),
        group('Closing', [
          criterion('Objection handling', 'Every concern the prospect raises (price, time, fit) is acknowledged and answered before moving on.', 2),
          criterion('Meeting booked', 'The representative asks for a meeting and confirms a date and time with the prospect.', 2.5),
        ]),
      ],
    },
    members: [
      member('Ava', 'Martins', 'ava.martins@parlance.local', 6),
      member('Ethan', 'Cole', 'ethan.cole@parlance.local', 5),
      member('Zara', 'Ahmed', 'zara.ahmed@parlance.local', 5),
    ],
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
    members: [
      member('Sofia', 'Lindqvist', 'sofia.lindqvist@parlance.local', 12),
      member('Kenji', 'Watanabe', 'kenji.watanabe@parlance.local', 10),
      member('Chloe', 'Dubois', 'chloe.dubois@parlance.local', 10),
    ],
  },
  {
    team: {
      name: 'Billing Support',
      department: 'support',
      successPrompt: 'The call is successful when the billing question is answered or a refund or correction is agreed with a date.',
      callScript:
        'Thank you for calling Parlance billing, this is {name}. Can I have the e-mail address on the account? Let me look at your invoices. Is there anything else I can help you with?',
      criteriaGroups: [
        group('Account', [
          criterion('Verification', 'Before discussing the account, the representative confirms the customer’s identity with the account e-mail and one more detail.', 2.5),
        ]),
        group('Resolution', [
          criterion('Clear explanation', 'The representative explains each charge in question with its amount and date.', 3),
          criterion('Resolution offered', 'The representative offers a refund, credit or correction when a charge is wrong, and says when it will arrive.', 3),
        ]),
        group('Close', [criterion('Anything else', 'Before ending the call the representative asks whether there is anything else they can help with.', 1.5)]),
      ],
    },
    members: [member('Omar', 'Haddad', 'omar.haddad@parlance.local', 14), member('Grace', 'Kim', 'grace.kim@parlance.local', 14)],
  },
  {
    team: {
      name: 'Talent Acquisition',
      department: 'hr',
      successPrompt: 'The interview is successful when the candidate is moved to the next round with a date agreed.',
      callScript:
        'Hi, this is {name} from the Parlance talent team. Thank you for making the time. Let me tell you about the role. Can you tell me about a time you handled a difficult customer? What questions do you have for me? The next step is a panel interview.',
      criteriaGroups: [
        group('Structure', [
          criterion('Introduction', 'The interviewer introduces themselves and explains how the interview will run.', 1.5),
          criterion('Role overview', 'The interviewer describes the role, the team and what success looks like in the first months.', 2),
        ]),
        group('Assessment', [
          criterion('Competency questions', 'The interviewer asks at least two questions about specific situations the candidate handled in the past.', 3),
          criterion('Candidate questions', 'The interviewer asks whether the candidate has any questions, and answers them.', 1.5),
        ]),
        group('Close', [criterion('Next steps', 'The interviewer explains the next step of the process and when the candidate will hear back.', 2)]),
      ],
    },
    members: [member('Elena', 'Rossi', 'elena.rossi@parlance.local', 3), member('Marcus', 'Reid', 'marcus.reid@parlance.local', 3)],
  },
];

export async function createDemoTeams(tx: Executor, company: { id: string; departments: readonly string[] }, now: Date): Promise<void> {
  for (const demo of DEMO_TEAMS) {
    const checked = checkTeam({ ...demo.team, id: '', crmId: '' }, demo.members, { departments: company.departments, newId: randomUUID });
    await writeTeam(tx, company.id, randomUUID(), checked, { isNew: true }, now);
  }
}
