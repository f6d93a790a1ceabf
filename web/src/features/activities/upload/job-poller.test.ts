import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callJobCheck, isAbortError, meetingJobCheck, pollJob, waitForJobs, type JobAnswer, type JobCheck } from './job-poller';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

const pending: JobAnswer = { ok: true, job: { isCompleted: false, isFailed: false, failedReason: '' } };
const completed: JobAnswer = { ok: true, job: { isCompleted: true, isFailed: false, failedReason: '' } };
const failed = (failedReason: string): JobAnswer => ({ ok: true, job: { isCompleted: false, isFailed: true, failedReason } });

/** A check answering from a script, one answer per call (the last one repeats), counting calls with their time. */
function scripted(answers: JobAnswer[], interpret: (jobId: string, answer: JobAnswer) => JobCheck = callJobCheck) {
  const times: number[] = [];
  const check = vi.fn(async (jobId: string) => {
    times.push(Date.now());
    const answer = answers[Math.min(times.length - 1, answers.length - 1)] as JobAnswer;
    return interpret(jobId, answer);
  });
  return { check, times };
}

/** Settles a promise's outcome into a value, so a rejection is not reported as unhandled. */
function outcomeOf(promise: Promise<void>) {
  const outcome: { value?: 'resolved' | Error } = {};
  promise.then(
    () => (outcome.value = 'resolved'),
    (error: Error) => (outcome.value = error),
  );
  return outcome;
}

describe('pollJob', () => {
  it('asks every 2 s, the first time after 2 s, and resolves when the job completes', async () => {
    const start = Date.now();
    const { check, times } = scripted([pending, pending, completed]);
    const outcome = outcomeOf(pollJob('j-1', check));

    await vi.advanceTimersByTimeAsync(1_999);
    expect(check).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(4_000);

    expect(times.map((time) => time - start)).toEqual([2_000, 4_000, 6_000]);
    expect(check).toHaveBeenCalledWith('j-1');
    expect(outcome.value).toBe('resolved');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(check).toHaveBeenCalledTimes(3);
  });

  it("rejects a failed job with 'Job {id} failed: {reason}'", async () => {
    const { check } = scripted([pending, failed('Processing failed for call.mp3: no speech')]);
    const outcome = outcomeOf(pollJob('j-7', check));
    await vi.advanceTimersByTimeAsync(4_000);
    expect((outcome.value as Error).message).toBe('Job j-7 failed: Processing failed for call.mp3: no speech');
  });

  it("rejects on 404 with 'Job {id} not found'", async () => {
    const { check } = scripted([{ ok: false, status: 404 }]);
    const outcome = outcomeOf(pollJob('j-9', check));
    await vi.advanceTimersByTimeAsync(2_000);
    expect((outcome.value as Error).message).toBe('Job j-9 not found');
  });

  it('asks again after a server or network failure', async () => {
    const { check } = scripted([{ ok: false, status: 500 }, { ok: false, status: 'FETCH_ERROR' }, completed]);
    const outcome = outcomeOf(pollJob('j-1', check));
    await vi.advanceTimersByTimeAsync(4_000);
    expect(outcome.value).toBeUndefined();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(outcome.value).toBe('resolved');
  });

  it("gives up after 7200000 ms with 'Job {id} timed out after 7200000ms'", async () => {
    const { check } = scripted([pending]);
    const outcome = outcomeOf(pollJob('j-2', check));

    await vi.advanceTimersByTimeAsync(7_200_000 - 2_000);
    expect(outcome.value).toBeUndefined();
    await vi.advanceTimersByTimeAsync(2_000);
    expect((outcome.value as Error).message).toBe('Job j-2 timed out after 7200000ms');
    expect(check).toHaveBeenCalledTimes(3_600);
  });

  it('takes its clock, interval and time-out from the caller', async () => {
    let now = 0;
    const sleeps: number[] = [];
    const clock = {
      now: () => now,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        now += ms;
      },
    };
    const { check } = scripted([pending]);
    await expect(pollJob('j-3', check, { clock, intervalMs: 10, timeoutMs: 35 })).rejects.toThrow('Job j-3 timed out after 35ms');
    expect(sleeps).toEqual([10, 10, 10, 10]);
  });

  it('stops with an AbortError when the signal aborts', async () => {
    const { check } = scripted([pending]);
    const controller = new AbortController();
    const outcome = outcomeOf(pollJob('j-1', check, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(2_000);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(isAbortError(outcome.value)).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(check).toHaveBeenCalledTimes(1);
  });
});

describe('meeting job answers', () => {
  it("fail with the failedReason, by default 'Job failed', and any failed request is 'Failed to check job status'", () => {
    expect(meetingJobCheck(completed)).toEqual({ state: 'completed' });
    expect(meetingJobCheck(pending)).toEqual({ state: 'pending' });
    expect(meetingJobCheck(failed('Processing failed for a.md: empty'))).toEqual({ state: 'failed', message: 'Processing failed for a.md: empty' });
    expect(meetingJobCheck(failed(''))).toEqual({ state: 'failed', message: 'Job failed' });
    expect(meetingJobCheck({ ok: false, status: 404 })).toEqual({ state: 'failed', message: 'Failed to check job status' });
    expect(meetingJobCheck({ ok: false, status: 'FETCH_ERROR' })).toEqual({ state: 'failed', message: 'Failed to check job status' });
  });
});

describe('waitForJobs', () => {
  it('polls every job at once and reports the elapsed seconds every 5 s until all have settled', async () => {
    const answers: Record<string, JobAnswer[]> = {
      a: [pending, completed],
      b: [pending, pending, pending, pending, pending, failed('Processing failed for b.mp3: boom')],
      c: [{ ok: false, status: 404 }],
    };
    const asked: string[] = [];
    const elapsed: number[] = [];
    const check = async (jobId: string) => {
      asked.push(`${jobId}@${Date.now()}`);
      const script = answers[jobId] as JobAnswer[];
      return callJobCheck(jobId, script.shift() ?? pending);
    };
    const start = Date.now();
    let results: PromiseSettledResult<void>[] | undefined;
    void waitForJobs(['a', 'b', 'c'], (jobId) => pollJob(jobId, check), { onElapsed: (seconds) => elapsed.push(seconds) }).then((settled) => (results = settled));

    await vi.advanceTimersByTimeAsync(2_000);
    expect(asked).toEqual([`a@${start + 2_000}`, `b@${start + 2_000}`, `c@${start + 2_000}`]);
    await vi.advanceTimersByTimeAsync(10_000);

    expect(elapsed).toEqual([5, 10]);
    expect(results?.map((result) => (result.status === 'fulfilled' ? 'ok' : (result.reason as Error).message))).toEqual([
      'ok',
      'Job b failed: Processing failed for b.mp3: boom',
      'Job c not found',
    ]);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(elapsed).toEqual([5, 10]);
  });
});
