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
];

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
