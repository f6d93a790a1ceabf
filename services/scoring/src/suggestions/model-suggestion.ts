/**
 * Asks a language model for a criterion's evaluation prompt, through the OpenAI Chat Completions
 * API (`POST {baseUrl}/chat/completions`), which OpenAI and most self-hosted servers (vLLM,
 * Ollama, LM Studio, llama.cpp) speak. The answer is cleaned into plain text of at most
 * CRITERION_PROMPT_MAX_LENGTH characters. Every failure is a ModelSuggestionError whose message
 * says what went wrong in words a person can act on, and never contains the API key.
 */
import { authHeaders, readChatReply } from '../model-server/chat-protocol.js';
import { fitToLength } from '../model-server/fit-to-length.js';
import { chatCompletionsUrl, isTimeout, networkReason, serverMessage, withoutCredentials, withoutSecrets } from '../model-server/model-server-text.js';
import { CRITERION_PROMPT_MAX_LENGTH, toPlainText, type CriterionPromptInput } from './offline-suggestion.js';

export interface ModelSuggesterOptions {
  /** The server's OpenAI-compatible base URL, e.g. http://127.0.0.1:1234/v1. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string | undefined;
  /** How long to wait for the whole answer. */
  timeoutMs: number;
}

export type ModelSuggester = (input: CriterionPromptInput) => Promise<string>;

export type ModelFailure = 'unreachable' | 'timeout' | 'rejected' | 'malformed' | 'empty';

export class ModelSuggestionError extends Error {
  constructor(
    readonly failure: ModelFailure,
    message: string,
    /** The HTTP status, when the server answered with one other than 2xx. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelSuggestionError';
  }
}

export const SUGGESTION_SYSTEM_PROMPT = [
  'You write evaluation prompts for a call-quality scoring engine that checks transcripts of sales, HR and support calls.',
  'Given a criterion name and its current description, reply with one plain-text evaluation prompt of at most 450 characters.',
  'State what the representative must say or do, then what counts as a pass ("Pass if ...") and what counts as a fail ("Fail if ...").',
  'Keep concrete details from the description, such as product names and phrases in quotes.',
  'Reply with the prompt only: no preamble, no markdown, no lists, no surrounding quotes.',
].join(' ');

const TEMPERATURE = 0.2;

export function createModelSuggester(options: ModelSuggesterOptions): ModelSuggester {
  const url = chatCompletionsUrl(options.baseUrl);
  const server = `Language model server at ${withoutCredentials(url)}`;
  const scrub = (text: string) => withoutSecrets(text, options.apiKey);
  const headers = authHeaders(options.apiKey);

  return async (input) => {
    const body = JSON.stringify({
      model: options.model,
      messages: [
        { role: 'system', content: SUGGESTION_SYSTEM_PROMPT },
        { role: 'user', content: userMessage(input) },
      ],
      temperature: TEMPERATURE,
    });

    let status: number;
    let statusText: string;
    let text: string;
    try {
      const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(options.timeoutMs) });
      status = response.status;
      statusText = response.statusText;
      text = await response.text();
    } catch (error) {
      if (isTimeout(error)) throw new ModelSuggestionError('timeout', `${server} did not answer within ${options.timeoutMs} ms`);
      throw new ModelSuggestionError('unreachable', `${server} could not be reached (${scrub(networkReason(error))})`);
    }

    if (status < 200 || status > 299) {
      const detail = serverMessage(text);
      const explained = detail ? `: ${scrub(detail)}` : statusText ? ` ${statusText}` : '';
      throw new ModelSuggestionError('rejected', `${server} answered HTTP ${status}${explained}`, status);
    }

    const reply = readChatReply(text);
    if (typeof reply === 'string') throw new ModelSuggestionError('malformed', `${server} answered ${reply}`);
    const suggestion = cleanSuggestion(reply.content ?? '');
    if (!suggestion) {
      const reason = reply.finishReason === undefined ? '' : ` (finish_reason ${reply.finishReason})`;
      throw new ModelSuggestionError('empty', `${server} answered with an empty suggestion${reason}`);
    }
    return suggestion;
  };
}

/**
 * A model's answer as a criterion prompt: surrounding markdown fences and quotes and a leading
 * "Prompt:" label removed, one plain paragraph, cut at a sentence or word boundary to the
 * criterion description limit.
 */
export function cleanSuggestion(content: string): string {
  let text = content.trim();
  const fenced = /^```[\w-]*\s*\n?([\s\S]*?)\n?\s*```$/.exec(text);
  if (fenced) text = (fenced[1] ?? '').trim();
  text = toPlainText(text).replace(/^(?:evaluation\s+)?prompt:\s*/i, '');
  for (let unwrapped = unwrap(text); unwrapped !== text; unwrapped = unwrap(text)) text = unwrapped;
  return fitToLength(text, CRITERION_PROMPT_MAX_LENGTH);
}

const QUOTE_PAIRS: Array<[string, string]> = [
  ['"', '"'],
  ["'", "'"],
  ['“', '”'],
  ['‘', '’'],
  ['«', '»'],
  ['`', '`'],
];

function unwrap(text: string): string {
  for (const [open, close] of QUOTE_PAIRS) {
    const inner = text.slice(open.length, -close.length);
    // Only a pair around the whole text: "Say "hi". Pass if …" keeps its inner quotes.
    if (text.length > 1 && text.startsWith(open) && text.endsWith(close) && !inner.includes(open) && !inner.includes(close)) {
      return inner.trim();
    }
  }
  return text;
}

function userMessage(input: CriterionPromptInput): string {
  const description = input.description?.trim();
  return [`Criterion name: ${input.name.trim()}`, `Current description: ${description ? description : '(none)'}`].join('\n');
}
