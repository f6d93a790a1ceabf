/**
 * A logger for tests that keeps every line it writes (the JSON pino writes in production), so a
 * test can read what was logged: the text, the parsed lines, or only their messages.
 */
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../logger.js';

export type LogLine = Record<string, unknown> & { msg: string };

export interface CapturedLogs {
  logger: Logger;
  /** Everything logged so far, one JSON line each. */
  text(): string;
  lines(): LogLine[];
  messages(): string[];
  /** Forgets what was logged so far. */
  clear(): void;
}

export function captureLogs(service: string, level = 'info'): CapturedLogs {
  let logged = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged += chunk.toString();
      done();
    },
  });
  const lines = () => logged.split('\n').filter(Boolean).map((line) => JSON.parse(line) as LogLine);
  return {
    logger: createLogger({ service, level, pretty: false, destination }),
    text: () => logged,
    lines,
    messages: () => lines().map((line) => line.msg),
    clear: () => {
      logged = '';
    },
  };
}
