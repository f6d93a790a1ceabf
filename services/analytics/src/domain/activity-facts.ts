/**
 * The facts the pipeline's events state about an activity, in the shape the activity keeps them
 * (see activity-state.ts). Each reads only its own event, so it can be applied in any order.
 */
import { activityKindName } from '@parlance/platform/activity/activity-kind';
import { criteriaNeedingReview } from '@parlance/platform/activity/criteria-needing-review';
import { transcriptText } from '@parlance/platform/text/transcript-text';
import type { ActivityReceived } from '@parlance/proto/parlance/ingest/v1/events';
import { MediaKind, type ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import type { Evaluation } from '@parlance/proto/parlance/scoring/v1/evaluation';
import type { Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import type { ActivityFact, CriterionResult } from './activity-state.js';

/** `at` is the event's time; it also stands for an occurrence time the event left unset. */
export function receivedFact(received: ActivityReceived, at: Date): ActivityFact {
  const contact = received.contact;
  return {
    type: 'received',
    part: {
      receivedAt: at,
      kind: activityKindName(received.kind),
      teamId: received.teamId,
      occurredAt: received.occurredAt ?? at,
      representativeEmail: received.representativeEmail.trim().toLowerCase(),
      representativeName: received.representativeName,
      contactId: contact?.id ?? '',
      contactName: contact?.name ?? '',
      contactCompany: contact?.company ?? '',
      contactRole: contact?.role ?? '',
      link: received.link,
      title: received.title,
      fileName: received.fileName,
      media: received.mediaKind === MediaKind.MEDIA_KIND_AUDIO ? 'audio' : 'text',
    },
  };
}

/** Calls keep only the duration: their transcript is read from transcription when opened. */
export function transcribedFact(kind: ActivityKind, transcript: Transcript, at: Date): ActivityFact {
  return {
    type: 'transcribed',
    part: {
      transcribedAt: at,
      durationSeconds: wholeSeconds(transcript.durationMs),
      transcript: activityKindName(kind) === 'meeting' ? transcriptText(transcript.segments) : '',
    },
  };
}

/**
 * The results are the verdicts on criteria that applied: an inapplicable criterion has no result
 * to show or filter by. Verdicts needing review are counted among all of them, as the summary
 * counts them ("2 criteria need review"), so the list and the summary say the same. `at` (the
 * event's time) stands for an evaluation time left unset.
 */
export function evaluatedFact(evaluation: Evaluation, at: Date): ActivityFact {
  const results: CriterionResult[] = evaluation.verdicts
    .filter((verdict) => verdict.applicable)
    .map(({ groupId, criterionId, passed }) => ({ groupId, criterionId, passed }));
  return {
    type: 'evaluated',
    part: {
      evaluatedAt: evaluation.evaluatedAt ?? at,
      score: evaluation.score,
      scriptMatch: evaluation.scriptMatch ?? null,
      isSuccessful: evaluation.isSuccessful ?? null,
      results,
      criteriaNeedingReview: criteriaNeedingReview(evaluation.verdicts),
      // Kept for calls too: a shared summary is read from here.
      summary: evaluation.summary?.text ?? '',
      improvements: evaluation.improvements,
      durationSeconds: wholeSeconds(evaluation.statistics?.durationMs ?? 0),
    },
  };
}

function wholeSeconds(ms: number): number {
  return Math.max(0, Math.round(ms / 1000));
}
