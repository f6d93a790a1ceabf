import { trace } from '@opentelemetry/api';
import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/** Keys whose values are never written to a log, wherever they appear. */
const REDACTED_PATHS = [
  'password',
  'token',
  'secret',
  'authorization',
  'cookie',
  '*.password',
  '*.token',
  '*.secret',
  '*.authorization',
  '*.cookie',
  'headers.authorization',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  // Field names that carry tokens in our own requests and messages.
  '*.sessionToken',
  '*.previousSessionToken',
  '*.idToken',
  '*.csrfToken',
];

/**
 * Errors as pino writes them, minus what a failed query carries: drizzle puts the statement's
 * parameters (password hashes, token hashes, e-mail addresses) in its error message and in a
 * `params` field. The statement itself and the database's own error (`cause`) stay.
 */
export function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  if (serialized && typeof serialized === 'object') {
    delete serialized.params;
    if (typeof serialized.message === 'string') serialized.message = withoutParams(serialized.message);
    if (typeof serialized.stack === 'string') serialized.stack = withoutParams(serialized.stack);
  }
  return serialized;
}

const withoutParams = (text: string) => text.replace(/\nparams: [^\n]*/g, '\nparams: [redacted]');

export interface LoggerSettings {
  service: string;
  level?: string;
  /** Pretty output only for a human at a terminal; JSON everywhere else. */
  pretty?: boolean;
  destination?: pino.DestinationStream;
}

export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    level: settings.level ?? process.env.LOG_LEVEL ?? 'info',
    base: { service: settings.service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError, error: serializeError },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Every line carries the active trace, so logs and traces join up.
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { traceId, spanId };
    },
  };
  const pretty = settings.pretty ?? (process.stdout.isTTY === true && !settings.destination);
  if (pretty) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: true } } });
  }
  return settings.destination ? pino(options, settings.destination) : pino(options);
}
