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
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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
  fail?: { status: number; message?: string; type?: string; code?: string | null };
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
  const timers = new Set<NodeJS.Timeout>();
  let completions = 0;

  const send = (response: ServerResponse, status: number, body: unknown) => {
    const write = () => {
      if (response.destroyed || response.writableEnded) return;
      response.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (!options.delayMs) return write();
    const timer = setTimeout(() => {
      timers.delete(timer);
      write();
    }, options.delayMs);
    timers.add(timer);
  };
  const error = (message: string, type: string, code: string | null = null, param: string | null = null) => ({ error: { message, type, param, code } });

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (request.method !== 'POST' || path !== '/v1/chat/completions') {
      send(response, 404, error(`Invalid URL (${request.method} ${path})`, 'invalid_request_error'));
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: ChatCompletionRequest | undefined;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatCompletionRequest;
      } catch {
        body = undefined;
      }
      const authorization = request.headers.authorization;
      recorded.push({ method: request.method ?? '', path, authorization, contentType: request.headers['content-type'], body });

      if (options.apiKey !== undefined) {
        if (!authorization) {
          send(response, 401, error("You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", 'invalid_request_error'));
          return;
        }
        const given = /^Bearer\s+(.+)$/i.exec(authorization)?.[1];
        if (given !== options.apiKey) {
          send(response, 401, error(`Incorrect API key provided: ${maskKey(given ?? '')}.`, 'invalid_request_error', 'invalid_api_key'));
          return;
        }
      }
      if (!body || typeof body !== 'object' || Array.isArray(body)) {
        send(response, 400, error('We could not parse the JSON body of your request.', 'invalid_request_error'));
        return;
      }
      if (typeof body.model !== 'string' || body.model === '') {
        send(response, 400, error('you must provide a model parameter', 'invalid_request_error', null, 'model'));
        return;
      }
      const messagesValid =
        Array.isArray(body.messages) &&
        body.messages.length > 0 &&
        body.messages.every((message) => typeof message?.role === 'string' && typeof message.content === 'string');
      if (!messagesValid) {
        send(response, 400, error("Invalid 'messages': expected a non-empty array of {role, content}.", 'invalid_request_error', null, 'messages'));
        return;
      }
      if (options.fail) {
        const { status, message = 'The server had an error while processing your request.', type = 'server_error', code = null } = options.fail;
        send(response, status, error(message, type, code));
        return;
      }
      if (options.rawBody !== undefined) {
        send(response, 200, options.rawBody);
        return;
      }

      const content = (options.reply ?? (() => FAKE_OPENAI_DEFAULT_REPLY))(body);
      completions += 1;
      const promptTokens = Math.ceil(body.messages.reduce((sum, message) => sum + message.content.length, 0) / 4);
      const completionTokens = Math.ceil(content.length / 4);
      send(response, 200, {
        id: `chatcmpl-fake${completions}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests: () => recorded.map((request) => ({ ...request })),
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.closeAllConnections();
        server.close((closeError) => (closeError ? reject(closeError) : resolve()));
      }),
  };
}

/** How OpenAI echoes a wrong key: its first and last characters only. */
function maskKey(key: string): string {
  return key.length <= 8 ? '***' : `${key.slice(0, 3)}*****${key.slice(-4)}`;
}
