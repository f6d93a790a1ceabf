/**
 * The offline evaluator, Parlance's default engine: no network, no model, the same verdicts for
 * the same transcript every time, each with the evidence it rests on. How it reads a criterion is
 * in requirement.ts, how it finds and weighs evidence in criterion-evidence.ts and
 * criterion-judge.ts, success in success-judge.ts, the summary in summarizer.ts.
 */
import { teamCriteria, UnjudgeableActivityError, type EvaluationEngine, type EvaluationInput, type Judgement } from '../engines/evaluation-engine.js';
import { offlineInsightTokens } from '../domain/insight-tokens.js';
import { readConversation } from './conversation.js';
import { judgeCriteria } from './criterion-judge.js';
import { readRequirement } from './requirement.js';
import { judgeSuccess } from './success-judge.js';
import { summarise } from './summarizer.js';
import { verdictOf } from './verdict-text.js';

export const OFFLINE_ENGINE_NAME = 'offline-evidence';
/**
 * Longest transcript it reads: about ten hours of talk. Beyond it the evaluation would hold the
 * worker for seconds and the transcript would not fit the events that carry it anyway.
 */
export const OFFLINE_MAX_WORDS = 100_000;

export function createOfflineEngine(): EvaluationEngine {
  return {
    name: OFFLINE_ENGINE_NAME,
    async judge(input, signal) {
      signal.throwIfAborted();
      return judgeOffline(input);
    },
  };
}

export function judgeOffline(input: EvaluationInput): Judgement {
  const words = input.transcript.segments.reduce((sum, segment) => sum + countWords(segment.text), 0);
  if (words > OFFLINE_MAX_WORDS) {
    throw new UnjudgeableActivityError(`the transcript has ${words.toLocaleString('en-US')} words, more than the ${OFFLINE_MAX_WORDS.toLocaleString('en-US')} the offline evaluator reads`);
  }
  const conversation = readConversation(input.transcript);
  const requirements = teamCriteria(input.team).map((criterion) => readRequirement(criterion));
  const verdicts = judgeCriteria(requirements, conversation).map((finding) => verdictOf(finding, conversation));
  const success = judgeSuccess(input.team.successPrompt, conversation);
  const summary = summarise(conversation, { kind: input.kind, success });
  const warnings: string[] = [];
  if (!conversation.hasRepresentative) warnings.push('No speaker was recognised as the representative, so every speaker was read as one.');
  return { verdicts, success, summary, engine: OFFLINE_ENGINE_NAME, fallbackReason: '', insightTokens: offlineInsightTokens(input), warnings };
}

/** Runs of non-blank characters, counted without building them. */
function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let at = 0; at < text.length; at += 1) {
    const blank = text.charCodeAt(at) <= 32;
    if (!blank && !inWord) words += 1;
    inWord = !blank;
  }
  return words;
}
