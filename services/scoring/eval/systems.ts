/**
 * What the harness compares: engines (anything behind the EvaluationEngine contract) and the
 * baselines each dataset computes in the same run. Both answer with a Prediction, the part of a
 * Judgement the figures read.
 */
import type { EvaluationInput, Judgement } from '../src/engines/evaluation-engine.js';

export interface PredictedVerdict {
  groupId: string;
  criterionId: string;
  passed: boolean;
  applicable: boolean;
  /** How sure the engine said it was; undefined for baselines, which state none. */
  confidence?: number;
  /** Only the segment indexes are read (evidence on the labelled turn). */
  evidence: { segmentIndex: number }[];
}

export interface Prediction {
  verdicts: PredictedVerdict[];
  /** Undefined: N/A. */
  isSuccessful: boolean | undefined;
  /** How sure the engine said it was of isSuccessful; undefined for baselines. */
  successConfidence?: number;
  summary: string;
}

export const EMPTY_PREDICTION: Prediction = { verdicts: [], isSuccessful: undefined, summary: '' };

export function predictionOf(judgement: Judgement): Prediction {
  return {
    verdicts: judgement.verdicts.map((verdict) => ({
      groupId: verdict.groupId,
      criterionId: verdict.criterionId,
      passed: verdict.passed,
      applicable: verdict.applicable,
      confidence: verdict.confidence,
      evidence: verdict.evidence.map((evidence) => ({ segmentIndex: evidence.segmentIndex })),
    })),
    isSuccessful: judgement.success.isSuccessful,
    successConfidence: judgement.success.confidence,
    summary: judgement.summary.text,
  };
}

/** One activity of a dataset: what the engine is given. Datasets extend it with their truth. */
export interface EvalCase {
  input: EvaluationInput;
}

export interface Baseline<C extends EvalCase> {
  name: string;
  /** One line: what it predicts. */
  description: string;
  predict(item: C): Prediction;
}

/** The verdict of one criterion, or undefined when the prediction has none. */
export function verdictOf(prediction: Prediction, groupId: string, criterionId: string): PredictedVerdict | undefined {
  return prediction.verdicts.find((verdict) => verdict.groupId === groupId && verdict.criterionId === criterionId);
}

/**
 * Whether a verdict says the criterion failed. An inapplicable criterion counts as passed (the
 * contract's rule for the score), and a missing verdict as not failed.
 */
export function saysFailed(verdict: PredictedVerdict | undefined): boolean {
  return verdict !== undefined && verdict.applicable && !verdict.passed;
}

/** What running one engine over one dataset cost and how it went. */
export interface EngineRun {
  engine: string;
  activities: number;
  totalMs: number;
  meanMs: number;
  maxMs: number;
  /** Activities whose judge() rejected; their prediction is empty (no verdicts, N/A, no summary). */
  errors: number;
  firstErrors: string[];
  /** Judgements with a fallback reason (the chat engine answered with the offline one). */
  fallbacks: number;
  /** How many judgements each `Judgement.engine` wrote. */
  judgedBy: Record<string, number>;
  insightTokens: number;
  /** Verdicts the team had a criterion for but the judgement left out. */
  missingVerdicts: number;
}
