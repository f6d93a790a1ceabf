/**
 * What the pipeline says about one activity, as the events' payloads: its receipt, its
 * transcript, two evaluations (a re-scoring), the failures of an earlier attempt, its deletion,
 * and changes of its team. Times are fixed so that tests can state the expected result.
 */
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@parlance/proto/parlance/events/v1/envelope';
import { TeamChanged } from '@parlance/proto/parlance/identity/v1/events';
import { ActivityDeleted, ActivityReceived } from '@parlance/proto/parlance/ingest/v1/events';
import { ActivityKind, MediaKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { Evaluation } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { ActivityScored, ScoringFailed } from '@parlance/proto/parlance/scoring/v1/events';
import { TranscriptionFailed, TranscriptReady } from '@parlance/proto/parlance/transcription/v1/events';
import { SpeakerRole, Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';

export const at = (minutes: number) => new Date(Date.UTC(2026, 9, 5, 9, minutes));

export interface ActivityScript {
  activityId: string;
  kind: ActivityKind;
  teamId: string;
  occurredAt: Date;
  representativeEmail: string;
}

export function activityScript(overrides: Partial<ActivityScript> = {}): ActivityScript {
  return {
    activityId: randomUUID(),
    kind: ActivityKind.ACTIVITY_KIND_MEETING,
    teamId: 'team-sales',
    occurredAt: at(0),
    representativeEmail: 'Anna.Lee@Example.com',
    ...overrides,
  };
}

export function received(script: ActivityScript): ActivityReceived {
  return ActivityReceived.fromPartial({
    activityId: script.activityId,
    jobId: `job-${script.activityId}`,
    kind: script.kind,
    teamId: script.teamId,
    representativeEmail: script.representativeEmail,
    representativeName: 'Anna',
    fileName: 'renewal-acme.txt',
    title: 'Renewal with Acme',
    mediaKind: script.kind === ActivityKind.ACTIVITY_KIND_MEETING ? MediaKind.MEDIA_KIND_TEXT : MediaKind.MEDIA_KIND_AUDIO,
    mediaFormat: 'text',
    occurredAt: script.occurredAt,
    source: 'upload',
    contact: { id: 'lead-42', name: 'Mark Doe', company: 'Acme', role: 'Head of Data' },
    link: 'https://meet.example.com/abc',
  });
}

export const TRANSCRIPT: Transcript = Transcript.fromPartial({
  sourceFormat: 'webvtt',
  engine: 'text',
  durationMs: 754_600,
  speakers: [
    { label: 'Anna', role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE },
    { label: 'Mark', role: SpeakerRole.SPEAKER_ROLE_CONTACT },
  ],
  segments: [
    { speaker: 'Anna', startMs: 0, endMs: 4_000, text: 'Good morning, this is Anna.' },
    { speaker: 'Mark', startMs: 65_000, endMs: 70_000, text: 'We want to renew.' },
    { speaker: 'Anna', text: 'Great, I will send the contract.' },
  ],
});

export function transcriptReady(script: ActivityScript): TranscriptReady {
  return TranscriptReady.fromPartial({
    activityId: script.activityId,
    jobId: `job-${script.activityId}`,
    kind: script.kind,
    teamId: script.teamId,
    representativeEmail: script.representativeEmail,
    representativeName: 'Anna',
    transcript: { ...TRANSCRIPT, activityId: script.activityId, kind: script.kind },
  });
}

export interface Judged {
  evaluatedAt: Date;
  score: number;
  /** Criterion id → passed; `null` for a criterion that did not apply. */
  verdicts: Record<string, boolean | null>;
  isSuccessful?: boolean;
  scriptMatch?: number;
  /** The criteria whose verdict needs review (applicable or not). */
  review?: string[];
}

export function evaluation(script: ActivityScript, judged: Judged): Evaluation {
  return Evaluation.fromPartial({
    activityId: script.activityId,
    kind: script.kind,
    teamId: script.teamId,
    teamVersion: 1,
    representativeEmail: script.representativeEmail.toLowerCase(),
    score: judged.score,
    scriptMatch: judged.scriptMatch,
    isSuccessful: judged.isSuccessful,
    verdicts: Object.entries(judged.verdicts).map(([criterionId, passed]) => ({
      groupId: criterionId === 'next-steps' ? 'closing' : 'opening',
      criterionId,
      passed: passed ?? true,
      applicable: passed !== null,
      needsReview: judged.review?.includes(criterionId) ?? false,
    })),
    reviewThreshold: 0.7,
    summary: { text: `Anna renewed Acme (${judged.score}).` },
    improvements: Object.entries(judged.verdicts)
      .filter(([, passed]) => passed === false)
      .map(([criterionId]) => ({ groupId: 'opening', groupName: 'Opening', criteria: [{ criterionId, criterionName: criterionId, suggestion: `Work on ${criterionId}.` }] })),
    statistics: { durationMs: 750_000 },
    engine: 'offline-evidence',
    evaluatedAt: judged.evaluatedAt,
  });
}

export const FIRST_SCORING: Judged = {
  evaluatedAt: at(20),
  score: 4,
  verdicts: { greeting: true, 'needs-analysis': false, 'next-steps': null },
  isSuccessful: false,
  review: ['needs-analysis', 'next-steps'],
};
export const RESCORING: Judged = {
  evaluatedAt: at(40),
  score: 7.5,
  verdicts: { greeting: true, 'needs-analysis': true, 'next-steps': false },
  isSuccessful: true,
  scriptMatch: 82.5,
  review: ['next-steps'],
};

export function activityScored(script: ActivityScript, judged: Judged): ActivityScored {
  return { activityId: script.activityId, jobId: `job-${script.activityId}`, evaluation: evaluation(script, judged), rescored: false };
}

export function teamChanged(teamId: string, version: number, department: string, deleted = false): TeamChanged {
  return TeamChanged.fromPartial({ team: { id: teamId, name: `Team ${teamId}`, department, version }, deleted });
}

/** One event as a topic carries it. */
export function envelope(companyId: string, type: string, payload: Uint8Array, occurredAt: Date, id: string = randomUUID()): EventEnvelope {
  return { id, type, companyId, producer: 'test', occurredAt, payload: Buffer.from(payload) };
}

/** The events of one activity's pipeline, each at its time; `deleted` adds its deletion last. */
export function pipelineEnvelopes(companyId: string, script: ActivityScript, options: { deleted?: boolean } = {}): EventEnvelope[] {
  const events = [
    envelope(companyId, 'ingest.activity-received.v1', ActivityReceived.encode(received(script)).finish(), at(1)),
    envelope(companyId, 'transcription.transcription-failed.v1', TranscriptionFailed.encode({ activityId: script.activityId, jobId: '', reason: 'the file contains no audio' }).finish(), at(2)),
    envelope(companyId, 'transcription.transcript-ready.v1', TranscriptReady.encode(transcriptReady(script)).finish(), at(10)),
    envelope(companyId, 'scoring.scoring-failed.v1', ScoringFailed.encode({ activityId: script.activityId, jobId: '', reason: 'the team’s criteria are unknown' }).finish(), at(15)),
    envelope(companyId, 'scoring.activity-scored.v1', ActivityScored.encode(activityScored(script, FIRST_SCORING)).finish(), at(20)),
    envelope(companyId, 'scoring.activity-scored.v1', ActivityScored.encode(activityScored(script, RESCORING)).finish(), at(40)),
    envelope(companyId, 'identity.team-changed.v1', TeamChanged.encode(teamChanged(script.teamId, 1, 'support')).finish(), at(3)),
    envelope(companyId, 'identity.team-changed.v1', TeamChanged.encode(teamChanged(script.teamId, 2, 'sales')).finish(), at(30)),
  ];
  if (options.deleted) events.push(envelope(companyId, 'ingest.activity-deleted.v1', ActivityDeleted.encode({ activityId: script.activityId, kind: script.kind }).finish(), at(50)));
  return events;
}
