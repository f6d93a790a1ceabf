/**
 * Waiting for upload jobs (spec part 2 §4, §7 and §9): each job is asked about every 2 s until it
 * completes, fails, is not found or has run 2 hours; several jobs are waited for at once while
 * the elapsed time is reported every 5 s. Time comes from a clock and answers from a `check`
 * function, both given by the caller, so tests drive them without a server or real time.
 */
import { JOB_POLL_INTERVAL_MS, JOB_TIMEOUT_MS, PROGRESS_TICK_MS, UPLOAD_MESSAGES } from './upload-rules';

/** Where a job stands after one question: still going, done, or failed with the sentence to show. */
export type JobCheck = { state: 'pending' } | { state: 'completed' } | { state: 'failed'; message: string };

/** What one status request gave: the job's status, or the HTTP status (or error kind) of a failure. */
export type JobAnswer =
  | { ok: true; job: { isCompleted: boolean; isFailed: boolean; failedReason?: string | null } }
  | { ok: false; status: number | string };

export type Clock = {
  now(): number;
  /** Resolves after `ms`; rejects with an AbortError when the signal aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
};

export function abortError(): Error {
  const error = new Error('The upload was abandoned.');
  error.name = 'AbortError';
  return error;
}

export const isAbortError = (error: unknown) => error instanceof Error && error.name === 'AbortError';

/** Real time: Date.now and setTimeout (which fake timers replace in tests). */
const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError());
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortError());
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

type PollOptions = {
  clock?: Clock;
  intervalMs?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
};

/**
 * Asks about one job every `intervalMs` (the first question after one interval) until it
 * completes (resolves) or fails (rejects with its message). Once `timeoutMs` has passed without
 * an end it rejects with 'Job {id} timed out after {ms}ms'.
 */
export async function pollJob(jobId: string, check: (jobId: string) => Promise<JobCheck>, options: PollOptions = {}): Promise<void> {
  const { clock = systemClock, intervalMs = JOB_POLL_INTERVAL_MS, timeoutMs = JOB_TIMEOUT_MS, signal } = options;
  const start = clock.now();
  for (;;) {
    await clock.sleep(intervalMs, signal);
    const answer = await check(jobId);
    if (signal?.aborted) throw abortError();
    if (answer.state === 'completed') return;
    if (answer.state === 'failed') throw new Error(answer.message);
    if (clock.now() - start >= timeoutMs) throw new Error(UPLOAD_MESSAGES.jobTimedOut(jobId, timeoutMs));
  }
}

/**
 * A call job's answer (GET /api/queue/job/{id}): 'Job {id} failed: {reason}' (the reason already
 * reads 'Processing failed for {file}: {reason}'), 'Job {id} not found' on 404. Any other failed
 * request (the network, a 5xx) is asked again at the next interval, up to the time-out.
 */
export function callJobCheck(jobId: string, answer: JobAnswer): JobCheck {
  if (!answer.ok) return answer.status === 404 ? { state: 'failed', message: UPLOAD_MESSAGES.jobNotFound(jobId) } : { state: 'pending' };
  if (answer.job.isCompleted) return { state: 'completed' };
  if (answer.job.isFailed) return { state: 'failed', message: UPLOAD_MESSAGES.jobFailed(jobId, answer.job.failedReason || UPLOAD_MESSAGES.jobFailedDefault) };
  return { state: 'pending' };
}

/**
 * A meeting job's answer (GET /api/meetings/upload-status/{jobId}): its failedReason, by default
 * 'Job failed'; any failed request is 'Failed to check job status'.
 */
export function meetingJobCheck(answer: JobAnswer): JobCheck {
  if (!answer.ok) return { state: 'failed', message: UPLOAD_MESSAGES.jobStatusFailed };
  if (answer.job.isCompleted) return { state: 'completed' };
  if (answer.job.isFailed) return { state: 'failed', message: answer.job.failedReason || UPLOAD_MESSAGES.jobFailedDefault };
  return { state: 'pending' };
}

type WaitOptions = {
  clock?: Clock;
  tickMs?: number;
  /** Called every `tickMs` with the whole seconds since the wait began. */
  onElapsed?: (seconds: number) => void;
  signal?: AbortSignal;
};

/**
 * Waits for every job at once and settles when all have: one result per job, in order. While it
 * waits, `onElapsed` hears the elapsed seconds every `tickMs` (5 s).
 */
export async function waitForJobs<J>(jobs: readonly J[], poll: (job: J) => Promise<void>, options: WaitOptions = {}): Promise<PromiseSettledResult<void>[]> {
  const { clock = systemClock, tickMs = PROGRESS_TICK_MS, onElapsed, signal } = options;
  const start = clock.now();
  const ticker = new AbortController();
  const stopTicker = () => ticker.abort();
  signal?.addEventListener('abort', stopTicker, { once: true });
  const tick = async () => {
    try {
      for (;;) {
        await clock.sleep(tickMs, ticker.signal);
        onElapsed?.(Math.round((clock.now() - start) / 1000));
      }
    } catch {
      // stopped: every job has settled
    }
  };
  void tick();
  try {
    const results = await Promise.allSettled(jobs.map((job) => poll(job)));
    if (signal?.aborted) throw abortError();
    return results;
  } finally {
    stopTicker();
    signal?.removeEventListener('abort', stopTicker);
  }
}

/** The sentence a rejected job (or upload) carries. */
export function reasonOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
