/**
 * A gRPC server whose handlers are plain async functions:
 *
 *   const server = createGrpcServer({ port: 0, logger });
 *   server.addService(ProbeService, {
 *     sendProbe: async (request, ctx) => ({ probeId, traceId }),
 *     getProbe: async ({ probeId }) => probes.get(probeId) ?? throwNotFound(),
 *   });
 *   const port = await server.start();
 *
 * Every unary method of every service goes through one wrapper (wrapUnary) that: reads the
 * company id, user id and trace context from metadata; rejects a call whose deadline has
 * already passed; runs the handler inside a SERVER span (child of the caller's span) and inside
 * the request context (request-context.ts); answers a thrown DomainError with its status and
 * message; and logs anything else (never the request) and answers INTERNAL with a generic message.
 * Streaming methods are passed to grpc-js as written (see health.ts for one).
 */
import {
  Server,
  ServerCredentials,
  status,
  type ChannelOptions,
  type handleBidiStreamingCall,
  type handleClientStreamingCall,
  type handleServerStreamingCall,
  type handleUnaryCall,
  type Metadata,
  type MethodDefinition,
  type ServiceDefinition,
  type UntypedHandleCall,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { SpanStatusCode } from '@opentelemetry/api';
import type { Logger } from '../logger.js';
import { inSpan, SpanKind } from '../telemetry.js';
import { extractTraceMetadata, readIdentity } from './metadata.js';
import { runWithRequestContext, type RequestContext } from './request-context.js';
import { grpcServerDuration } from '../metrics.js';
import { statusForError } from './status-mapping.js';

/** What a unary handler gets besides the request. */
export interface CallContext extends RequestContext {
  /** Full method path, e.g. /parlance.platform.v1.Probe/GetProbe. */
  method: string;
  metadata: Metadata;
  /** Aborted when the caller cancels or the deadline passes; hand it to long work. */
  signal: AbortSignal;
}

export type UnaryHandler<Req, Res> = (request: Req, ctx: CallContext) => Promise<Res>;

// grpc-js types method definitions with `any`; ts-proto's are precise, so accept any of them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyMethod = MethodDefinition<any, any>;
export type ServiceDefinitionLike = Readonly<Record<string, AnyMethod>>;

export type RequestOf<M> = M extends { requestDeserialize: (bytes: Buffer) => infer Req } ? Req : never;
export type ResponseOf<M> = M extends { responseSerialize: (value: infer Res) => Buffer } ? Res : never;

/** Unary methods as async functions; streaming methods as grpc-js handlers. */
export type ServiceImplementation<D extends ServiceDefinitionLike> = {
  [K in keyof D]: D[K] extends { requestStream: false; responseStream: false }
    ? UnaryHandler<RequestOf<D[K]>, ResponseOf<D[K]>>
    : D[K] extends { requestStream: false; responseStream: true }
      ? handleServerStreamingCall<RequestOf<D[K]>, ResponseOf<D[K]>>
      : D[K] extends { requestStream: true; responseStream: false }
        ? handleClientStreamingCall<RequestOf<D[K]>, ResponseOf<D[K]>>
        : handleBidiStreamingCall<RequestOf<D[K]>, ResponseOf<D[K]>>;
};

export interface GrpcServerSettings {
  /** Interface to listen on; 127.0.0.1 unless a pod must accept calls from outside. */
  host?: string;
  /** 0 picks a free port; start() returns the one bound. */
  port: number;
  logger: Logger;
  /** grpc-js server options (message size limits, keepalive). */
  options?: ChannelOptions;
}

export interface GrpcServer {
  addService<D extends ServiceDefinitionLike>(definition: D, implementation: ServiceImplementation<D>): void;
  /** Binds and serves; resolves with the bound port. */
  start(): Promise<number>;
  /** Stops accepting calls, lets running ones finish for up to `graceMs`, then cancels the rest. */
  stop(graceMs?: number): Promise<void>;
}

export function createGrpcServer(settings: GrpcServerSettings): GrpcServer {
  const host = settings.host ?? '127.0.0.1';
  const logger = settings.logger;
  const server = new Server(settings.options);

  return {
    addService(definition, implementation) {
      const handlers: UntypedServiceImplementation = {};
      for (const [name, method] of Object.entries(definition)) {
        const handler = (implementation as Record<string, unknown>)[name];
        if (typeof handler !== 'function') throw new Error(`No handler for ${method.path}`);
        handlers[name] =
          method.requestStream || method.responseStream
            ? (handler as UntypedHandleCall)
            : (wrapUnary(method.path, handler as UnaryHandler<unknown, unknown>, logger) as UntypedHandleCall);
      }
      server.addService(definition as ServiceDefinition, handlers);
    },

    start() {
      const address = `${host.includes(':') ? `[${host}]` : host}:${settings.port}`;
      return new Promise<number>((resolve, reject) => {
        server.bindAsync(address, ServerCredentials.createInsecure(), (error, port) => {
          if (error) {
            reject(error);
            return;
          }
          logger.info({ address: `${host}:${port}` }, 'gRPC server listening');
          resolve(port);
        });
      });
    },

    stop(graceMs = 10_000) {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          logger.warn({ graceMs }, 'gRPC calls still running after the grace period; cancelling them');
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

/** Statuses that mean the server failed (OpenTelemetry marks only these server spans as errors). */
const SERVER_FAULTS = new Set<status>([
  status.UNKNOWN,
  status.DEADLINE_EXCEEDED,
  status.UNIMPLEMENTED,
  status.INTERNAL,
  status.UNAVAILABLE,
  status.DATA_LOSS,
]);

function wrapUnary(path: string, handler: UnaryHandler<unknown, unknown>, logger: Logger): handleUnaryCall<unknown, unknown> {
  const spanName = path.slice(1); // "parlance.platform.v1.Probe/GetProbe"
  const durations = grpcServerDuration();
  const [service = '', method = ''] = spanName.split('/');

  return (call, callback) => {
    const started = performance.now();
    const identity = readIdentity(call.metadata);
    const deadline = deadlineOf(call.getDeadline());
    if (call.cancelled) return;
    if (deadline && deadline.getTime() <= Date.now()) {
      callback({ code: status.DEADLINE_EXCEEDED, details: 'Deadline exceeded before the call was handled.' });
      return;
    }

    const controller = new AbortController();
    call.once('cancelled', () => controller.abort(new Error('The call was cancelled or its deadline passed.')));
    const context: RequestContext = { ...identity, ...(deadline ? { deadline } : {}) };
    const callContext: CallContext = { ...context, method: path, metadata: call.metadata, signal: controller.signal };
    const attributes: Record<string, string> = { 'rpc.system': 'grpc', 'rpc.service': service, 'rpc.method': method };
    if (identity.companyId) attributes['parlance.company_id'] = identity.companyId;

    void inSpan(spanName, { kind: SpanKind.SERVER, parent: extractTraceMetadata(call.metadata), attributes }, async (span) => {
      let response: unknown;
      try {
        response = await runWithRequestContext(context, () => handler(call.request, callContext));
      } catch (error) {
        const { status: reply, expected } = statusForError(error);
        const code = reply.code ?? status.INTERNAL;
        span.setAttribute('rpc.grpc.status_code', code);
        if (!expected) {
          // The error, not the request: payloads may hold transcripts and personal data.
          logger.error({ err: error, rpc: path, companyId: identity.companyId }, 'gRPC handler failed');
          span.recordException(error as Error);
        }
        if (SERVER_FAULTS.has(code)) span.setStatus({ code: SpanStatusCode.ERROR, message: reply.details ?? '' });
        durations.observe({ method: spanName, code: status[code] ?? String(code) }, (performance.now() - started) / 1000);
        callback(reply);
        return;
      }
      span.setAttribute('rpc.grpc.status_code', status.OK);
      durations.observe({ method: spanName, code: 'OK' }, (performance.now() - started) / 1000);
      callback(null, response);
    }).catch((error: unknown) => logger.error({ err: error, rpc: path }, 'gRPC reply failed'));
  };
}

function deadlineOf(deadline: Date | number): Date | undefined {
  const millis = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(millis) ? new Date(millis) : undefined;
}
