/**
 * The parts of the OpenAI Chat Completions protocol that the criterion suggester and the chat
 * evaluation engine both speak: the headers of a request, and the first message of an answer.
 */

/** The first message of a chat completion. */
export interface ChatReply {
  content: string | null;
  /** Set when the model declined to answer (OpenAI's structured-output refusal). */
  refusal: string | null;
  /** "stop", or "length" when the answer was cut at the model's output limit. */
  finishReason: string | undefined;
}

/** A JSON request's headers, with `Authorization: Bearer …` when there is an API key. */
export function authHeaders(apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  return headers;
}

/**
 * The answer's `choices[0].message`, or what is wrong with the body, worded to follow "answered":
 * "with a body that is not JSON", "without choices[0].message (…)", "with a message content that
 * is not text".
 */
export function readChatReply(text: string): ChatReply | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'with a body that is not JSON';
  }
  const choice = (body as { choices?: Array<{ message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown }> } | null)?.choices?.[0];
  if (!choice || typeof choice.message !== 'object' || choice.message === null) return 'without choices[0].message (not a Chat Completions response)';
  const { content, refusal } = choice.message;
  if (content !== undefined && content !== null && typeof content !== 'string') return 'with a message content that is not text';
  return {
    content: typeof content === 'string' ? content : null,
    refusal: typeof refusal === 'string' && refusal.trim() !== '' ? refusal : null,
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : undefined,
  };
}
