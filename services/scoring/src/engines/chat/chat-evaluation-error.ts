/**
 * Why the chat model could not judge an activity. The message is written to be read by a person
 * (it becomes the evaluation's `fallbackReason`) and to be logged: it names the server by its URL
 * without credentials, and never carries the API key or any transcript text.
 */
export type ChatFailure =
  /** The server could not be reached (connection refused, DNS, TLS…), every attempt. */
  | 'unreachable'
  /** The server did not answer in time, every attempt. */
  | 'timeout'
  /** 429 or 5xx, every attempt. */
  | 'unavailable'
  /** The server asked us to wait longer than we do before trying again, or its quota is spent. */
  | 'rate-limited'
  /** A 4xx other than 429: our request or key is wrong; trying again would not help. */
  | 'rejected'
  /** The answer was not a chat completion, not JSON, or not the evaluation asked for, twice. */
  | 'malformed'
  /** The model declined to evaluate (`message.refusal`). */
  | 'refused'
  /** The team's criteria and the answer alone do not fit the model's context window. */
  | 'too-large';

export class ChatEvaluationError extends Error {
  /** Tokens the requests made before giving up used (reported by the server, or estimated). */
  tokensSpent = 0;

  constructor(
    readonly failure: ChatFailure,
    message: string,
    /** The last HTTP status, when the server answered with one other than 2xx. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ChatEvaluationError';
  }
}
