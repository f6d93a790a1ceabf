/**
 * An evaluation as stored and announced: what the engine judged (verdicts, success, summary),
 * plus what is measured the same way whatever the engine — the score from the team's weights, the
 * script match, the conversation statistics — the Areas for Improvement, grouped from the failed
 * verdicts by criteria group in the team's order, and the warnings of the transcript and the engine.
 */
import type { CriteriaGroup } from '@parlance/proto/parlance/identity/v1/teams';
import type { Evaluation, Improvement } from '@parlance/proto/parlance/scoring/v1/evaluation';
import type { Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import { activityKindOf } from '@parlance/platform/activity/activity-kind';
import type { EvaluationInput, JudgedVerdict, Judgement } from '../engines/evaluation-engine.js';
import { conversationStatistics } from './conversation-statistics.js';
import { weightedScore } from './score.js';
import { markForReview, successNeedsReview } from './review.js';
import { measureScriptMatch } from './script-match.js';

export const EVALUATION_WARNINGS = {
  noCriteria: 'The team has no evaluation criteria, so nothing was scored: add criteria to the team to score its activities.',
} as const;

/** Whether any segment says anything: a letter or a digit, in any script. */
export function hasWordsToEvaluate(transcript: Transcript): boolean {
  return transcript.segments.some((segment) => /[\p{L}\p{N}]/u.test(segment.text));
}

/** `reviewThreshold`: below it a verdict needs review; the team's own unless a caller says otherwise. */
export function assembleEvaluation(input: EvaluationInput, judgement: Judgement, evaluatedAt: Date, reviewThreshold = input.team.reviewThreshold): Evaluation {
  const { team, transcript } = input;
  const hasCriteria = team.criteriaGroups.some((group) => group.criteria.length > 0);
  return {
    activityId: input.activityId,
    kind: activityKindOf(input.kind),
    teamId: team.id,
    teamVersion: team.version,
    representativeEmail: input.representative.email,
    score: weightedScore(team.criteriaGroups, judgement.verdicts),
    scriptMatch: measureScriptMatch(team.callScript, transcript),
    isSuccessful: judgement.success.isSuccessful,
    successReason: judgement.success.reason,
    successConfidence: judgement.success.confidence,
    successEvidence: judgement.success.evidence,
    verdicts: markForReview(judgement.verdicts, reviewThreshold),
    summary: judgement.summary,
    improvements: improvementsFrom(team.criteriaGroups, judgement.verdicts),
    statistics: conversationStatistics(transcript),
    engine: judgement.engine,
    fallbackReason: judgement.fallbackReason,
    insightTokens: Math.max(0, Math.round(judgement.insightTokens)),
    evaluatedAt,
    warnings: evaluationWarnings(transcript, judgement, hasCriteria),
    reviewThreshold,
    successNeedsReview: successNeedsReview(judgement.success, reviewThreshold),
  };
}

/**
 * What the manager should know before trusting the evaluation: first how the transcript was made
 * (speakers told apart by voice, poor audio, a fallback speech engine, no speaker names), since it
 * bears on everything after; then what the engine said about its judging; then a team without
 * criteria. A warning said twice is shown once.
 */
function evaluationWarnings(transcript: Transcript, judgement: Judgement, hasCriteria: boolean): string[] {
  return [...new Set([...transcript.warnings, ...judgement.warnings, ...(hasCriteria ? [] : [EVALUATION_WARNINGS.noCriteria])])];
}

/**
 * One improvement per criteria group with a failed criterion, in the team's order of groups and
 * criteria, each failed criterion with its suggestion. Passed and inapplicable ones (which count
 * as passed) suggest nothing.
 */
export function improvementsFrom(groups: readonly CriteriaGroup[], verdicts: readonly JudgedVerdict[]): Improvement[] {
  const failed = new Map(verdicts.filter((verdict) => !verdict.passed).map((verdict) => [`${verdict.groupId}/${verdict.criterionId}`, verdict]));
  const improvements: Improvement[] = [];
  for (const group of groups) {
    const criteria = group.criteria.flatMap((criterion) => {
      const verdict = failed.get(`${group.id}/${criterion.id}`);
      if (!verdict) return [];
      return [{ criterionId: criterion.id, criterionName: criterion.name, suggestion: verdict.suggestion || verdict.expected || `Work on “${criterion.name}”.` }];
    });
    if (criteria.length > 0) improvements.push({ groupId: group.id, groupName: group.name, criteria });
  }
  return improvements;
}
