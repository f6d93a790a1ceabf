/**
 * The offline evaluator, Parlance's default engine: no network, the same verdicts for the same
 * transcript every time, each with the evidence it rests on. How it reads a criterion is in
 * requirement.ts, how it finds and weighs evidence in criterion-evidence.ts and criterion-judge.ts,
 * success in success-judge.ts, the summary in summarizer.ts; what the in-process sentence-embedding
 * model adds, when it is installed, in meaning.ts.
 */
import { teamCriteria, UnjudgeableActivityError, type EvaluationEngine, type EvaluationInput, type Judgement } from '../engines/evaluation-engine.js';
import { offlineInsightTokens } from '../domain/insight-tokens.js';
import type { SentenceEncoder } from '../semantic/sentence-encoder.js';
import { readConversation, type Conversation } from './conversation.js';
import { judgeCriteria, type Finding } from './criterion-judge.js';
import { readMeanings, withNearestInMeaning } from './meaning.js';
import { readRequirement } from './requirement.js';
import { judgeSuccess } from './success-judge.js';
import { summarise } from './summarizer.js';
import { verdictOf } from './verdict-text.js';

export const OFFLINE_ENGINE_NAME = 'offline-evidence';
/** The offline evaluator reading meaning with the sentence-embedding model as well as words. */
export const OFFLINE_MEANING_ENGINE_NAME = 'offline-evidence+minilm';
/**
 * Engines whose evaluations OFFLINE_MEANING_ENGINE_NAME's replace (pipeline/rescore.ts): words
 * alone, before the model. A change that alters the verdicts renames the engine and lists the old
 * name here, so that what is stored is scored again.
 */
export const SUPERSEDED_OFFLINE_ENGINES: readonly string[] = [OFFLINE_ENGINE_NAME];
/**
 * Longest transcript it reads: about ten hours of talk. Beyond it the evaluation would hold the
 * worker for seconds and the transcript would not fit the events that carry it anyway.
 */
export const OFFLINE_MAX_WORDS = 100_000;

/**
 * `encoder`: the sentence-embedding model, loaded on first use (offline/meaning.ts says what it is
 * used for); when it resolves to undefined (the model is not installed) the evaluation goes on by
 * words alone, under OFFLINE_ENGINE_NAME.
 */
export function createOfflineEngine(options: { encoder?: () => Promise<SentenceEncoder | undefined> } = {}): EvaluationEngine {
  const { encoder } = options;
  return {
    name: encoder ? OFFLINE_MEANING_ENGINE_NAME : OFFLINE_ENGINE_NAME,
    async judge(input, signal) {
      signal.throwIfAborted();
      const model = encoder && (await encoder());
      if (!model) return judgeOffline(input);
      const conversation = conversationOf(input);
      let findings = judgeCriteria(teamRequirements(input), conversation);
      // The model reads only for what the words left without evidence.
      const missing = findings.filter((finding) => finding.outcome === 'missing').map((finding) => finding.requirement);
      if (missing.length > 0) {
        const meanings = await readMeanings(conversation, missing, model);
        signal.throwIfAborted();
        findings = withNearestInMeaning(findings, conversation, meanings);
      }
      return { ...judgementOf(input, conversation, findings), engine: OFFLINE_MEANING_ENGINE_NAME };
    },
  };
}

export function judgeOffline(input: EvaluationInput): Judgement {
  const conversation = conversationOf(input);
  return judgementOf(input, conversation, judgeCriteria(teamRequirements(input), conversation));
}

function conversationOf(input: EvaluationInput): Conversation {
  const words = input.transcript.segments.reduce((sum, segment) => sum + countWords(segment.text), 0);
  if (words > OFFLINE_MAX_WORDS) {
    throw new UnjudgeableActivityError(`the transcript has ${words.toLocaleString('en-US')} words, more than the ${OFFLINE_MAX_WORDS.toLocaleString('en-US')} the offline evaluator reads`);
  }
  return readConversation(input.transcript);
}

const teamRequirements = (input: EvaluationInput) => teamCriteria(input.team).map((criterion) => readRequirement(criterion));

function judgementOf(input: EvaluationInput, conversation: Conversation, findings: readonly Finding[]): Judgement {
  const verdicts = findings.map((finding) => verdictOf(finding, conversation));
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
