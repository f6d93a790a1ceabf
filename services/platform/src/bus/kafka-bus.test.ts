import { logLevel } from 'kafkajs';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { pinoLogCreator } from './kafka-bus.js';

describe('kafka bus logging', () => {
  const capture = () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    return { lines, log: pinoLogCreator(logger)(logLevel.DEBUG) };
  };
  const entry = (namespace: string, level: logLevel, message: string, extra: object = {}) => ({
    namespace,
    level,
    label: '',
    log: { timestamp: '2026-01-01T00:00:00.000Z', logger: 'kafkajs', message, ...extra },
  });

  it('writes kafkajs entries as pino lines at the matching level, with their fields', () => {
    const { lines, log } = capture();
    log(entry('Consumer', logLevel.INFO, 'joined the group', { groupId: 'g' }));
    log(entry('Runner', logLevel.ERROR, 'crashed', { error: 'boom' }));
    expect(lines.map(({ level, msg, component, namespace, groupId, error }) => ({ level, msg, component, namespace, groupId, error }))).toEqual([
      { level: 30, msg: 'joined the group', component: 'kafkajs', namespace: 'Consumer', groupId: 'g', error: undefined },
      { level: 50, msg: 'crashed', component: 'kafkajs', namespace: 'Runner', groupId: undefined, error: 'boom' },
    ]);
    expect(lines[0]).not.toHaveProperty('timestamp');
  });

  it('logs error responses kafkajs retries itself as warnings', () => {
    const { lines, log } = capture();
    log(entry('Connection', logLevel.ERROR, 'Response ListOffsets(key: 2, version: 3)', { error: 'This server is not the leader for that topic-partition' }));
    expect(lines[0]).toMatchObject({ level: 40, namespace: 'Connection' });
  });
});
