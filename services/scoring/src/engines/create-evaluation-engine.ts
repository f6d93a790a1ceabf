/**
 * The evaluation engine scoring runs, chosen by configuration: the offline evaluator when no
 * model is configured; otherwise the OpenAI-compatible chat model ("openai:<model>"), with the
 * offline evaluator judging instead whenever the model cannot (unreachable, time-outs, 429 and 5xx
 * after the retries, a rejected request, unusable answers, a transcript or team too large for its
 * context). Every activity gets an evaluation; one judged offline instead says why in
 * `fallbackReason`, and the failure is logged as a warning with that reason (never the API key,
 * never transcript text). An aborted signal is not a failure: it propagates, and nobody judges.
 */
import type { Logger } from '@parlance/platform/logger';
import type { ScoringConfig } from '../config.js';
import { ChatEvaluationError } from './chat/chat-evaluation-error.js';
import { createChatEvaluationEngine, type ChatEvaluationEngineOptions } from './chat/chat-evaluation-engine.js';
import type { EvaluationEngine } from './evaluation-engine.js';

export function createEvaluationEngine(
  settings: Pick<ScoringConfig['evaluation'], 'model'>,
  logger: Logger,
  offline: EvaluationEngine,
  /** Tests shorten the backoff; production uses the defaults. */
  chatOptions: ChatEvaluationEngineOptions = {},
): EvaluationEngine {
  const model = settings.model;
  if (!model) return offline;
  const chat = createChatEvaluationEngine(model, chatOptions);

  return {
    name: chat.name,
    async judge(input, signal) {
      try {
        return await chat.judge(input, signal);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        const known = error instanceof ChatEvaluationError;
        // A bug in the chat engine still leaves the activity judged. Its message may quote what
        // it choked on (a JSON.parse error quotes its input), so only its name and frames are kept.
        const reason = known ? error.message : `the chat engine failed unexpectedly (${error instanceof Error ? error.name : typeof error})`;
        logger.warn(
          {
            activityId: input.activityId,
            engine: chat.name,
            fallback: offline.name,
            failure: known ? error.failure : 'unexpected',
            reason,
            // What the failed requests cost at the model server; the evaluation itself is offline, and charges nothing.
            ...(known ? { tokensSpent: error.tokensSpent } : { frames: stackFrames(error) }),
          },
          'evaluation model failed; the offline evaluator judged instead',
        );
        const judgement = await offline.judge(input, signal);
        return { ...judgement, fallbackReason: reason };
      }
    },
  };
}

/** The stack without its first line, which carries the message. */
function stackFrames(error: unknown): string {
  return error instanceof Error && error.stack ? error.stack.split('\n').slice(1).join('\n') : '';
}
