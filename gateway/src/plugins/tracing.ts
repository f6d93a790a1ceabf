import { context, isSpanContextValid, trace, SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { httpRequestDuration } from '@parlance/platform/metrics';
import { extractTraceContext, tracer } from '@parlance/platform/telemetry';

declare module 'fastify' {
  interface FastifyRequest {
    span?: Span;
  }
}

/**
 * A SERVER span per request, continuing the caller's `traceparent` if it sent one. Handlers run
 * inside the span's context, so gRPC calls and logs made while handling carry its trace id.
 */
export function registerTracing(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const parent = extractTraceContext(request.headers);
    request.span = tracer().startSpan(
      `${request.method} ${request.routeOptions.url ?? 'unmatched'}`,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'url.path': request.url.split('?')[0] ?? '' } },
      parent,
    );
    request.log = request.log.child({ traceId: request.span.spanContext().traceId });
  });

  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function tracedHandler(this: FastifyInstance, request: FastifyRequest, reply) {
      const active = request.span ? trace.setSpan(context.active(), request.span) : context.active();
      return context.with(active, () => handler.call(this, request, reply));
    };
  });

  const durations = httpRequestDuration();
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    // The route pattern, not the URL, so ids do not explode the label set.
    durations.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    // The path only: a query string may carry a secret (a verification or invitation token).
    request.log.info(
      { method: request.method, path: request.url.split('?')[0], route, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request completed',
    );
    const span = request.span;
    if (!span) return;
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });

  app.addHook('onSend', async (request, reply) => {
    // Lets a person quote the trace of a failed request; absent when tracing is off.
    const spanContext = request.span?.spanContext();
    if (spanContext && isSpanContextValid(spanContext)) reply.header('x-trace-id', spanContext.traceId);
  });
}
