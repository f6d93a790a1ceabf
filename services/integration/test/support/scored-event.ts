/**
 * `scoring.activity-scored` as the write-back consumer receives it, for the write-back tests: an
 * evaluation of a call (6/10, successful, one failed criterion with a suggestion) and its event.
 */
import { randomUUID } from 'node:crypto';
import type { CriterionVerdict, Evaluation } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { ActivityScored } from '@parlance/proto/parlance/scoring/v1/events';
import { ACTIVITY_SCORED } from '../../src/events/writeback.consumer.js';

export function verdict(criterionName: string, weight: number, passed: boolean, suggestion = ''): CriterionVerdict {
  return { groupId: 'g', criterionId: criterionName, groupName: 'Discovery', criterionName, weight, passed, applicable: true, confidence: 0.8, needsReview: false, reason: '', expected: '', suggestion, evidence: [] };
}

export function evaluation(activityId: string, fields: Partial<Evaluation> = {}): Evaluation {
  return {
    activityId,
    kind: 1,
    teamId: 'team-sales',
    teamVersion: 1,
    representativeEmail: 'anna.lee@example.com',
    score: 6,
    isSuccessful: true,
    successReason: '',
    successConfidence: 0.7,
    successEvidence: [],
    verdicts: [verdict('Greeted by name', 6, true), verdict('Asked about the budget', 4, false, 'Ask what budget they have set aside.')],
    summary: undefined,
    improvements: [],
    statistics: undefined,
    engine: 'offline-evidence',
    fallbackReason: '',
    insightTokens: 0,
    evaluatedAt: new Date('2026-11-24T10:00:00.000Z'),
    warnings: [],
    reviewThreshold: 0.7,
    successNeedsReview: false,
    ...fields,
  };
}

/** `rescored`: the activity scored again by a newer engine. */
export function scoredEvent(companyId: string, scored: Evaluation, rescored = false) {
  return {
    id: randomUUID(),
    type: ACTIVITY_SCORED,
    companyId,
    occurredAt: new Date(),
    producer: 'scoring',
    payload: Buffer.from(ActivityScored.encode({ activityId: scored.activityId, jobId: randomUUID(), evaluation: scored, rescored }).finish()),
  };
}
