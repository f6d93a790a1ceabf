/**
 * Insight tokens: the unit evaluations are charged in (the plans' `insight_tokens_included`, the
 * overage price per 1,000). One insight token is one token of the language model that judged:
 * the chat engine charges exactly the usage its server reports (prompt and completion tokens of
 * every request, retries included).
 *
 * The offline engine reads the same material without a model, and charges what the chat engine
 * would have been charged for it, so a plan's allowance means the same whichever engine a company
 * runs: the text sent (instructions, criteria, success prompt, call script and transcript) at four
 * characters per token — OpenAI's rule of thumb for English — plus an answer of
 * ANSWER_TOKENS_PER_CRITERION per criterion and ANSWER_TOKENS_FIXED for the success verdict and
 * the summary.
 */
import type { EvaluationInput } from '../engines/evaluation-engine.js';

export const CHARACTERS_PER_TOKEN = 4;
/** The chat engine's standing instructions, in tokens. */
export const INSTRUCTION_TOKENS = 900;
export const ANSWER_TOKENS_PER_CRITERION = 60;
export const ANSWER_TOKENS_FIXED = 250;

export function offlineInsightTokens(input: EvaluationInput): number {
  const { team, transcript } = input;
  let characters = team.successPrompt.length + team.callScript.length;
  let criteria = 0;
  for (const group of team.criteriaGroups) {
    characters += group.name.length;
    for (const criterion of group.criteria) {
      characters += criterion.name.length + criterion.prompt.length;
      criteria += 1;
    }
  }
  for (const segment of transcript.segments) characters += segment.speaker.length + segment.text.length + 2;
  return INSTRUCTION_TOKENS + Math.ceil(characters / CHARACTERS_PER_TOKEN) + criteria * ANSWER_TOKENS_PER_CRITERION + ANSWER_TOKENS_FIXED;
}
