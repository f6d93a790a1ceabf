import { describe, expect, it } from 'vitest';
import { captureLogs } from '@parlance/platform/testing/captured-logs';
import { createSpeechWait } from './speech-wait.js';

function clockAndLog() {
  let time = 1_000_000;
  const logs = captureLogs('test');
  return {
    logger: logs.logger,
    now: () => time,
    advance: (ms: number) => (time += ms),
    lines: logs.lines,
  };
}

describe('createSpeechWait', () => {
  it('retries after 2 s, then after a quarter of the wait so far, at most 30 s apart', () => {
    const clock = clockAndLog();
    const wait = createSpeechWait(clock.logger, { maxWaitMs: 30 * 60_000, now: clock.now });
    const delays: number[] = [];
    for (let retry = 0; retry < 12; retry += 1) {
      const decision = wait.couldNotReach('call-1', 'the speech server is starting');
      if (!('retryInMs' in decision)) throw new Error('failed too early');
      delays.push(decision.retryInMs);
      clock.advance(decision.retryInMs);
    }
    expect(delays.slice(0, 5)).toEqual([2_000, 2_000, 2_000, 2_000, 2_000]);
    expect(delays.every((delay, index) => index === 0 || delay >= delays[index - 1]!)).toBe(true);
    expect(Math.max(...delays)).toBeLessThanOrEqual(30_000);
    expect(wait.isWaiting('call-1')).toBe(true);
  });

  it('fails a recording that waited the whole bound, saying why', () => {
    const clock = clockAndLog();
    const wait = createSpeechWait(clock.logger, { maxWaitMs: 10 * 60_000, now: clock.now });
    let decision = wait.couldNotReach('call-1', 'the speech server could not be reached (ECONNREFUSED)');
    while ('retryInMs' in decision) {
      clock.advance(decision.retryInMs);
      decision = wait.couldNotReach('call-1', 'the speech server could not be reached (ECONNREFUSED)');
    }
    expect(decision).toEqual({ failWith: 'the recording waited 10 minutes for the speech server in vain (the speech server could not be reached (ECONNREFUSED))' });
    expect(wait.isWaiting('call-1')).toBe(false);
  });

  it('logs once an outage, however many recordings and retries, and once when it is over', () => {
    const clock = clockAndLog();
    const wait = createSpeechWait(clock.logger, { maxWaitMs: 60_000, now: clock.now });
    for (let retry = 0; retry < 5; retry += 1) {
      wait.couldNotReach('call-1', 'the speech server is being installed');
      wait.couldNotReach('call-2', 'the speech server is being installed');
      clock.advance(2_000);
    }
    wait.answered();
    wait.answered();
    wait.finished('call-1');
    expect(clock.lines().map((line) => line.msg)).toEqual(['recordings wait for the speech server', 'the speech server answers again; waiting recordings continue']);
    expect(clock.lines()[0]).toMatchObject({ level: 40, reason: 'the speech server is being installed' });
    expect(clock.lines()[1]).toMatchObject({ outageMs: 10_000, handedBack: 10 });
    expect(wait.isWaiting('call-1')).toBe(false);
    expect(wait.isWaiting('call-2')).toBe(true);

    wait.couldNotReach('call-4', 'the speech server stopped (killed by SIGKILL) and is being restarted');
    expect(clock.lines()).toHaveLength(3);
  });
});
