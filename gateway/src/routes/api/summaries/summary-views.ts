/** Between transcription's transcript and scoring's evaluation (protobuf) and the summary JSON. */
import type { Static } from 'typebox';
import { criteriaNeedingReview } from '@parlance/platform/activity/criteria-needing-review';
import { clockTime } from '@parlance/platform/text/clock-time';
import { transcriptText } from '@parlance/platform/text/transcript-text';
import type { ConversationStatistics, Evaluation, Evidence } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { SpeakerRole, type Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import type { ActivitySummaryResponse, EvaluationView, EvidenceView, StatisticsView } from '../../../schemas/summaries.schema.js';

export { clockTime };

type Role = Static<typeof EvidenceView>['role'];

export function activitySummaryView(transcript: Transcript | undefined, evaluation: Evaluation | undefined): Static<typeof ActivitySummaryResponse> {
  const roles = new Map((transcript?.speakers ?? []).map((speaker) => [speaker.label, roleName(speaker.role)]));
  const segments = (transcript?.segments ?? []).map((segment, index) => ({
    index,
    speaker: segment.speaker,
    role: roles.get(segment.speaker) ?? ('unknown' as const),
    startMs: segment.startMs ?? null,
    endMs: segment.endMs ?? null,
    text: segment.text,
  }));
  return {
    transcript: transcriptText(transcript?.segments ?? []),
    summary: evaluation?.summary?.text ?? '',
    improvements: (evaluation?.improvements ?? []).map((group) => ({
      id: group.groupId,
      name: group.groupName,
      criteria: group.criteria.map((criterion) => ({ id: criterion.criterionId, name: criterion.criterionName, suggestion: criterion.suggestion })),
    })),
    segments,
    evaluation: evaluation ? evaluationView(evaluation) : null,
  };
}

function evaluationView(evaluation: Evaluation): Static<typeof EvaluationView> {
  return {
    score: evaluation.score,
    criteriaNeedingReview: criteriaNeedingReview(evaluation.verdicts),
    reviewThreshold: evaluation.reviewThreshold,
    scriptMatch: evaluation.scriptMatch ?? null,
    isSuccessful: evaluation.isSuccessful ?? null,
    successConfidence: evaluation.successConfidence,
    successNeedsReview: evaluation.successNeedsReview,
    successReason: evaluation.successReason,
    successEvidence: evaluation.successEvidence.map(evidenceView),
    verdicts: evaluation.verdicts.map((verdict) => ({
      groupId: verdict.groupId,
      groupName: verdict.groupName,
      criterionId: verdict.criterionId,
      criterionName: verdict.criterionName,
      weight: verdict.weight,
      passed: verdict.passed,
      applicable: verdict.applicable,
      confidence: verdict.confidence,
      needsReview: verdict.needsReview,
      reason: verdict.reason,
      expected: verdict.expected,
      suggestion: verdict.suggestion,
      evidence: verdict.evidence.map(evidenceView),
    })),
    statistics: evaluation.statistics ? statisticsView(evaluation.statistics) : null,
    summaryDetails: {
      participants: evaluation.summary?.participants ?? [],
      discussion: evaluation.summary?.discussion ?? '',
      outcome: evaluation.summary?.outcome ?? '',
      nextSteps: evaluation.summary?.nextSteps ?? [],
    },
    engine: evaluation.engine,
    fallbackReason: evaluation.fallbackReason,
    insightTokens: evaluation.insightTokens,
    evaluatedAt: (evaluation.evaluatedAt ?? new Date(0)).toISOString(),
    warnings: evaluation.warnings,
  };
}

function evidenceView(evidence: Evidence): Static<typeof EvidenceView> {
  return {
    quote: evidence.quote,
    segmentIndex: evidence.segmentIndex,
    speaker: evidence.speaker,
    role: roleName(evidence.role),
    startMs: evidence.startMs ?? null,
  };
}

function statisticsView(statistics: ConversationStatistics): Static<typeof StatisticsView> {
  return {
    speakers: statistics.speakers.map((speaker) => ({ ...speaker, role: roleName(speaker.role), wordsPerMinute: speaker.wordsPerMinute ?? null })),
    durationMs: statistics.durationMs,
    timed: statistics.timed,
    wordTimings: statistics.wordTimings,
    representativeTalkShare: statistics.representativeTalkShare ?? null,
    longestMonologueSpeaker: statistics.longestMonologueSpeaker,
    longestMonologueMs: statistics.longestMonologueMs,
    longestMonologueWords: statistics.longestMonologueWords,
  };
}

function roleName(role: SpeakerRole): Role {
  if (role === SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE) return 'representative';
  if (role === SpeakerRole.SPEAKER_ROLE_CONTACT) return 'contact';
  return 'unknown';
}
