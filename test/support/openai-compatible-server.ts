/**
 * The shared plumbing of our local stand-ins for OpenAI-compatible servers (OpenAI itself, vLLM,
 * faster-whisper, Ollama…), which these machines cannot reach: a real HTTP server on 127.0.0.1
 * with one `POST` endpoint, answering anything else 404 `Invalid URL (METHOD path)` as OpenAI
 * does, reading the request body, answering after an optional delay, in OpenAI's error shape
 * `{ error: { message, type, param, code } }` where it refuses, and closing with its timers cleared.
 * What the endpoint does is the fake's own `handle` function; an answer may carry headers and its
 * own delay, and `hangUp` drops the connection instead of answering.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** What makes a fake answer every valid request with an OpenAI-style error. */
export interface OpenAIFailure {
  status: number;
  message?: string;
  type?: string;
  code?: string | null;
}

/** A request that reached the endpoint, its body read whole. */
export interface ReceivedRequest {
  method: string;
  path: string;
  /** The Authorization header as sent, if any. */
  authorization: string | undefined;
  contentType: string | undefined;
  body: Buffer;
}

/** What else an answer may carry: response headers (e.g. Retry-After), and its own delay instead of the server's. */
export interface AnswerExtras {
  headers?: Record<string, string>;
  delayMs?: number;
}

/** Answers the request: a string body as it is, anything else as JSON; after the server's delay, if it has one. */
export type Send = (status: number, body: unknown, contentType?: string, extras?: AnswerExtras) => void;

/** Drops the connection without an answer, as a crashing server or a broken network does. */
export type HangUp = () => void;

export interface OpenAICompatibleServerOptions {
  /** The one endpoint, e.g. '/v1/chat/completions'. */
  endpoint: string;
  /** Wait this long before every answer (to test timeouts). */
  delayMs?: number;
  /** Answers a POST to the endpoint; when it throws or rejects, the answer is a 500 server_error. */
  handle: (request: ReceivedRequest, send: Send, hangUp: HangUp) => void | Promise<void>;
}

export interface OpenAICompatibleServer {
  /** http://127.0.0.1:<port>/v1, what a client is configured with. */
  baseUrl: string;
  close(): Promise<void>;
}

export function openAIError(message: string, type: string, code: string | null = null, param: string | null = null): OpenAIErrorBody {
  return { error: { message, type, param, code } };
}

/** OpenAI's 401 body when `apiKey` is set and `authorization` does not carry it as a Bearer key; undefined when the key is right. */
export function apiKeyError(apiKey: string | undefined, authorization: string | undefined): OpenAIErrorBody | undefined {
  if (apiKey === undefined) return undefined;
  if (!authorization) {
    return openAIError("You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", 'invalid_request_error');
  }
  const given = /^Bearer\s+(.+)$/i.exec(authorization)?.[1];
  return given === apiKey ? undefined : openAIError(`Incorrect API key provided: ${maskKey(given ?? '')}.`, 'invalid_request_error', 'invalid_api_key');
}

/** The error body of an `OpenAIFailure`, OpenAI's own 5xx wording by default. */
export function failureError({ message = 'The server had an error while processing your request.', type = 'server_error', code = null }: OpenAIFailure): OpenAIErrorBody {
  return openAIError(message, type, code);
}

export async function startOpenAICompatibleServer(options: OpenAICompatibleServerOptions): Promise<OpenAICompatibleServer> {
  const timers = new Set<NodeJS.Timeout>();

  const sender =
    (response: ServerResponse): Send =>
    (status, body, contentType = 'application/json', extras = {}) => {
      const write = () => {
        if (response.destroyed || response.writableEnded) return;
        response.writeHead(status, { ...extras.headers, 'content-type': contentType }).end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      const delayMs = extras.delayMs ?? options.delayMs;
      if (!delayMs) return write();
      const timer = setTimeout(() => {
        timers.delete(timer);
        write();
      }, delayMs);
      timers.add(timer);
    };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const send = sender(response);
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (request.method !== 'POST' || path !== options.endpoint) {
      send(404, openAIError(`Invalid URL (${request.method} ${path})`, 'invalid_request_error'));
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: ReceivedRequest = {
        method: request.method ?? '',
        path,
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        body: Buffer.concat(chunks),
      };
      const hangUp = () => request.socket.destroy();
      void (async () => options.handle(received, send, hangUp))().catch((failure: unknown) => send(500, openAIError(String(failure), 'server_error')));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
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
