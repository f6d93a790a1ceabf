/**
 * A promise-style client over a ts-proto generated client constructor:
 *
 *   const probe = createClient(ProbeClient, 'localhost:7001', { idempotent: ['getProbe'] });
 *   const state = await probe.getProbe({ probeId }, { companyId });
 *   probe.close();
 *
 * Every call: carries the company id and user id (given, or those of the request being handled)
 * and the active trace context in metadata; has a deadline (5 s unless told, never later than the
 * deadline of the request being handled); runs in a CLIENT span; and fails with a DomainError
 * (GrpcCallError, see status-mapping.ts) rather than a grpc-js ServiceError.
 *
 * Retries: only methods listed as `idempotent`, only on UNAVAILABLE (the server was not reached
 * or refused the work before doing it), with exponential backoff and jitter, and only while the
 * call's deadline leaves room. DEADLINE_EXCEEDED is not retried: the deadline is the caller's
 * budget for the whole call, so once it has passed there is no time left to try again, and
 * retrying calls to a server too slow to answer only adds load where it hurts most.
 * Streaming methods are on `raw`, the generated grpc-js client.
 */
import { credentials, Metadata, status, type Client, type ChannelCredentials, type ClientOptions, type ServiceError } from '@grpc/grpc-js';
import { inSpan, SpanKind } from '../telemetry.js';
import type { RequestOf, ResponseOf, ServiceDefinitionLike } from './grpc-server.js';
import { injectTraceMetadata, writeIdentity } from './metadata.js';
import { requestContext } from './request-context.js';
import { domainErrorFromServiceError, GrpcCallError } from './status-mapping.js';

export interface ClientConstructorLike<D extends ServiceDefinitionLike = ServiceDefinitionLike> {
  new (address: string, credentials: ChannelCredentials, options?: Partial<ClientOptions>): Client;
  service: D;
}

export type UnaryMethodName<D> = {
  [K in keyof D]: D[K] extends { requestStream: false; responseStream: false } ? K : never;
}[keyof D] &
  string;

export interface CallSettings {
  /** Tenant of the call; defaults to the company of the request being handled. */
  companyId?: string;
  /** Acting user; defaults to the user of the request being handled. */
  userId?: string;
  /** Overrides the client's deadline for this call (still capped by the incoming deadline). */
  deadlineMs?: number;
  /** Cancels the call. */
  signal?: AbortSignal;
}

export interface ClientSettings<D> {
  /** Deadline of each call, covering all its attempts; default 5000 ms. */
  deadlineMs?: number;
  /** Methods safe to repeat (reads, puts keyed by id); only these are retried. */
  idempotent?: ReadonlyArray<UnaryMethodName<D>>;
  /** Retries after the first attempt; default 3. */
  retries?: number;
  /** Backoff before retry n is about initialMs * 2^(n-1), capped at maxMs, with jitter. */
  backoff?: { initialMs?: number; maxMs?: number };
  /** grpc-js channel options (keepalive, reconnect backoff, message size). */
  channelOptions?: Partial<ClientOptions>;
  credentials?: ChannelCredentials;
}

type DefinitionOf<C> = C extends ClientConstructorLike<infer D> ? D : never;

export type PromiseClient<C extends ClientConstructorLike> = {
  [K in UnaryMethodName<DefinitionOf<C>>]: (
    request: RequestOf<DefinitionOf<C>[K]>,
    settings?: CallSettings,
  ) => Promise<ResponseOf<DefinitionOf<C>[K]>>;
} & {
  /** The generated grpc-js client, for streaming methods. Shares the channel. */
  readonly raw: InstanceType<C>;
  close(): void;
};

export function createClient<C extends ClientConstructorLike>(
  Constructor: C,
  address: string,
  settings: ClientSettings<DefinitionOf<C>> = {},
): PromiseClient<C> {
  const raw = new Constructor(address, settings.credentials ?? credentials.createInsecure(), settings.channelOptions) as InstanceType<C>;
  const defaultDeadlineMs = settings.deadlineMs ?? 5_000;
  const retries = settings.retries ?? 3;
  const idempotent = new Set<string>(settings.idempotent ?? []);
  const initialBackoffMs = settings.backoff?.initialMs ?? 100;
  const maxBackoffMs = settings.backoff?.maxMs ?? 2_000;

  const methods: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(Constructor.service)) {
    if (method.requestStream || method.responseStream) continue;
    const spanName = method.path.slice(1);
    const [service = '', rpcMethod = ''] = spanName.split('/');
    const maxAttempts = idempotent.has(name) ? 1 + retries : 1;

    methods[name] = (request: unknown, call: CallSettings = {}) => {
      const ambient = requestContext();
      const companyId = call.companyId ?? ambient.companyId;
      const userId = call.userId ?? ambient.userId;
      let deadline = Date.now() + (call.deadlineMs ?? defaultDeadlineMs);
      if (ambient.deadline) deadline = Math.min(deadline, ambient.deadline.getTime());

      const attributes: Record<string, string> = { 'rpc.system': 'grpc', 'rpc.service': service, 'rpc.method': rpcMethod };
      if (companyId) attributes['parlance.company_id'] = companyId;

      return inSpan(spanName, { kind: SpanKind.CLIENT, attributes }, async (span) => {
        for (let attempt = 1; ; attempt++) {
          // Built inside the span, so the server's span is a child of this one.
          const metadata = injectTraceMetadata(writeIdentity(new Metadata(), { companyId, userId }));
          try {
            const response = await invoke(raw, method, request, metadata, deadline, call.signal);
            span.setAttributes({ 'rpc.grpc.status_code': status.OK, 'parlance.rpc.attempts': attempt });
            return response;
          } catch (error) {
            if (!isServiceError(error)) throw new GrpcCallError('internal', 'Internal error.', status.INTERNAL, method.path, {}, error);
            const delay = equalJitterBackoffMs(attempt, initialBackoffMs, maxBackoffMs);
            const retry =
              error.code === status.UNAVAILABLE &&
              attempt < maxAttempts &&
              Date.now() + delay < deadline &&
              call.signal?.aborted !== true;
            span.setAttributes({ 'rpc.grpc.status_code': error.code, 'parlance.rpc.attempts': attempt });
            if (!retry) throw domainErrorFromServiceError(error, method.path);
            span.addEvent('retry', { attempt, delayMs: delay });
            await sleep(delay);
          }
        }
      });
    };
  }

  return Object.assign(methods, { raw, close: () => raw.close() }) as unknown as PromiseClient<C>;
}

function invoke(
  client: Client,
  method: ServiceDefinitionLike[string],
  request: unknown,
  metadata: Metadata,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onAbort = () => call.cancel();
    const call = client.makeUnaryRequest(
      method.path,
      method.requestSerialize,
      method.responseDeserialize,
      request,
      metadata,
      { deadline },
      (error, response) => {
        signal?.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve(response);
      },
    );
    if (signal?.aborted) call.cancel();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The wait before retry number `attempt` (from 1): exponential from initialMs, capped at maxMs,
 * with "equal jitter": half the delay fixed, half random, so clients retrying together spread out.
 */
export function equalJitterBackoffMs(attempt: number, initialMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && typeof (error as Partial<ServiceError>).code === 'number';
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
