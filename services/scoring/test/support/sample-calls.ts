/**
 * Small conversations for the offline engine's tests, written the way people talk on calls:
 * a renewal call where the representative greets, verifies, discovers, handles a price objection
 * and books a follow-up; and helpers to build transcripts and teams from plain lines.
 */
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import type { CriteriaGroup } from '@parlance/proto/parlance/identity/v1/teams';
import { SpeakerRole, type Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import type { EvaluationInput, TeamSnapshot } from '../../src/engines/evaluation-engine.js';

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
    ...overrides,
  };
}

export function inputOf(lines: readonly Line[], teamOverrides: Partial<TeamSnapshot> = {}): EvaluationInput {
  return { activityId: 'activity-1', kind: 'call', transcript: transcriptOf(lines), team: team(teamOverrides), representative: { email: 'anna@acme.test', name: 'Anna' } };
}
