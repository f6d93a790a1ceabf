import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callJobCheck, isAbortError, meetingJobCheck, type JobAnswer } from './job-poller';
import { runCallUpload, runMeetingUpload, type CallUploadDeps, type MeetingUploadDeps, type UploadOutcome, type UploadProgress } from './upload-flows';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

const file = (name: string, content = 'Ada: hello', lastModified = 0) => new File([content], name, { lastModified });
const unreadable = (name: string) => Object.assign(file(name), { text: () => Promise.reject(new Error('cannot read')) });

const completed: JobAnswer = { ok: true, job: { isCompleted: true, isFailed: false } };
const pending: JobAnswer = { ok: true, job: { isCompleted: false, isFailed: false } };

function callDeps(overrides: Partial<CallUploadDeps<File>> = {}) {
  const progress: UploadProgress[] = [];
  const alerts: string[] = [];
  const deps: CallUploadDeps<File> = {
    uploadAudio: vi.fn(async (f: File, onProgress: (fraction: number) => void) => {
      onProgress(0.5);
      onProgress(1);
      return { status: 200, jobId: `job-${f.name}` };
    }),
    uploadText: vi.fn(async (f: File) => ({ ok: true as const, jobId: `job-${f.name}` })),
    checkJob: vi.fn(async (jobId: string) => callJobCheck(jobId, completed)),
    onProgress: (next) => progress.push(next),
    onUploadError: (message) => alerts.push(message),
    ...overrides,
  };
  return { deps, progress, alerts };
}

async function settle(promise: Promise<UploadOutcome>, ms = 10_000) {
  let outcome: UploadOutcome | undefined;
  let failure: unknown;
  promise.then(
    (value) => (outcome = value),
    (error: unknown) => (failure = error),
  );
  await vi.advanceTimersByTimeAsync(ms);
  return { outcome, failure };
}

describe('call upload', () => {
  it('sends audio then text one by one, saying which file it is on, then processes them all', async () => {
    const { deps, progress } = callDeps();
    const { outcome } = await settle(runCallUpload({ audio: [file('a.mp3'), file('b.mp3')], text: [file('c.txt', 'Ada: text')] }, deps));

    expect(outcome).toEqual({ queued: 3, toast: { kind: 'success', text: 'Processed 3/3 files successfully.' } });
    expect(progress[0]).toEqual({
      headline: 'Uploading 3 files...',
      current: null,
      files: [
        { name: 'a.mp3', percent: 0 },
        { name: 'b.mp3', percent: 0 },
        { name: 'c.txt', percent: 0 },
      ],
      elapsedSeconds: null,
    });
    expect([...new Set(progress.map((step) => step.current).filter(Boolean))]).toEqual(['Uploading file 1/3', 'Uploading file 2/3', 'Uploading file 3/3']);
    expect(progress.map((step) => step.files[0]?.percent)).toContain(50);
    expect(progress.at(-1)).toMatchObject({ headline: 'All files uploaded! Processing 3 files...', current: null, elapsedSeconds: 0 });
    expect(progress.at(-1)?.files.map((bar) => bar.percent)).toEqual([100, 100, 100]);
    expect(deps.uploadText).toHaveBeenCalledWith(expect.objectContaining({ name: 'c.txt' }), 'Ada: text');
    expect(vi.mocked(deps.checkJob).mock.calls.map(([jobId]) => jobId)).toEqual(['job-a.mp3', 'job-b.mp3', 'job-c.txt']);
  });

  it('shows the elapsed seconds every 5 s while processing', async () => {
    let done = false;
    const { deps, progress } = callDeps({ checkJob: async (jobId) => callJobCheck(jobId, done ? completed : pending) });
    const running = settle(runCallUpload({ audio: [file('a.mp3')], text: [] }, deps), 12_000);
    const { outcome } = await running;
    expect(outcome).toBeUndefined();
    expect(progress.map((step) => step.elapsedSeconds).filter((seconds) => seconds !== null)).toEqual([0, 5, 10]);
    done = true;
    await vi.advanceTimersByTimeAsync(2_000);
  });

  it("alerts 'Unexpected status code' and thrown errors per audio file, and processes the rest", async () => {
    const { deps, alerts } = callDeps({
      uploadAudio: async (f) => {
        if (f.name === 'bad.mp3') return { status: 400 };
        if (f.name === 'lost.mp3') throw new Error('Network error');
        return { status: 200, jobId: 'job-ok' };
      },
    });
    const { outcome } = await settle(runCallUpload({ audio: [file('bad.mp3'), file('lost.mp3'), file('ok.mp3')], text: [] }, deps));
    expect(alerts).toEqual(['Error uploading bad.mp3: Unexpected status code 400', 'Error uploading lost.mp3: Network error']);
    expect(outcome).toEqual({ queued: 1, toast: { kind: 'success', text: 'Processed 1/1 files successfully.' } });
  });

  it("alerts 'Error uploading text: ...' when a transcript is refused or cannot be read", async () => {
    const { deps, alerts } = callDeps({ uploadText: async () => ({ ok: false, reason: 'Please select a team.' }) });
    const { outcome } = await settle(runCallUpload({ audio: [], text: [file('a.txt'), unreadable('b.txt')] }, deps));
    expect(alerts).toEqual(['Error uploading text: a.txt: Please select a team.', 'Error uploading text: b.txt: Failed to read file']);
    expect(outcome).toEqual({ queued: 0, toast: null });
    expect(deps.checkJob).not.toHaveBeenCalled();
  });

  it('warns with the count and the errors when some jobs fail, are not found or time out', async () => {
    const answers: Record<string, JobAnswer> = {
      'job-a.mp3': completed,
      'job-b.mp3': { ok: true, job: { isCompleted: false, isFailed: true, failedReason: 'Processing failed for b.mp3: no speech' } },
      'job-c.mp3': { ok: false, status: 404 },
      'job-d.mp3': pending,
    };
    const { deps } = callDeps({ checkJob: async (jobId) => callJobCheck(jobId, answers[jobId] as JobAnswer), timeoutMs: 6_000 });
    const { outcome } = await settle(runCallUpload({ audio: ['a', 'b', 'c', 'd'].map((name) => file(`${name}.mp3`)), text: [] }, deps));
    expect(outcome).toEqual({
      queued: 4,
      toast: {
        kind: 'warning',
        text: 'Processed 1/4 files successfully. 3 failed. Errors: Job job-b.mp3 failed: Processing failed for b.mp3: no speech; Job job-c.mp3 not found; Job job-d.mp3 timed out after 6000ms',
      },
    });
  });

  it("ends with the error 'Upload failed. Please try again.' when the wait itself fails", async () => {
    const { deps } = callDeps({
      onProgress: (step) => {
        if (step.elapsedSeconds === 0) throw new Error('display broke');
      },
    });
    const { outcome } = await settle(runCallUpload({ audio: [file('a.mp3')], text: [] }, deps));
    expect(outcome).toEqual({ queued: 1, toast: { kind: 'error', text: 'Upload failed. Please try again.' } });
  });

  it('stops with an AbortError when abandoned, without a toast', async () => {
    const controller = new AbortController();
    const { deps } = callDeps({ checkJob: async (jobId) => callJobCheck(jobId, pending), signal: controller.signal });
    const running = settle(runCallUpload({ audio: [file('a.mp3')], text: [] }, deps), 3_000);
    controller.abort();
    const { outcome, failure } = await running;
    expect(outcome).toBeUndefined();
    expect(isAbortError(failure)).toBe(true);
  });
});

function meetingDeps(overrides: Partial<MeetingUploadDeps<File>> = {}) {
  const progress: UploadProgress[] = [];
  const deps: MeetingUploadDeps<File> = {
    send: vi.fn(async (f: File) => ({ ok: true as const, jobId: `job-${f.name}` })),
    checkJob: vi.fn(async () => meetingJobCheck(completed)),
    onProgress: (next) => progress.push(next),
    ...overrides,
  };
  return { deps, progress };
}

describe('meeting upload', () => {
  it('reads and sends each file in turn, then succeeds when every job completes', async () => {
    const { deps, progress } = meetingDeps();
    const { outcome } = await settle(runMeetingUpload([file('a.txt', 'one'), file('b.md', 'two')], deps));
    expect(vi.mocked(deps.send).mock.calls.map(([f, content]) => [f.name, content])).toEqual([
      ['a.txt', 'one'],
      ['b.md', 'two'],
    ]);
    expect(outcome).toEqual({ queued: 2, toast: { kind: 'success', text: 'Successfully uploaded and processed all 2/2 meeting(s)!' } });
    expect(progress.at(-1)?.headline).toBe('All files uploaded! Processing 2 files...');
  });

  it('lists read, upload, status and job failures in a warning when some succeed', async () => {
    const answers: Record<string, JobAnswer> = {
      'job-ok.txt': completed,
      'job-fails.txt': { ok: true, job: { isCompleted: false, isFailed: true, failedReason: '' } },
      'job-lost.txt': { ok: false, status: 500 },
    };
    const { deps } = meetingDeps({
      send: async (f) => {
        if (f.name === 'refused.txt') return { ok: false, status: 400 };
        if (f.name === 'offline.txt') return { ok: false, error: 'Failed to obtain CSRF token' };
        return { ok: true, jobId: `job-${f.name}` };
      },
      checkJob: async (jobId) => meetingJobCheck(answers[jobId] as JobAnswer),
    });
    const files = [file('ok.txt'), unreadable('broken.txt'), file('refused.txt'), file('offline.txt'), file('fails.txt'), file('lost.txt')];
    const { outcome } = await settle(runMeetingUpload(files, deps));
    expect(outcome).toEqual({
      queued: 3,
      toast: {
        kind: 'warning',
        text:
          'Processed 1/6 meeting(s) successfully. 5 failed. Errors: broken.txt: Failed to read file; ' +
          'refused.txt: Failed to upload meeting: Unexpected status code: 400; offline.txt: Failed to upload meeting: Failed to obtain CSRF token; ' +
          'fails.txt: Job failed; lost.txt: Failed to check job status',
      },
    });
  });

  it('ends with an error and nothing queued when no meeting was accepted', async () => {
    const { deps } = meetingDeps({ send: async () => ({ ok: false, status: 500 }) });
    const { outcome } = await settle(runMeetingUpload([file('a.txt')], deps));
    expect(outcome).toEqual({
      queued: 0,
      toast: { kind: 'error', text: 'Processed 0/1 meeting(s) successfully. 1 failed. Errors: a.txt: Failed to upload meeting: Unexpected status code: 500' },
    });
    expect(deps.checkJob).not.toHaveBeenCalled();
  });

  it('polls each meeting job every 2 s until it completes', async () => {
    let asked = 0;
    const { deps } = meetingDeps({ checkJob: async () => meetingJobCheck(++asked < 3 ? pending : completed) });
    const running = settle(runMeetingUpload([file('a.txt')], deps), 5_999);
    expect((await running).outcome).toBeUndefined();
    expect(asked).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(asked).toBe(3);
  });
});
