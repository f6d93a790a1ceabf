import {
  context,
  propagation,
  trace,
  SpanKind,
  SpanStatusCode,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';

export { SpanKind } from '@opentelemetry/api';

export interface TelemetrySettings {
  serviceName: string;
  /**
   * Where finished spans go: `none` (default) keeps trace ids for logs and propagation only,
   * `console` prints them, `otlp` sends them over OTLP/HTTP to `otlpEndpoint` (a collector,
   * Jaeger, Tempo…).
   */
  exporter?: 'none' | 'console' | 'otlp';
  /** Base URL of an OTLP/HTTP receiver, e.g. http://otel-collector:4318; spans go to /v1/traces. */
  otlpEndpoint?: string;
  /** Extra processors, e.g. an in-memory exporter in tests. */
  spanProcessors?: SpanProcessor[];
}

let provider: NodeTracerProvider | undefined;

/**
 * Starts OpenTelemetry. Call it first thing in a process, before servers and clients are built,
 * so every span from then on has a context manager and the W3C propagator behind it.
 * Starting twice in one process (tests, the standalone host) is a no-op.
 */
export function startTelemetry(settings: TelemetrySettings): { shutdown: () => Promise<void> } {
  if (provider) return { shutdown: async () => undefined };
  const processors: SpanProcessor[] = [...(settings.spanProcessors ?? [])];
  if (settings.exporter === 'console') processors.push(new BatchSpanProcessor(new ConsoleSpanExporter()));
  if (settings.exporter === 'otlp') {
    if (!settings.otlpEndpoint) throw new Error('The otlp trace exporter needs an endpoint');
    const url = `${settings.otlpEndpoint.replace(/\/+$/, '')}/v1/traces`;
    processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url })));
  }
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    spanProcessors: processors,
  });
  provider.register();
  const started = provider;
  return {
    shutdown: async () => {
      await started.shutdown();
      if (provider === started) provider = undefined;
    },
  };
}

/** For tests: records finished spans through a processor of the caller's choosing. */
export function spanProcessorFor(exporter: SpanExporter): SpanProcessor {
  return new SimpleSpanProcessor(exporter);
}

export function tracer(): Tracer {
  return trace.getTracer('parlance');
}

/** Writes the active trace context into a carrier (HTTP headers, gRPC metadata, bus headers). */
export function injectTraceContext(carrier: Record<string, string>, from: Context = context.active()): Record<string, string> {
  propagation.inject(from, carrier);
  return carrier;
}

/** Reads a trace context from a carrier; the result is the parent of the next span. */
export function extractTraceContext(carrier: Record<string, string | string[] | undefined>): Context {
  return propagation.extract(context.active(), carrier, {
    get: (c, key) => {
      const value = c[key];
      return Array.isArray(value) ? value[0] : value;
    },
    keys: (c) => Object.keys(c),
  });
}

export function currentTraceId(): string | undefined {
  return trace.getActiveSpan()?.spanContext().traceId;
}

/**
 * Runs `work` inside a new span that is a child of `parent` (or of the active context), ending
 * it and recording failure however `work` finishes.
 */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; parent?: Context; attributes?: Record<string, string | number | boolean> },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? context.active();
  return tracer().startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes ?? {} },
    parent,
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
