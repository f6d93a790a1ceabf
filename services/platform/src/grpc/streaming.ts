/**
 * Streaming gRPC methods with the same guarantees as unary ones (grpc-server.ts, grpc-client.ts):
 * company and user from metadata into the request context, deadlines, a span, and DomainErrors
 * mapped to statuses in one place. Server side, a handler is an async function over an async
 * iterable; client side, a call is an async function too.
 *
 *   server.addService(IngestServiceService, {
 *     uploadActivity: clientStreamingHandler(logger, async (parts, ctx) => { for await (const part of parts) … }),
 *     readMedia: serverStreamingHandler(logger, (request) => chunksOf(request.activityId)),
 *   });
 *
 *   const reply = await callClientStreaming(client.raw, IngestServiceService.uploadActivity, parts, { deadlineMs: 60_000 });
 *   for await (const part of callServerStreaming(client.raw, IngestServiceService.readMedia, { activityId })) …
 */
import { once } from 'node:events';
import {
  Metadata,
  status,
  type Client,
  type ClientReadableStream,
  type ClientWritableStream,
  type handleClientStreamingCall,
  type handleServerStreamingCall,
  type MethodDefinition,
  type ServerReadableStream,
  type ServerWritableStream,
  type ServiceError,
} from '@grpc/grpc-js';
import type { Logger } from '../logger.js';
import { inSpan, SpanKind } from '../telemetry.js';
import type { CallContext, RequestOf, ResponseOf } from './grpc-server.js';
import { extractTraceMetadata, injectTraceMetadata, readIdentity, writeIdentity } from './metadata.js';
import { requestContext, runWithRequestContext, type RequestContext } from './request-context.js';
import { domainErrorFromServiceError, GrpcCallError, statusForError } from './status-mapping.js';
import type { CallSettings } from './grpc-client.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyMethod = MethodDefinition<any, any>;

/** A client-streaming method: the requests arrive as an async iterable; the reply is returned. */
export function clientStreamingHandler<Req, Res>(
  logger: Logger,
  handler: (requests: AsyncIterable<Req>, ctx: CallContext) => Promise<Res>,
): handleClientStreamingCall<Req, Res> {
  return (call, callback) => {
    const { context, callContext, span } = serverCall(call);
    void inSpan(span.name, span.options, async () => {
      try {
        callback(null, await runWithRequestContext(context, () => handler(call, callContext)));
      } catch (error) {
        callback(replyFor(error, call.getPath(), context, logger));
        // Whatever the client still sends is not wanted.
        call.destroy();
      }
    });
  };
}

/** A server-streaming method: what the handler yields is sent in order, with back-pressure. */
export function serverStreamingHandler<Req, Res>(
  logger: Logger,
  handler: (request: Req, ctx: CallContext) => AsyncIterable<Res>,
): handleServerStreamingCall<Req, Res> {
  return (call) => {
    const { context, callContext, span } = serverCall(call);
    void inSpan(span.name, span.options, async () => {
      try {
        await runWithRequestContext(context, async () => {
          for await (const message of handler(call.request, callContext)) {
            if (call.cancelled) return;
            if (!call.write(message)) await once(call, 'drain', { signal: callContext.signal });
          }
        });
        call.end();
      } catch (error) {
        if (call.cancelled) return;
        call.emit('error', replyFor(error, call.getPath(), context, logger));
      }
    });
  };
}

function serverCall(call: ServerReadableStream<unknown, unknown> | ServerWritableStream<unknown, unknown>) {
  const identity = readIdentity(call.metadata);
  const rawDeadline = call.getDeadline();
  const millis = rawDeadline instanceof Date ? rawDeadline.getTime() : rawDeadline;
  const context: RequestContext = { ...identity, ...(Number.isFinite(millis) ? { deadline: new Date(millis) } : {}) };
  const controller = new AbortController();
  call.once('cancelled', () => controller.abort(new Error('The call was cancelled or its deadline passed.')));
  const path = call.getPath();
  const callContext: CallContext = { ...context, method: path, metadata: call.metadata, signal: controller.signal };
  const [service = '', method = ''] = path.slice(1).split('/');
  const attributes: Record<string, string> = { 'rpc.system': 'grpc', 'rpc.service': service, 'rpc.method': method };
  if (identity.companyId) attributes['parlance.company_id'] = identity.companyId;
  return {
    context,
    callContext,
    span: { name: path.slice(1), options: { kind: SpanKind.SERVER, parent: extractTraceMetadata(call.metadata), attributes } },
  };
}

function replyFor(error: unknown, path: string, context: RequestContext, logger: Logger): Partial<ServiceError> {
  const { status: reply, expected } = statusForError(error);
  // The error, not the request: payloads may hold recordings and personal data.
  if (!expected) logger.error({ err: error, rpc: path, companyId: context.companyId }, 'gRPC handler failed');
  return reply as Partial<ServiceError>;
}

/** Sends `requests` in order, waiting when the channel is full; resolves with the reply. */
export async function callClientStreaming<M extends AnyMethod>(
  client: Client,
  method: M,
  requests: AsyncIterable<RequestOf<M>> | Iterable<RequestOf<M>>,
  settings: CallSettings = {},
): Promise<ResponseOf<M>> {
  const { metadata, deadline } = outgoing(settings);
  return inSpan(method.path.slice(1), { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'grpc' } }, async () => {
    let stream: ClientWritableStream<RequestOf<M>> | undefined;
    const reply = new Promise<ResponseOf<M>>((resolve, reject) => {
      stream = client.makeClientStreamRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        injectTraceMetadata(metadata),
        { deadline },
        (error: ServiceError | null, response?: ResponseOf<M>) => (error ? reject(mapError(error, method.path)) : resolve(response!)),
      );
    });
    // The channel refused the call before it began (closed, say): the reply says why.
    if (!stream) return await reply;
    const call = stream;
    const onAbort = () => call.cancel();
    settings.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      // The server may answer early (a refused upload): stop sending then.
      let answered = false;
      void reply.then(
        () => (answered = true),
        () => (answered = true),
      );
      for await (const request of requests) {
        if (answered) break;
        if (!call.write(request)) await Promise.race([once(call, 'drain'), reply.catch(() => undefined)]);
      }
      call.end();
      return await reply;
    } finally {
      settings.signal?.removeEventListener('abort', onAbort);
    }
  });
}

/** The server's messages in order; a failure is thrown as a DomainError (GrpcCallError). */
export async function* callServerStreaming<M extends AnyMethod>(
  client: Client,
  method: M,
  request: RequestOf<M>,
  settings: CallSettings = {},
): AsyncGenerator<ResponseOf<M>> {
  const { metadata, deadline } = outgoing(settings);
  const call: ClientReadableStream<ResponseOf<M>> = client.makeServerStreamRequest(
    method.path,
    method.requestSerialize,
    method.responseDeserialize,
    request,
    injectTraceMetadata(metadata),
    { deadline },
  );
  const onAbort = () => call.cancel();
  settings.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const message of call) yield message as ResponseOf<M>;
  } catch (error) {
    throw isServiceError(error) ? mapError(error, method.path) : error;
  } finally {
    settings.signal?.removeEventListener('abort', onAbort);
    call.cancel();
  }
}

function outgoing(settings: CallSettings): { metadata: Metadata; deadline: number } {
  const ambient = requestContext();
  const companyId = settings.companyId ?? ambient.companyId;
  const userId = settings.userId ?? ambient.userId;
  let deadline = Date.now() + (settings.deadlineMs ?? 60_000);
  if (ambient.deadline) deadline = Math.min(deadline, ambient.deadline.getTime());
  return { metadata: writeIdentity(new Metadata(), { ...(companyId ? { companyId } : {}), ...(userId ? { userId } : {}) }), deadline };
}

function mapError(error: ServiceError, path: string): GrpcCallError {
  return error.code === status.OK ? new GrpcCallError('internal', 'Internal error.', status.INTERNAL, path, {}, error) : domainErrorFromServiceError(error, path);
}

function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && typeof (error as Partial<ServiceError>).code === 'number';
}
