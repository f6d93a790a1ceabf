/**
 * The two uploads from start to final toast (spec part 2 §4), without React: the dialogs give
 * them the requests to make and a place to report progress, tests give them fakes.
 *
 * Calls: files go one by one ('Uploading file i/total'), audio first, then text; each failed
 * upload is reported on its own; every queued job is then waited for at once while the elapsed
 * time is shown; the final toast says how it went.
 *
 * Meetings: each file is read and sent in turn, then every accepted job is waited for at once;
 * the final toast lists the failures.
 */
import {
  aboutFile,
  callUploadFailedToast,
  callUploadToast,
  meetingUploadToast,
  UPLOAD_MESSAGES,
  type UploadToast,
} from './upload-rules';
import { abortError, isAbortError, pollJob, reasonOf, waitForJobs, type Clock, type JobCheck } from './job-poller';

/** A file as the flows need it (a File is one). */
export type UploadFile = { name: string; size: number; lastModified: number; text(): Promise<string> };

/** What the dialog shows while an upload runs. */
export type UploadProgress = {
  /** 'Uploading n files...', then 'All files uploaded! Processing n files...'. */
  headline: string;
  /** 'Uploading file i/total' while files are sent; null afterwards. */
  current: string | null;
  /** One bar per file, 0 to 100. */
  files: { name: string; percent: number }[];
  /** Seconds since processing began, moved on every 5 s; null while files are sent. */
  elapsedSeconds: number | null;
};

type Timing = {
  clock?: Clock;
  intervalMs?: number;
  timeoutMs?: number;
  tickMs?: number;
  /** Aborted when the dialog goes away: the flow stops and rejects with an AbortError. */
  signal?: AbortSignal;
};

export type TextUploadAnswer = { ok: true; jobId: string } | { ok: false; reason: string };
export type AudioSendAnswer = { status: number; jobId?: string };

export type CallUploadDeps<F extends UploadFile = UploadFile> = Timing & {
  /** Sends one recording; rejects when no answer came. */
  uploadAudio(file: F, onProgress: (fraction: number) => void): Promise<AudioSendAnswer>;
  /** Sends one transcript (POST /api/calls/transcribe/text). */
  uploadText(file: F, content: string): Promise<TextUploadAnswer>;
  checkJob(jobId: string): Promise<JobCheck>;
  onProgress(progress: UploadProgress): void;
  /** A file that could not be uploaded (spec §8: an alert). */
  onUploadError(message: string): void;
};

/** How many jobs were queued, and the final toast (none when nothing was queued). */
export type UploadOutcome = { queued: number; toast: UploadToast | null };

/**
 * What the dialog shows while an upload runs, handed to `onProgress` as a fresh copy on every
 * report: 'Uploading n files...' with a bar per file, the file being sent, then the processing.
 */
function progressReport(names: readonly string[], onProgress: (progress: UploadProgress) => void) {
  const progress: UploadProgress = {
    headline: UPLOAD_MESSAGES.uploadingFiles(names.length),
    current: null,
    files: names.map((name) => ({ name, percent: 0 })),
    elapsedSeconds: null,
  };
  const report = () => onProgress({ ...progress, files: progress.files.map((bar) => ({ ...bar })) });
  return {
    report,
    /** Sets a file's bar (0 to 100) without reporting. */
    setPercent(index: number, percent: number) {
      const bar = progress.files[index];
      if (bar) bar.percent = Math.max(0, Math.min(100, Math.round(percent)));
    },
    sending(index: number) {
      progress.current = UPLOAD_MESSAGES.uploadingFile(index + 1, names.length);
      report();
    },
    processing(jobCount: number) {
      progress.headline = UPLOAD_MESSAGES.processingFiles(jobCount);
      progress.current = null;
      progress.elapsedSeconds = 0;
      report();
    },
    elapsed(seconds: number) {
      progress.elapsedSeconds = seconds;
      report();
    },
  };
}

/** Every queued job waited for at once, the elapsed time shown meanwhile; one result per job. */
function waitWhileProcessing(jobIds: readonly string[], deps: Timing & { checkJob(jobId: string): Promise<JobCheck> }, progress: ReturnType<typeof progressReport>) {
  progress.processing(jobIds.length);
  return waitForJobs(jobIds, (jobId) => pollJob(jobId, deps.checkJob, deps), { clock: deps.clock, tickMs: deps.tickMs, signal: deps.signal, onElapsed: progress.elapsed });
}

export async function runCallUpload<F extends UploadFile>(files: { audio: readonly F[]; text: readonly F[] }, deps: CallUploadDeps<F>): Promise<UploadOutcome> {
  const all = [...files.audio.map((file) => ({ file, media: 'audio' as const })), ...files.text.map((file) => ({ file, media: 'text' as const }))];
  const progress = progressReport(all.map(({ file }) => file.name), deps.onProgress);
  const setPercent = (index: number, percent: number) => {
    progress.setPercent(index, percent);
    progress.report();
  };
  progress.report();

  const jobs: string[] = [];
  for (const [index, { file, media }] of all.entries()) {
    if (deps.signal?.aborted) throw abortError();
    progress.sending(index);
    const jobId = media === 'audio' ? await sendAudioFile(file, (fraction) => setPercent(index, fraction * 100), deps) : await sendTextFile(file, deps);
    if (jobId) {
      jobs.push(jobId);
      setPercent(index, 100);
    }
  }
  if (jobs.length === 0) return { queued: 0, toast: null };

  try {
    const results = await waitWhileProcessing(jobs, deps, progress);
    return { queued: jobs.length, toast: callUploadToast(jobs.length, failuresOf(results)) };
  } catch (error) {
    if (isAbortError(error)) throw error;
    return { queued: jobs.length, toast: callUploadFailedToast };
  }
}

async function sendAudioFile<F extends UploadFile>(file: F, onProgress: (fraction: number) => void, deps: CallUploadDeps<F>): Promise<string | undefined> {
  try {
    const answer = await deps.uploadAudio(file, onProgress);
    if (answer.status === 200 && answer.jobId) return answer.jobId;
    deps.onUploadError(UPLOAD_MESSAGES.audioStatus(file.name, answer.status));
  } catch (error) {
    if (isAbortError(error)) throw error;
    deps.onUploadError(UPLOAD_MESSAGES.audioThrown(file.name, reasonOf(error)));
  }
  return undefined;
}

async function sendTextFile<F extends UploadFile>(file: F, deps: CallUploadDeps<F>): Promise<string | undefined> {
  let content: string;
  try {
    content = await file.text();
  } catch {
    deps.onUploadError(UPLOAD_MESSAGES.textFailed(file.name, UPLOAD_MESSAGES.readFailed));
    return undefined;
  }
  try {
    const answer = await deps.uploadText(file, content);
    if (answer.ok) return answer.jobId;
    deps.onUploadError(UPLOAD_MESSAGES.textFailed(file.name, answer.reason));
  } catch (error) {
    if (isAbortError(error)) throw error;
    deps.onUploadError(UPLOAD_MESSAGES.textFailed(file.name, reasonOf(error)));
  }
  return undefined;
}

export type MeetingSendAnswer = { ok: true; jobId: string } | { ok: false; status: number } | { ok: false; error: string };

export type MeetingUploadDeps<F extends UploadFile = UploadFile> = Timing & {
  /** Sends one meeting (POST /api/meetings/upload); accepted means 202 with a jobId. */
  send(file: F, content: string): Promise<MeetingSendAnswer>;
  checkJob(jobId: string): Promise<JobCheck>;
  onProgress(progress: UploadProgress): void;
};

export async function runMeetingUpload<F extends UploadFile>(files: readonly F[], deps: MeetingUploadDeps<F>): Promise<UploadOutcome> {
  const errors: string[] = [];
  const jobs: { file: F; jobId: string }[] = [];
  const progress = progressReport(files.map((file) => file.name), deps.onProgress);

  for (const [index, file] of files.entries()) {
    if (deps.signal?.aborted) throw abortError();
    progress.sending(index);
    const sent = await sendMeeting(file, deps);
    if (sent.ok) {
      jobs.push({ file, jobId: sent.jobId });
      progress.setPercent(index, 100);
    } else {
      errors.push(aboutFile(file.name, sent.message));
    }
  }

  if (jobs.length > 0) {
    const results = await waitWhileProcessing(jobs.map((job) => job.jobId), deps, progress);
    results.forEach((result, index) => {
      const job = jobs[index];
      if (result.status === 'rejected' && job) errors.push(aboutFile(job.file.name, reasonOf(result.reason)));
    });
  }
  return { queued: jobs.length, toast: meetingUploadToast(files.length, errors) };
}

async function sendMeeting<F extends UploadFile>(file: F, deps: MeetingUploadDeps<F>): Promise<{ ok: true; jobId: string } | { ok: false; message: string }> {
  let content: string;
  try {
    content = await file.text();
  } catch {
    return { ok: false, message: UPLOAD_MESSAGES.readFailed };
  }
  let answer: MeetingSendAnswer;
  try {
    answer = await deps.send(file, content);
  } catch (error) {
    if (isAbortError(error)) throw error;
    answer = { ok: false, error: reasonOf(error) };
  }
  if (answer.ok) return answer;
  const detail = 'status' in answer ? UPLOAD_MESSAGES.meetingUnexpectedStatus(answer.status) : answer.error;
  return { ok: false, message: `${UPLOAD_MESSAGES.meetingUploadFailed}: ${detail}` };
}

function failuresOf(results: readonly PromiseSettledResult<void>[]): string[] {
  return results.flatMap((result) => (result.status === 'rejected' ? [reasonOf(result.reason)] : []));
}
