/**
 * Stands in for an OpenAI-compatible server (OpenAI itself, or vLLM, Ollama, LM Studio…), which
 * these machines cannot reach: a real HTTP server on 127.0.0.1 speaking the documented Chat
 * Completions API at `POST /v1/chat/completions`. It checks the request the way OpenAI does (a
 * JSON body with `model` and `messages`, a Bearer key when it was started with one) and answers
 * in OpenAI's shapes: a `chat.completion` object, or `{ error: { message, type, code } }`.
 *
 * The assistant's text comes from the `reply` function the test passes in; every request that
 * reached the endpoint is recorded for the test to inspect. `fail`, `delayMs` and `rawBody` make
 * it misbehave the ways a real server can.
 */
import { apiKeyError, failureError, openAIError, startOpenAICompatibleServer, type OpenAIFailure } from './openai-compatible-server.js';

export interface ChatMessage {
  role: string;
  content: string;
}

/** The documented request body; the fake ignores the other fields a client may send. */
export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  [field: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** The Authorization header as sent, if any. */
  authorization: string | undefined;
  contentType: string | undefined;
  /** The parsed JSON body, or undefined when it was not JSON. */
  body: ChatCompletionRequest | undefined;
}

export interface FakeOpenAIOptions {
  /** The assistant message's content. Default: a fixed evaluation prompt. */
  reply?: (request: ChatCompletionRequest) => string;
  /** When set, requests must carry `Authorization: Bearer <apiKey>`, else 401 as OpenAI answers. */
  apiKey?: string;
  /** Answer every valid request with this status and an OpenAI-style error body. */
  fail?: OpenAIFailure;
  /** Wait this long before answering (to test timeouts). */
  delayMs?: number;
  /** Answer 200 with exactly this body instead of a completion (to test malformed answers). */
  rawBody?: string;
}

export interface FakeOpenAI {
  /** http://127.0.0.1:<port>/v1, what a client is configured with. */
  baseUrl: string;
  /** The requests that reached /v1/chat/completions, oldest first. */
  requests(): RecordedRequest[];
  close(): Promise<void>;
}

export const FAKE_OPENAI_DEFAULT_REPLY =
  'The representative must greet the customer warmly. Pass if a greeting opens the call. Fail if there is none.';

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const recorded: RecordedRequest[] = [];
  let completions = 0;

  const server = await startOpenAICompatibleServer({
    endpoint: '/v1/chat/completions',
    delayMs: options.delayMs,
    handle: (request, send) => {
      let body: ChatCompletionRequest | undefined;
      try {
        body = JSON.parse(request.body.toString('utf8')) as ChatCompletionRequest;
      } catch {
        body = undefined;
      }
      const { method, path, authorization, contentType } = request;
      recorded.push({ method, path, authorization, contentType, body });

      const refused = apiKeyError(options.apiKey, authorization);
      if (refused) return send(401, refused);
      if (!body || typeof body !== 'object' || Array.isArray(body)) {
        return send(400, openAIError('We could not parse the JSON body of your request.', 'invalid_request_error'));
      }
      if (typeof body.model !== 'string' || body.model === '') {
        return send(400, openAIError('you must provide a model parameter', 'invalid_request_error', null, 'model'));
      }
      const messagesValid =
        Array.isArray(body.messages) &&
        body.messages.length > 0 &&
        body.messages.every((message) => typeof message?.role === 'string' && typeof message.content === 'string');
      if (!messagesValid) {
        return send(400, openAIError("Invalid 'messages': expected a non-empty array of {role, content}.", 'invalid_request_error', null, 'messages'));
      }
      if (options.fail) return send(options.fail.status, failureError(options.fail));
      if (options.rawBody !== undefined) return send(200, options.rawBody);

      const content = (options.reply ?? (() => FAKE_OPENAI_DEFAULT_REPLY))(body);
      completions += 1;
      const promptTokens = Math.ceil(body.messages.reduce((sum, message) => sum + message.content.length, 0) / 4);
      const completionTokens = Math.ceil(content.length / 4);
      send(200, {
        id: `chatcmpl-fake${completions}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      });
    },
  });

  return { baseUrl: server.baseUrl, requests: () => recorded.map((request) => ({ ...request })), close: () => server.close() };
}
