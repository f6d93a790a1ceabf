/**
 * The demo data held against the truth its generator kept: the demo teams as the evaluator sees
 * them, a demo conversation judged by the offline evaluator (what the standalone product scores
 * with) from its text or from its recording as the speech engine heard it, and the agreement
 * between verdicts and truth, per criterion, per team and for success.
 *
 * Shared by the demo-truth test and the speech benchmark (bench/speech-accuracy.bench.ts), so
 * that both measure recorded calls exactly as `make run` seeds and transcribes them.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMO_TEAMS } from '@parlance/identity/demo-teams';
import { ActivityKind, type ActivityKind as ActivityKindValue } from '@parlance/proto/parlance/ingest/v1/ingest';
import { SpeakerRole, type Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import { DEFAULT_REVIEW_THRESHOLD } from '@parlance/scoring/domain/review';
import type { TeamSnapshot } from '@parlance/scoring/engines/evaluation-engine';
import { judgeOffline } from '@parlance/scoring/offline/offline-engine';
import { wordErrorRate, type WordErrorRate } from '@parlance/transcription/domain/word-error-rate';
import { transcribeRecording, type TranscribeDependencies } from '@parlance/transcription/pipeline/transcribe-activity';
import { demoActivity, type DemoActivity, type DemoPlan, type DemoTeam } from '../../src/domain/demo-conversations.js';
import { recordedCall } from '../../src/seeding/recorded-call.js';

/** The demo company's teams as identity creates them, each with an id of its own. */
export const demoTeams: DemoTeam[] = DEMO_TEAMS.map((demo, index) => ({
  id: `team-${index}`,
  name: demo.team.name,
  department: demo.team.department,
  members: demo.members.map(({ firstName, lastName, email }) => ({ firstName, lastName, email })),
}));

const snapshots = new Map<string, TeamSnapshot>(
  DEMO_TEAMS.map((demo, index) => [
    `team-${index}`,
    {
      id: `team-${index}`,
      version: 1,
      name: demo.team.name,
      department: demo.team.department,
      successPrompt: demo.team.successPrompt,
      callScript: demo.team.callScript ?? '',
      // The demo teams never choose one: they have the default.
      reviewThreshold: DEFAULT_REVIEW_THRESHOLD,
      criteriaGroups: (demo.team.criteriaGroups ?? []).map((group) => ({
        id: group.id,
        name: group.name,
        criteria: group.criteria.map((criterion) => ({ id: criterion.id, name: criterion.name, prompt: criterion.prompt, weight: Number(criterion.weightText) })),
      })),
    },
  ]),
);

export function teamOf(activity: DemoActivity): TeamSnapshot {
  const team = snapshots.get(activity.teamId);
  if (!team) throw new Error(`no demo team has the id ${activity.teamId}`);
  return team;
}

/** The most recordings seeding makes (DEMO_RECORDED_CALLS is at most 50): they are its first sequences. */
export const MOST_RECORDED_CALLS = 50;

/**
 * The first `perTeam` recorded calls of every demo team, as seeding makes them when
 * DEMO_RECORDED_CALLS is at its most: the same conversations `make run` records (with DEMO_SEED's
 * default, 26), and more of them.
 */
export function recordedCallSample(perTeam: number, seed = 26): DemoActivity[] {
  const plan: DemoPlan = { calls: 2_000, meetings: 200, recordedCalls: MOST_RECORDED_CALLS, seed, now: new Date('2026-11-23T12:00:00Z') };
  const taken = new Map<string, number>();
  const sample: DemoActivity[] = [];
  for (let sequence = 0; sequence < MOST_RECORDED_CALLS; sequence += 1) {
    const activity = demoActivity(plan, demoTeams, sequence)!;
    const count = taken.get(activity.teamId) ?? 0;
    if (count >= perTeam) continue;
    taken.set(activity.teamId, count + 1);
    sample.push(activity);
  }
  return sample;
}

const kindOf = (activity: DemoActivity): ActivityKindValue => (activity.kind === 'meeting' ? ActivityKind.ACTIVITY_KIND_MEETING : ActivityKind.ACTIVITY_KIND_CALL);

/** The conversation as its text upload reads: named, timed lines, the representative known by name. */
export function textTranscript(activity: DemoActivity): Transcript {
  return {
    activityId: `activity-${activity.sequence}`,
    kind: kindOf(activity),
    sourceFormat: 'timestamped-lines',
    engine: 'text',
    durationMs: activity.lines.at(-1)?.endMs ?? 0,
    speakers: [...new Set(activity.lines.map((line) => line.speaker))].map((label) => ({
      label,
      role: label === activity.representative.fullName ? SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE : SpeakerRole.SPEAKER_ROLE_CONTACT,
    })),
    segments: activity.lines.map((line) => ({ speaker: line.speaker, startMs: line.startMs, endMs: line.endMs, text: line.text, words: [] })),
    warnings: [],
  };
}

export interface HeardCall {
  transcript: Transcript;
  /** Against the text the call was spoken from. */
  wordErrors: WordErrorRate;
  audioMs: number;
  /** Time to transcribe it (synthesis not included). */
  seconds: number;
  /** Whether the speaker the pipeline took for the representative is the one who spoke their lines. */
  representativeRight: boolean;
}

/**
 * A recorded demo call as the product hears it: spoken and mixed exactly as seeding uploads it
 * (recordedCall), written to `directory`, and transcribed by transcribeRecording, the function
 * the transcription service runs on a recording, with its roles as the pipeline gives them.
 */
export async function hearRecordedCall(deps: TranscribeDependencies, activity: DemoActivity, directory: string): Promise<HeardCall> {
  await mkdir(directory, { recursive: true });
  // The file name seeding gives it: unique across seeds and sequences.
  const path = join(directory, `${activity.sequence}-${activity.fileName}`);
  await writeFile(path, await recordedCall(activity));
  const request = {
    kind: activity.kind,
    teamId: activity.teamId,
    representativeEmail: activity.representative.email,
    representativeName: activity.representative.firstName,
    fileName: activity.fileName,
    mediaKind: 'audio',
    mediaFormat: 'wav',
  } as const;
  const started = performance.now();
  const draft = await transcribeRecording(deps, request, path);
  const seconds = (performance.now() - started) / 1000;
  const transcript: Transcript = { activityId: `activity-${activity.sequence}`, kind: kindOf(activity), ...draft };
  const spoken = activity.lines.map((line) => line.text).join(' ');
  const heard = transcript.segments.map((segment) => segment.text).join(' ');
  return { transcript, wordErrors: wordErrorRate(spoken, heard), audioMs: draft.durationMs, seconds, representativeRight: representativeIsRight(activity, transcript) };
}

/**
 * Whether the speakers the pipeline took for the representative are exactly those whose words are
 * the representative's lines: each speaker is told by which side's lines their words are closer to.
 */
function representativeIsRight(activity: DemoActivity, transcript: Transcript): boolean {
  const linesOf = (representative: boolean) =>
    activity.lines
      .filter((line) => (line.role === 'representative') === representative)
      .map((line) => line.text)
      .join(' ');
  const [representativeLines, otherLines] = [linesOf(true), linesOf(false)];
  return transcript.speakers.every((speaker) => {
    const said = transcript.segments
      .filter((segment) => segment.speaker === speaker.label)
      .map((segment) => segment.text)
      .join(' ');
    const spokeForRepresentative = wordErrorRate(representativeLines, said).wer < wordErrorRate(otherLines, said).wer;
    return spokeForRepresentative === (speaker.role === SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE);
  });
}

export interface CriterionOutcome {
  team: string;
  criterion: string;
  /** What the generator put in the conversation. */
  met: boolean;
  /** What the evaluator found. */
  passed: boolean;
}

export interface JudgedAgainstTruth {
  activity: DemoActivity;
  criteria: CriterionOutcome[];
  /** `judged` is undefined when the evaluator did not judge success (a team without a success prompt). */
  success: { truth: boolean; judged: boolean | undefined };
}

/** The offline evaluator's verdicts on a transcript of the activity, beside the truth. */
export function judgeAgainstTruth(activity: DemoActivity, transcript: Transcript): JudgedAgainstTruth {
  const team = teamOf(activity);
  const judgement = judgeOffline({
    activityId: transcript.activityId,
    kind: activity.kind,
    team,
    representative: { email: activity.representative.email, name: activity.representative.firstName },
    transcript,
  });
  const names = new Map(team.criteriaGroups.flatMap((group) => group.criteria.map((criterion) => [criterion.id, criterion.name] as const)));
  const criteria = judgement.verdicts.map((verdict) => {
    const criterion = names.get(verdict.criterionId) ?? verdict.criterionId;
    return { team: team.name, criterion, met: activity.truth.met.includes(criterion), passed: verdict.passed };
  });
  return { activity, criteria, success: { truth: activity.truth.successful, judged: judgement.success.isSuccessful } };
}

export interface Agreement {
  judged: number;
  /** Share of criterion verdicts that match the truth, over every criterion judged. */
  overall: number;
  /** Share of activities whose success verdict matches the truth. */
  success: number;
  /** Per "Team / Criterion". */
  rates: Record<string, number>;
}

/** How often the verdicts agree with the truth: overall, for success, and per criterion. */
export function agreementOf(judged: readonly JudgedAgainstTruth[]): Agreement {
  const criteria = new Map<string, { agree: number; total: number }>();
  for (const outcome of judged.flatMap((each) => each.criteria)) {
    const name = `${outcome.team} / ${outcome.criterion}`;
    const entry = criteria.get(name) ?? { agree: 0, total: 0 };
    entry.total += 1;
    if (outcome.passed === outcome.met) entry.agree += 1;
    criteria.set(name, entry);
  }
  const totals = [...criteria.values()].reduce((sum, { agree, total }) => ({ agree: sum.agree + agree, total: sum.total + total }), { agree: 0, total: 0 });
  const successAgree = judged.filter((each) => each.success.truth === each.success.judged).length;
  return {
    judged: judged.length,
    overall: round(totals.total > 0 ? totals.agree / totals.total : 0),
    success: round(judged.length > 0 ? successAgree / judged.length : 0),
    rates: Object.fromEntries([...criteria].map(([name, { agree, total }]) => [name, round(agree / total)])),
  };
}

/** Agreement per team, for reports that put text and recordings side by side. */
export function agreementByTeam(judged: readonly JudgedAgainstTruth[]): Record<string, Agreement> {
  const teams = [...new Set(judged.map((each) => teamOf(each.activity).name))];
  return Object.fromEntries(teams.map((name) => [name, agreementOf(judged.filter((each) => teamOf(each.activity).name === name))]));
}

/** What a judged conversation got wrong, in a line: the criteria whose verdict differs from the truth, and success. */
export function disagreements(judged: JudgedAgainstTruth): string[] {
  const wrong = judged.criteria.filter((outcome) => outcome.passed !== outcome.met).map((outcome) => `${outcome.criterion} ${outcome.passed ? 'passed' : 'failed'} but was ${outcome.met ? 'met' : 'missed'}`);
  if (judged.success.judged !== judged.success.truth) wrong.push(`success judged ${judged.success.judged} but was ${judged.success.truth}`);
  return wrong;
}

const round = (value: number) => Number(value.toFixed(3));
