/**
 * Small conversations for the offline engine's tests, written the way people talk on calls:
 * a renewal call where the representative greets, verifies, discovers, handles a price objection
 * and books a follow-up; and helpers to build transcripts and teams from plain lines.
 */
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import type { CriteriaGroup } from '@parlance/proto/parlance/identity/v1/teams';
import { SpeakerRole, type Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import type { EvaluationInput, TeamSnapshot } from '../../src/engines/evaluation-engine.js';
import { DEFAULT_REVIEW_THRESHOLD } from '../../src/domain/review.js';

/** `[speaker, text]` or `[speaker, text, startMs]`; the first speaker is the representative. */
export type Line = readonly [string, string] | readonly [string, string, number];

export function transcriptOf(lines: readonly Line[], representative = lines[0]?.[0] ?? ''): Transcript {
  const labels = [...new Set(lines.map(([speaker]) => speaker))];
  return {
    activityId: 'activity-1',
    kind: ActivityKind.ACTIVITY_KIND_CALL,
    sourceFormat: 'speaker-lines',
    engine: 'text',
    durationMs: 0,
    speakers: labels.map((label) => ({ label, role: label === representative ? SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE : SpeakerRole.SPEAKER_ROLE_CONTACT })),
    segments: lines.map(([speaker, text, startMs]) => ({ speaker, text, words: [], ...(startMs !== undefined ? { startMs, endMs: startMs + 5_000 } : {}) })),
    warnings: [],
  };
}

export const RENEWAL_CALL: readonly Line[] = [
  ['Anna', 'Good morning, thank you for calling Acme Analytics, this is Anna speaking. How can I help you today?', 0],
  ['Mark', "Hi Anna, I'm calling about renewing our analytics subscription.", 6_000],
  ['Anna', 'Happy to help. Could you confirm your account number and your date of birth, please?', 11_000],
  ['Mark', "Sure, it's 55120 and March 3rd 1984.", 17_000],
  ['Anna', 'Thanks, you are verified. What are you mainly using the dashboards for at the moment?', 22_000],
  ['Mark', 'Weekly sales reports, mostly. But honestly the price went up a lot and that is a problem for us.', 28_000],
  ['Anna', 'I understand the price increase is a concern. Annual billing would save you fifteen percent compared with monthly.', 35_000],
  ['Mark', "Okay, that sounds good. Let's renew with the annual plan then.", 42_000],
  ['Anna', "Great. I'll send you the renewal contract by email today and we will schedule a training session next Tuesday.", 47_000],
  ['Mark', 'Perfect, thank you.', 54_000],
];

export const criteria = (...prompts: Array<[string, string]>): CriteriaGroup[] => [
  { id: 'group-1', name: 'Call quality', criteria: prompts.map(([name, prompt], index) => ({ id: `criterion-${index + 1}`, name, prompt, weight: Math.round((10 / prompts.length) * 100) / 100 })) },
];

export function team(overrides: Partial<TeamSnapshot> = {}): TeamSnapshot {
  return {
    id: 'team-1',
    version: 1,
    name: 'Renewals',
    department: 'sales',
    criteriaGroups: criteria(['Greeting', 'Greet the customer and introduce yourself by name.']),
    successPrompt: 'The customer agrees to renew the subscription.',
    callScript: '',
    reviewThreshold: DEFAULT_REVIEW_THRESHOLD,
    ...overrides,
  };
}

export function inputOf(lines: readonly Line[], teamOverrides: Partial<TeamSnapshot> = {}): EvaluationInput {
  return { activityId: 'activity-1', kind: 'call', transcript: transcriptOf(lines), team: team(teamOverrides), representative: { email: 'anna@acme.test', name: 'Anna' } };
}

/** The criteria of the demo company's Inbound Sales team (services/identity/src/demo-teams.ts). */
export const INBOUND_SALES: Partial<TeamSnapshot> = {
  successPrompt: 'The call is successful when the prospect agrees to a product demo, a trial or a purchase, with a date.',
  callScript:
    'Thank you for calling Parlance, this is {name}. May I ask who I am speaking with? What made you reach out today? How do you review your calls now? Based on what you said, I would suggest a short demo. Would Tuesday or Thursday suit you?',
  criteriaGroups: [
    {
      id: 'opening',
      name: 'Opening',
      criteria: [
        { id: 'greeting', name: 'Greeting', prompt: 'The representative greets the caller, says their own name and the company name in the first sentence.', weight: 1.5 },
        { id: 'rapport', name: 'Rapport', prompt: 'The representative asks for the caller’s name and uses it at least once later in the call.', weight: 1 },
      ],
    },
    {
      id: 'discovery',
      name: 'Discovery',
      criteria: [
        { id: 'needs', name: 'Needs discovery', prompt: 'The representative asks at least two open questions about how the caller reviews calls today and what they want to improve.', weight: 2.5 },
        { id: 'value', name: 'Value proposition', prompt: 'The representative links at least one product capability to a need the caller stated.', weight: 2 },
      ],
    },
    {
      id: 'closing',
      name: 'Closing',
      criteria: [
        { id: 'objections', name: 'Objection handling', prompt: 'Every concern the caller raises (price, time, fit) is acknowledged and answered before moving on.', weight: 1.5 },
        { id: 'next-steps', name: 'Next steps', prompt: 'The representative proposes a concrete next step with a date and time, and the caller’s answer is confirmed.', weight: 1.5 },
      ],
    },
  ],
};

/** A discovery call done well by the Inbound Sales team's standards. */
export const SALES_CALL_DONE_WELL: readonly Line[] = [
  ['Maya Okafor', 'Thank you for calling Parlance, this is Maya. May I ask who I am speaking with?', 0],
  ['Daniel', "Hi Maya, I'm Daniel from Northwind Logistics.", 8_000],
  ['Maya Okafor', 'Nice to meet you, Daniel. What made you reach out today?', 16_000],
  ['Daniel', 'We have about forty people on the phones and our managers listen to maybe two calls a week each. It is not enough.', 24_000],
  ['Maya Okafor', 'How do you review your calls right now, and what would you like to improve first?', 32_000],
  ['Daniel', 'Mostly spreadsheets and gut feeling. I want consistent scoring and coaching that is based on evidence.', 40_000],
  ['Maya Okafor', 'That makes sense. Parlance scores every call against your own criteria, so your managers get consistent scores with the quotes behind them, which helps with coaching.', 48_000],
  ['Daniel', 'Sounds good, but honestly the price worries me. We are a small team.', 56_000],
  ['Maya Okafor', 'I understand the concern about price, Daniel. The team plan is billed per seat, and most teams your size save more in manager time than it costs.', 64_000],
  ['Daniel', 'Okay, that helps.', 72_000],
  ['Maya Okafor', 'Based on what you said, I would suggest a short demo. Would Tuesday at ten or Thursday at two suit you?', 80_000],
  ['Daniel', 'Thursday at two works for me.', 88_000],
  ['Maya Okafor', "Great, I've booked the demo for Thursday at two and I'll send you the invite by email. Thanks for calling, Daniel!", 96_000],
];

/** The same caller, handled poorly: no greeting or questions, the price concern brushed off, no next step. */
export const SALES_CALL_DONE_POORLY: readonly Line[] = [
  ['Maya Okafor', 'Yeah, Parlance.', 0],
  ['Daniel', "Hi, I'm Daniel from Northwind Logistics, I wanted to learn about call scoring.", 8_000],
  ['Maya Okafor', 'Sure. We have dashboards, integrations with HubSpot and Close, and an API.', 16_000],
  ['Daniel', 'Our managers listen to two calls a week each. It is not enough.', 24_000],
  ['Maya Okafor', 'Okay. The plans start at forty dollars per seat per month.', 32_000],
  ['Daniel', 'Honestly the price worries me. We are a small team.', 40_000],
  ['Maya Okafor', 'It is what it is. You can look at the website for details.', 48_000],
  ['Daniel', 'Alright. I will think about it.', 56_000],
  ['Maya Okafor', 'Bye.', 64_000],
];

/** The criteria of the demo company's Customer Care team (services/identity/src/demo-teams.ts). */
export const CUSTOMER_CARE: Partial<TeamSnapshot> = {
  successPrompt: 'The call is successful when the customer’s problem is resolved, or a ticket with a follow-up time is agreed.',
  callScript: '',
  criteriaGroups: [
    {
      id: 'care',
      name: 'Care',
      criteria: [
        { id: 'verification', name: 'Verification', prompt: 'Before discussing the account, the representative confirms the customer’s identity with two security details.', weight: 2 },
        { id: 'empathy', name: 'Empathy', prompt: 'The representative acknowledges the customer’s frustration in their own words at least once.', weight: 2 },
      ],
    },
    {
      id: 'resolution',
      name: 'Resolution',
      criteria: [
        { id: 'troubleshooting', name: 'Troubleshooting', prompt: 'The representative asks what was tried already and gives clear step-by-step instructions.', weight: 3 },
        { id: 'confirmation', name: 'Confirmation', prompt: 'Before the call ends the representative asks whether the problem is solved and states any ticket number.', weight: 3 },
      ],
    },
  ],
};

export const SUPPORT_CALL_DONE_WELL: readonly Line[] = [
  ['Sofia Lindqvist', 'Good afternoon, Parlance support, this is Sofia. How can I help?', 0],
  ['Priya', 'Hi, my uploads keep failing and I have a report due today. This is really frustrating.', 8_000],
  ['Sofia Lindqvist', "I'm sorry, I can hear how frustrating that is with a deadline today. Before we look at your account, can you confirm your email address and the last four digits of the card on file?", 16_000],
  ['Priya', 'Sure, priya@example.com and 4421.', 24_000],
  ['Sofia Lindqvist', 'Thank you, you are verified. What have you tried so far?', 32_000],
  ['Priya', 'I tried uploading the file twice and restarting my browser.', 40_000],
  ['Sofia Lindqvist', 'Okay. First, open Settings and choose Uploads. Then clear the failed upload. Finally, upload the file again as an MP3 under 25 megabytes.', 48_000],
  ['Priya', 'That worked, it is uploading now.', 56_000],
  ['Sofia Lindqvist', 'Great. Is the problem solved on your side? I have logged this as ticket 48213 in case it happens again.', 64_000],
  ['Priya', 'Yes, all solved, thank you!', 72_000],
];

export const SUPPORT_CALL_DONE_POORLY: readonly Line[] = [
  ['Sofia Lindqvist', 'Support.', 0],
  ['Priya', 'Hi, my uploads keep failing and I have a report due today. This is really frustrating.', 8_000],
  ['Sofia Lindqvist', 'Your account shows three failed uploads this week.', 16_000],
  ['Priya', 'Yes, that is the problem.', 24_000],
  ['Sofia Lindqvist', 'Just try again later.', 32_000],
  ['Priya', 'Okay...', 40_000],
];
