/**
 * Stands in for an OpenAI-compatible server (OpenAI itself, or vLLM, Ollama, LM Studio…), which
 * these machines cannot reach: a real HTTP server on 127.0.0.1 speaking the documented Chat
 * Completions API at `POST /v1/chat/completions`. It is not a model: what it answers is what the
 * test scripts. It checks the request the way OpenAI documents it (a JSON body with `model` and
 * `messages`, a Bearer key when it was started with one, and a `response_format` of type text,
 * json_object or json_schema, the latter with a valid `name`, a `schema` and, under
 * `strict: true`, the schema rules the Structured Outputs guide lists) and answers in OpenAI's
 * shapes: a
 * `chat.completion` object (with `message.refusal` and `usage`), or
 * `{ error: { message, type, param, code } }`.
 *
 * The assistant's text comes from the `reply` function the test passes in; `answer` scripts each
 * request instead (a JSON answer computed from the request, malformed JSON, a refusal, an error
 * status with headers such as Retry-After, a slow answer, a dropped connection, usage or none).
 * Every request that reached the endpoint is recorded for the test to inspect. `fail`, `delayMs`
 * and `rawBody` make every answer misbehave the ways a real server can.
 */
import { apiKeyError, failureError, openAIError, startOpenAICompatibleServer, type OpenAIErrorBody, type OpenAIFailure } from './openai-compatible-server.js';

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

/** The `response_format` of a structured-output request. */
export interface JsonSchemaFormat {
  type: 'json_schema';
  json_schema: { name: string; strict?: boolean; schema: Record<string, unknown>; description?: string };
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/**
 * One request's answer, as a test scripts it. `usage` overrides the usage the fake reports
 * (computed as characters / 4 by default); null reports none, as some self-hosted servers do.
 */
export type ScriptedAnswer =
  /** 200 with this assistant content; an object is sent as its JSON text. */
  | { content: string | object; finishReason?: string; usage?: Usage | null; delayMs?: number }
  /** 200 with `message.refusal` set and no content, as OpenAI answers when the model declines. */
  | { refusal: string; usage?: Usage | null; delayMs?: number }
  /** This status with an OpenAI-style error body, and any headers (Retry-After, retry-after-ms). */
  | { status: number; message?: string; type?: string; code?: string | null; headers?: Record<string, string>; delayMs?: number }
  /** 200 with exactly this body (not a completion, or not JSON). */
  | { rawBody: string; delayMs?: number }
  /** The connection dropped without an answer. */
  | { hangUp: true };

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
  /**
   * Scripts the answer to each valid request; `index` counts them from 0. Undefined answers as
   * the other options say.
   */
  answer?: (request: ChatCompletionRequest, index: number) => ScriptedAnswer | undefined;
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
  let answered = 0;

  const server = await startOpenAICompatibleServer({
    endpoint: '/v1/chat/completions',
    delayMs: options.delayMs,
    handle: (request, send, hangUp) => {
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
      const formatError = responseFormatError(body.response_format);
      if (formatError) return send(400, formatError);

      const scripted = options.answer?.(body, answered++);
      if (scripted) {
        if ('hangUp' in scripted) return hangUp();
        const extras = { delayMs: scripted.delayMs };
        if ('status' in scripted) {
          return send(scripted.status, failureError({ status: scripted.status, message: scripted.message, type: scripted.type, code: scripted.code }), undefined, { ...extras, headers: scripted.headers });
        }
        if ('rawBody' in scripted) return send(200, scripted.rawBody, undefined, extras);
        const message =
          'refusal' in scripted
            ? { role: 'assistant', content: null, refusal: scripted.refusal }
            : { role: 'assistant', content: typeof scripted.content === 'string' ? scripted.content : JSON.stringify(scripted.content), refusal: null };
        const finishReason = 'finishReason' in scripted && scripted.finishReason ? scripted.finishReason : 'stop';
        return send(200, completion(body, message, finishReason, scripted.usage), undefined, extras);
      }
      if (options.fail) return send(options.fail.status, failureError(options.fail));
      if (options.rawBody !== undefined) return send(200, options.rawBody);

      const content = (options.reply ?? (() => FAKE_OPENAI_DEFAULT_REPLY))(body);
      send(200, completion(body, { role: 'assistant', content, refusal: null }, 'stop', undefined));
    },
  });

  function completion(body: ChatCompletionRequest, message: { role: string; content: string | null; refusal: string | null }, finishReason: string, usage: Usage | null | undefined) {
    completions += 1;
    const promptTokens = Math.ceil(body.messages.reduce((sum, each) => sum + each.content.length, 0) / 4);
    const completionTokens = Math.ceil((message.content ?? message.refusal ?? '').length / 4);
    const reported = usage === undefined ? { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens } : usage;
    return {
      id: `chatcmpl-fake${completions}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
      ...(reported === null ? {} : { usage: reported }),
    };
  }

  return { baseUrl: server.baseUrl, requests: () => recorded.map((request) => ({ ...request })), close: () => server.close() };
}

/** The request's structured-output format, or undefined when it asked for none. */
export function jsonSchemaOf(request: ChatCompletionRequest): JsonSchemaFormat['json_schema'] | undefined {
  const format = request.response_format as JsonSchemaFormat | undefined;
  return format?.type === 'json_schema' ? format.json_schema : undefined;
}

/** OpenAI's 400 for a response_format it would refuse; undefined when it is fine or absent. */
function responseFormatError(format: unknown): OpenAIErrorBody | undefined {
  if (format === undefined) return undefined;
  const invalid = (message: string) => openAIError(message, 'invalid_request_error', null, 'response_format');
  if (typeof format !== 'object' || format === null) return invalid("Invalid type for 'response_format': expected an object.");
  const { type, json_schema: jsonSchema } = format as { type?: unknown; json_schema?: unknown };
  if (type === 'text' || type === 'json_object') return undefined;
  if (type !== 'json_schema') return invalid(`Invalid value: '${String(type)}'. Supported values are: 'json_object', 'json_schema', and 'text'.`);
  if (typeof jsonSchema !== 'object' || jsonSchema === null) return invalid("Missing required parameter: 'response_format.json_schema'.");
  const { name, strict, schema } = jsonSchema as { name?: unknown; strict?: unknown; schema?: unknown };
  if (typeof name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(name)) {
    return invalid("Invalid 'response_format.json_schema.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.");
  }
  if (strict !== undefined && typeof strict !== 'boolean') return invalid("Invalid type for 'response_format.json_schema.strict': expected a boolean.");
  if (typeof schema !== 'object' || schema === null) return invalid("Missing required parameter: 'response_format.json_schema.schema'.");
  if (strict !== true) return undefined;
  const problem = strictSchemaProblem(schema as Record<string, unknown>, [], true);
  return problem ? invalid(`Invalid schema for response_format '${name}': ${problem}`) : undefined;
}

/**
 * What OpenAI's strict mode refuses in a schema (its Structured Outputs guide): a root that is not
 * an object, an object without `additionalProperties: false` or without every property in
 * `required`, a schema with no type, and `default`.
 */
function strictSchemaProblem(schema: Record<string, unknown>, context: string[], root = false): string | undefined {
  const where = `In context=(${context.map((each) => `'${each}'`).join(', ')})`;
  if (root && (schema.type !== 'object' || 'anyOf' in schema)) return `${where}, schema must be a JSON Schema of 'type: "object"', got 'type: "${String(schema.type)}"'.`;
  if ('default' in schema) return `${where}, 'default' is not permitted.`;
  if (Array.isArray(schema.anyOf)) {
    for (const [index, branch] of (schema.anyOf as Array<Record<string, unknown>>).entries()) {
      const problem = strictSchemaProblem(branch, [...context, 'anyOf', String(index)]);
      if (problem) return problem;
    }
    return undefined;
  }
  if (!('type' in schema) && !('enum' in schema) && !('$ref' in schema)) return `${where}, schema must have a 'type' key.`;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('object')) {
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    if (schema.additionalProperties !== false) return `${where}, 'additionalProperties' is required to be supplied and to be false.`;
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    const missing = Object.keys(properties).filter((key) => !required.includes(key));
    if (missing.length > 0) return `${where}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0]}'.`;
    for (const [key, property] of Object.entries(properties)) {
      const problem = strictSchemaProblem(property, [...context, 'properties', key]);
      if (problem) return problem;
    }
  }
  if (types.includes('array') && typeof schema.items === 'object' && schema.items !== null) {
    return strictSchemaProblem(schema.items as Record<string, unknown>, [...context, 'items']);
  }
  return undefined;
}
