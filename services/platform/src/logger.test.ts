import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { inSpan, startTelemetry } from './telemetry.js';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ service: 'scoring', level: 'info', destination }) };
}

beforeAll(() => {
  startTelemetry({ serviceName: 'logger-test' });
});

describe('createLogger', () => {
  it('writes JSON lines naming the service and module', () => {
    const { lines, logger } = capture();
    logger.child({ module: 'scoring' }).info('started');
    expect(lines[0]).toMatchObject({ service: 'scoring', module: 'scoring', msg: 'started', level: 30 });
  });

  it('adds the active trace id to every line written inside a span', async () => {
    const { lines, logger } = capture();
    let traceId = '';
    await inSpan('work', {}, async (span) => {
      traceId = span.spanContext().traceId;
      logger.info('inside');
    });
    logger.info('outside');
    expect(lines[0]).toMatchObject({ msg: 'inside', traceId });
    expect(lines[1]).not.toHaveProperty('traceId');
  });

  it('never writes passwords, tokens, secrets or cookies', () => {
    const { lines, logger } = capture();
    logger.info({ password: 'hunter2', token: 't0k', user: { secret: 's3', name: 'Ada' }, headers: { cookie: 'sid=1' } }, 'login');
    const text = JSON.stringify(lines[0]);
    for (const secret of ['hunter2', 't0k', 's3', 'sid=1']) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ user: { name: 'Ada' } });
  });
});

describe('errors in logs', () => {
  it('keeps a failed query’s statement and cause, never its parameters', async () => {
    const { DrizzleQueryError } = await import('drizzle-orm');
    const { lines, logger } = capture();
    const failure = new DrizzleQueryError('insert into sessions (token_hash) values ($1)', ['5f4dcc3b-the-hash'], new Error('duplicate key value'));
    logger.error({ err: failure }, 'gRPC handler failed');
    const logged = JSON.stringify(lines[0]);
    expect(logged).not.toContain('5f4dcc3b-the-hash');
    expect(logged).toContain('insert into sessions');
    expect(logged).toContain('duplicate key value');
  });

  it('redacts the token fields of our own requests', () => {
    const { lines, logger } = capture();
    logger.info({ request: { sessionToken: 'tok-1', previousSessionToken: 'tok-2', idToken: 'tok-3', csrfToken: 'tok-4' } }, 'x');
    expect(JSON.stringify(lines[0])).not.toMatch(/tok-\d/);
  });
});
