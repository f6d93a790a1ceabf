/**
 * How many tokens a text takes, estimated without the model's tokenizer (a server may run any
 * model, and shipping every tokenizer is not worth it). OpenAI's tokenizers average a little over
 * 4 characters a token for English, so ASCII counts CHARACTERS_PER_TOKEN (4) characters a token,
 * the rule the offline engine charges insight tokens by. Every other character counts as a whole
 * token: accented, Cyrillic and CJK text takes between 1 and 3 characters a token, and
 * over-counting only splits a transcript into more parts than needed, where under-counting would
 * overflow the context.
 */
import { CHARACTERS_PER_TOKEN } from '../../domain/insight-tokens.js';

export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const character of text) {
    if ((character.codePointAt(0) ?? 0) < 128) ascii += 1;
    else other += 1;
  }
  return Math.ceil(ascii / CHARACTERS_PER_TOKEN) + other;
}

/** What wraps each message in the model's prompt (role, separators), after OpenAI's cookbook. */
const MESSAGE_OVERHEAD_TOKENS = 4;

/** The prompt a Chat Completions request makes: its messages, and the JSON schema the server adds to the prompt. */
export function estimateRequestTokens(messages: ReadonlyArray<{ content: string }>, schema: unknown): number {
  const text = messages.reduce((sum, message) => sum + MESSAGE_OVERHEAD_TOKENS + estimateTokens(message.content), 0);
  return text + estimateTokens(JSON.stringify(schema ?? null)) + MESSAGE_OVERHEAD_TOKENS;
}
