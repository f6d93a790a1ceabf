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
