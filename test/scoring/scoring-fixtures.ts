/**
 * One scenario for the end-to-end scoring tests of whole processes (`make up`'s processes and the
 * standalone host): a support team with five weighted criteria, a success prompt and a call
 * script; a text call the offline evaluator judges the same way every time; and a stereo call
 * spoken by espeak-ng (representative left, contact right), transcribed by the speech engine the
 * product runs by default (Whisper).
 * The checks are what a reviewer reads on the summary: a verdict for every criterion, evidence
 * quoted from the segment it names, the score of the passed weights, and the statistics.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { AudioWorkspace } from '../../services/transcription/test/support/audio-files.js';
import { synthesizeCall, type CallLine, type SynthesizedCall } from '../../services/transcription/test/support/synthesized-call.js';
import { ApiClient } from '../support/api-client.js';
import { capturedLink } from '../support/captured-mail.js';
import { uniqueEmail } from '../support/identity-stack.js';
import { memberPayload, teamPayload, type MemberJson, type SavedTeam } from '../teams/team-fixtures.js';
import type { UploadingCompany } from '../uploads/upload-fixtures.js';

export interface EvidenceJson {
  quote: string;
  segmentIndex: number;
  speaker: string;
  role: string;
  startMs: number | null;
}

export interface VerdictJson {
  groupId: string;
  groupName: string;
  criterionId: string;
  criterionName: string;
  weight: number;
  passed: boolean;
  applicable: boolean;
  reason: string;
  suggestion: string;
  evidence: EvidenceJson[];
}

export interface SpeakerStatisticsJson {
  speaker: string;
  role: string;
  words: number;
  talkMs: number;
  talkShare: number;
}

/** GET /api/calls/summary/{callId}, the fields these tests read. */
export interface CallSummary {
  transcript: string;
  summary: string;
  improvements: Array<{ id: string; name: string; criteria: Array<{ id: string; name: string; suggestion: string }> }>;
  segments: Array<{ index: number; speaker: string; role: string; startMs: number | null; endMs: number | null; text: string }>;
  evaluation: null | {
    score: number;
    criteriaNeedingReview: number;
    scriptMatch: number | null;
    isSuccessful: boolean | null;
    successReason: string;
    successEvidence: EvidenceJson[];
    verdicts: VerdictJson[];
    statistics: null | {
      speakers: SpeakerStatisticsJson[];
      durationMs: number;
      timed: boolean;
      wordTimings: boolean;
      representativeTalkShare: number | null;
    };
    summaryDetails: { participants: string[]; discussion: string; outcome: string; nextSteps: string[] };
    engine: string;
    fallbackReason: string;
    insightTokens: number;
    evaluatedAt: string;
    warnings: string[];
  };
}

/** A short discovery call uploaded as text: Grace greets, asks two questions and books a demo. */
export const SALES_CALL = [
  '[00:00:02] Grace: Thank you for calling Parlance, my name is Grace. How can I help you today?',
  '[00:00:07] Morgan: Hi Grace, we are looking at call analytics for our support team.',
  '[00:00:12] Grace: Great. What tools do you use today, and what would you like to improve?',
  '[00:00:19] Morgan: We use spreadsheets, and reviewing calls takes our managers far too long.',
  '[00:00:26] Grace: Understood. Could I show you a demo on Thursday at 10am?',
  '[00:00:31] Morgan: Thursday at 10 works for us.',
].join('\n');

/** The text upload of SALES_CALL for the company's team and representative. */
export const callText = (company: UploadingCompany, overrides: Record<string, unknown> = {}) => ({
  fileName: 'discovery-call.txt',
  content: SALES_CALL,
  date: '2026-11-20T09:30:00Z',
  teamId: company.teamId,
  representative: company.representative.email,
  repName: 'Grace',
  ...overrides,
});

/** The person the calls are with: the team's representative, named in the text call and the uploads. */

export const REPRESENTATIVE_NAME = 'Daniel';

/** The criteria, in the team's order, and how the offline evaluator judges the text call on each. */
export const CRITERIA = [
  { group: 'Opening', name: 'Greeting', prompt: 'The representative greets the customer and says their own name.', weight: 2, textCallPasses: true },
  { group: 'Opening', name: 'Recording notice', prompt: 'The representative tells the customer that the call is recorded.', weight: 2, textCallPasses: true },
  { group: 'Discovery', name: 'Account number', prompt: 'The representative asks for the customer’s account number.', weight: 3, textCallPasses: true },
  { group: 'Resolution', name: 'Refund', prompt: 'The representative offers a refund.', weight: 2, textCallPasses: true },
  { group: 'Resolution', name: 'Premium plan', prompt: 'The representative offers the premium support plan.', weight: 1, textCallPasses: false },
] as const;

/** The team editor's payload: five criteria in three groups, their weights 10 in all, a success prompt and a call script. */
export function scoredTeamPayload(memberEmail: string) {
  const groups = [...new Set(CRITERIA.map((criterion) => criterion.group))];
  return teamPayload({
    name: `Billing support ${randomUUID().slice(0, 6)}`,
    department: 'support',
    criteria_group: groups.map((name) => ({
      id: randomUUID(),
      name,
      criteria: CRITERIA.filter((criterion) => criterion.group === name).map((criterion) => ({ id: randomUUID(), name: criterion.name, prompt: criterion.prompt, weight: criterion.weight })),
    })),
    success_criteria: { prompt: 'The customer accepts the refund.' },
    members: [memberEmail],
    call_script: 'Thank you for calling Northwind, my name is … This call is recorded for quality purposes. May I have your account number?',
  });
}

export interface ScoringTeam {
  team: SavedTeam;
  representative: MemberJson;
}

/** Saves the team through the API as the team editor does, with one representative. */
export async function saveScoringTeam(browser: ApiClient): Promise<ScoringTeam> {
  const representative = memberPayload({ first_name: REPRESENTATIVE_NAME, last_name: 'Okoro', email: uniqueEmail('daniel') });
  const saved = await browser.put<{ team: SavedTeam }>('/api/teams/save', { team: scoredTeamPayload(representative.email), isNew: true, members: [representative] });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return { team: saved.body.team, representative };
}

/** Signs a new company's admin up over HTTP and verifies them from the e-mail the product captured under `mailRoot`/mail. */
export async function signUpCompany(baseUrl: string, mailRoot: string): Promise<{ browser: ApiClient; email: string; companyId: string }> {
  const browser = new ApiClient(baseUrl);
  const email = uniqueEmail('scoring-admin');
  const signup = await browser.post('/api/auth/signup', { firstName: 'Nia', lastName: 'Scorer', email, password: 'weights add up to ten 10' });
  expect(signup.status, JSON.stringify(signup.body)).toBe(200);
  const link = new URL(await capturedLink(mailRoot, email, 'verify'));
  const verified = await browser.post<{ company: { id: string } }>('/api/auth/verify-email', { token: link.searchParams.get('token') });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  return { browser, email, companyId: verified.body.company.id };
}

// ---------------------------------------------------------------------------------------------
// The calls

export const TEXT_CALL = [
  '[00:00:02] Daniel: Thank you for calling Northwind, my name is Daniel. This call is recorded for quality purposes. How can I help?',
  '[00:00:09] Maria: Hi Daniel, I was charged twice for my subscription this month.',
  '[00:00:14] Daniel: I am sorry about that. Could you give me your account number, please?',
  '[00:00:19] Maria: Yes, it is 4815229.',
  '[00:00:23] Daniel: Thank you. I can see the double charge, so I will refund the second payment of forty nine dollars today.',
  '[00:00:30] Maria: Yes, I accept the refund. Thank you.',
].join('\n');

/**
 * Short lines of common words, written when PocketSphinx was the default engine (it misheard 60–70%
 * of espeak-ng's words but "thank you i will refund the money today" came through whole); Whisper
 * hears them nearly all (WER about 10 %), and the Refund criterion passes on evidence heard in the
 * recording either way.
 */
export const STEREO_CALL_LINES: CallLine[] = [
  { speaker: 0, text: 'Hello, my name is Daniel. This call is recorded.' },
  { speaker: 1, text: 'Hello Daniel. I need a refund.' },
  { speaker: 0, text: 'Sure. What is your account number?' },
  { speaker: 1, text: 'It is four eight one five.' },
  { speaker: 0, text: 'Thank you. I will refund the money today.' },
  { speaker: 1, text: 'Yes, thank you.' },
];

export function uploadTextCall(browser: ApiClient, scoring: ScoringTeam) {
  return browser.post<{ jobId: string }>('/api/calls/transcribe/text', {
    fileName: 'double-charge.txt',
    content: TEXT_CALL,
    date: '2026-11-20T09:30:00Z',
    teamId: scoring.team.id,
    representative: scoring.representative.email,
    repName: REPRESENTATIVE_NAME,
  });
}

/** The stereo call as a call-centre recorder or a browser would send it: OGG/Opus, representative on the left. */
export async function synthesizeStereoCall(audio: AudioWorkspace): Promise<{ call: SynthesizedCall; oggPath: string }> {
  const call = await synthesizeCall(path.join(audio.dir, 'refund'), { lines: STEREO_CALL_LINES, seed: 1 });
  const oggPath = audio.path('refund-call.ogg');
  await audio.ffmpeg('-i', call.stereoPath, '-c:a', 'libopus', '-b:a', '48k', oggPath);
  return { call, oggPath };
}

/** A multipart upload as a browser sends a file input, the file first. */
export async function uploadAudioCall(browser: ApiClient, scoring: ScoringTeam, filePath: string) {
  const form = new FormData();
  form.append('file', new Blob([await readFile(filePath)]), path.basename(filePath));
  form.append('audioDate', '2026-11-21T15:00:00.000Z');
  form.append('teamId', scoring.team.id);
  form.append('representative', scoring.representative.email);
  form.append('repName', REPRESENTATIVE_NAME);
  return browser.postForm<{ jobId: string }>('/api/calls/transcribe/audio', form);
}


// ---------------------------------------------------------------------------------------------
// What every scored call shows

/**
 * A verdict for every criterion of the team, in the team's order, with the team's weights; every
 * quote an exact part of the segment it names, said by that segment's speaker (the representative,
 * whom every criterion is about); the score the passed weights added up; statistics measured.
 */
export function expectScoredByTheTeam(summary: CallSummary, team: SavedTeam): NonNullable<CallSummary['evaluation']> {
  const evaluation = summary.evaluation;
  expect(evaluation, 'the call was scored').not.toBeNull();
  expect(evaluation!.engine).toBe('offline-evidence+minilm');
  expect(evaluation!.verdicts.map((verdict) => [verdict.groupId, verdict.criterionId, verdict.criterionName, verdict.weight])).toEqual(
    team.criteria_group.flatMap((group) => group.criteria.map((criterion) => [group.id, criterion.id, criterion.name, Number(criterion.weight)])),
  );
  for (const verdict of evaluation!.verdicts) {
    expect(verdict.reason.length, `${verdict.criterionName} says why`).toBeGreaterThan(0);
    if (verdict.passed) expect(verdict.evidence.length, `${verdict.criterionName} passed on evidence`).toBeGreaterThan(0);
    for (const quoted of verdict.evidence) {
      const segment = summary.segments[quoted.segmentIndex];
      expect(segment, `${verdict.criterionName} names segment ${quoted.segmentIndex}`).toBeDefined();
      expect(quoted.quote.length).toBeGreaterThan(0);
      expect(segment!.text, `${verdict.criterionName}'s quote`).toContain(quoted.quote);
      expect([quoted.speaker, quoted.role]).toEqual([segment!.speaker, segment!.role]);
      // When the quoted sentence began: its first recognised word's time, inside its segment.
      if (segment!.startMs === null) expect(quoted.startMs).toBeNull();
      else {
        expect(quoted.startMs, `${verdict.criterionName}'s quote begins in its segment`).toBeGreaterThanOrEqual(segment!.startMs);
        expect(quoted.startMs!).toBeLessThanOrEqual(segment!.endMs ?? segment!.startMs);
      }
      expect(quoted.role, `${verdict.criterionName} is about what the representative said`).toBe('representative');
    }
  }
  for (const quoted of evaluation!.successEvidence) expect(summary.segments[quoted.segmentIndex]!.text).toContain(quoted.quote);

  const passedWeights = evaluation!.verdicts.filter((verdict) => verdict.passed).reduce((sum, verdict) => sum + verdict.weight, 0);
  expect(evaluation!.score).toBeCloseTo(passedWeights, 5);
  const failed = evaluation!.verdicts.filter((verdict) => !verdict.passed).map((verdict) => verdict.criterionId);
  expect(summary.improvements.flatMap((group) => group.criteria.map((criterion) => criterion.id))).toEqual(failed);

  expect(summary.summary.length).toBeGreaterThan(0);
  expect(evaluation!.insightTokens).toBeGreaterThan(0);
  const statistics = evaluation!.statistics;
  expect(statistics, 'statistics were measured').not.toBeNull();
  expect(statistics!.speakers.map((speaker) => speaker.role)).toEqual(['representative', 'contact']);
  expect(statistics!.speakers.every((speaker) => speaker.words > 0)).toBe(true);
  expect(statistics!.speakers.reduce((sum, speaker) => sum + speaker.talkShare, 0)).toBeCloseTo(1, 6);
  expect(statistics!.representativeTalkShare).toBeCloseTo(statistics!.speakers[0]!.talkShare, 6);
  return evaluation!;
}

/** Talk shares by time: each speaker's talk time over everyone's, as the statistics round them (3 decimals). */
export function expectTalkSharesByTime(speakers: SpeakerStatisticsJson[]): void {
  const total = speakers.reduce((sum, speaker) => sum + speaker.talkMs, 0);
  expect(total).toBeGreaterThan(0);
  for (const speaker of speakers) {
    expect(speaker.talkMs, `${speaker.speaker} talked`).toBeGreaterThan(0);
    expect(Math.abs(speaker.talkShare - speaker.talkMs / total), `${speaker.speaker}'s share`).toBeLessThanOrEqual(0.001);
  }
}

/** The text call: the passes and fails the offline evaluator gives it, success, the script and timed statistics. */
export function expectTextCallJudged(summary: CallSummary, team: SavedTeam): void {
  const evaluation = expectScoredByTheTeam(summary, team);
  expect(evaluation.verdicts.map((verdict) => [verdict.criterionName, verdict.passed])).toEqual(CRITERIA.map((criterion) => [criterion.name, criterion.textCallPasses]));
  expect(evaluation.score).toBe(9);
  expect(summary.improvements).toEqual([
    { id: team.criteria_group[2]!.id, name: 'Resolution', criteria: [expect.objectContaining({ id: team.criteria_group[2]!.criteria[1]!.id, name: 'Premium plan' })] },
  ]);
  const quotes = (name: string) => evaluation.verdicts.find((verdict) => verdict.criterionName === name)!.evidence.map((evidence) => [evidence.segmentIndex, evidence.quote]);
  expect(quotes('Account number')).toEqual([[2, 'Could you give me your account number, please?']]);
  expect(quotes('Refund')).toEqual([[4, 'I can see the double charge, so I will refund the second payment of forty nine dollars today.']]);
  expect(quotes('Recording notice')).toContainEqual([0, 'This call is recorded for quality purposes.']);
  expect(evaluation.isSuccessful).toBe(true);
  expect(evaluation.successEvidence.map((evidence) => [evidence.segmentIndex, evidence.quote, evidence.role])).toEqual([[5, 'Yes, I accept the refund.', 'contact']]);
  expect(evaluation.scriptMatch).toBe(100);
  expect(summary.segments.map((segment) => [segment.speaker, segment.role])).toEqual([
    ['Daniel', 'representative'],
    ['Maria', 'contact'],
    ['Daniel', 'representative'],
    ['Maria', 'contact'],
    ['Daniel', 'representative'],
    ['Maria', 'contact'],
  ]);
  expect(evaluation.statistics).toMatchObject({ timed: true, wordTimings: false, durationMs: 28_000 });
  expect(evaluation.statistics!.speakers.map((speaker) => speaker.speaker)).toEqual(['Daniel', 'Maria']);
  expectTalkSharesByTime(evaluation.statistics!.speakers);
}

/**
 * The stereo call: scored on what the speech engine heard, so only what is robust is asserted — every
 * criterion judged with its evidence quoted from its segment, the refund heard and passed on the
 * representative's words, a speaker per channel with the representative first, and statistics
 * from the word timings, talk shares by time.
 */
export function expectStereoCallJudged(summary: CallSummary, team: SavedTeam, call: SynthesizedCall): void {
  const evaluation = expectScoredByTheTeam(summary, team);
  const refund = evaluation.verdicts.find((verdict) => verdict.criterionName === 'Refund')!;
  // On failure, say what the speech engine heard.
  const heard = `${refund.reason}\nheard:\n${summary.transcript}`;
  expect(refund.passed, heard).toBe(true);
  expect(refund.evidence.some((evidence) => /\brefund\b/i.test(evidence.quote) && evidence.role === 'representative'), heard).toBe(true);
  expect(evaluation.verdicts.find((verdict) => verdict.criterionName === 'Premium plan')!.passed).toBe(false);
  expect(evaluation.scriptMatch).not.toBeNull();

  expect([...new Set(summary.segments.map((segment) => `${segment.speaker}/${segment.role}`))]).toEqual(['Speaker 1/representative', 'Speaker 2/contact']);
  for (const segment of summary.segments) {
    expect(segment.startMs).not.toBeNull();
    expect(segment.endMs!).toBeGreaterThanOrEqual(segment.startMs!);
  }
  expect(evaluation.statistics).toMatchObject({ timed: true, wordTimings: true });
  expect(evaluation.statistics!.durationMs).toBeGreaterThan(0);
  expect(evaluation.statistics!.durationMs).toBeLessThanOrEqual(call.durationMs);
  expect(evaluation.statistics!.speakers.map((speaker) => speaker.speaker)).toEqual(['Speaker 1', 'Speaker 2']);
  expectTalkSharesByTime(evaluation.statistics!.speakers);
}
