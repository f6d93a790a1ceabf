/**
 * The upload dialogs' rules (spec part 2 §4, §5, §8 and §9) as pure functions: the checks made
 * before an upload, in the spec's order; the progress texts; and the final toast of a call or
 * meeting upload. No React and no I/O; the dialogs and the upload flows call these.
 *
 * Ingest checks every upload again and words its refusals the same way
 * (services/ingest/src/domain/upload-rules.ts); these checks spare the person a round trip.
 */
import type { ToastKind } from '../../../lib/ui/toast-slice';

// ---------------------------------------------------------------------------------------------
// Constants (spec part 2 §5 and §9)
// ---------------------------------------------------------------------------------------------

/** 25 MB: the largest audio file a call upload takes. */
export const AUDIO_MAX_BYTES = 26_214_400;
/** 100 KB: the largest meeting transcript. */
export const MEETING_MAX_BYTES = 102_400;
/** Compared case-insensitively: 'Notes.TXT' is a text file. */
export const MEETING_EXTENSIONS = ['.txt', '.md', '.text'] as const;
/** What the meeting file picker offers. */
export const MEETING_ACCEPT = MEETING_EXTENSIONS.join(',');
/** A job is asked about its progress this often. */
export const JOB_POLL_INTERVAL_MS = 2_000;
/** A job still unfinished after this long (2 hours) is given up. */
export const JOB_TIMEOUT_MS = 7_200_000;
/** The elapsed time shown while files are processed moves on this often. */
export const PROGRESS_TICK_MS = 5_000;
/** Longest notes the gateway takes with a meeting (gateway/src/schemas/uploads.schema.ts). */
export const MEETING_NOTES_MAX = 10_000;

// ---------------------------------------------------------------------------------------------
// Messages (spec part 2 §5 and §8)
// ---------------------------------------------------------------------------------------------

/** File names as the messages list them: comma-separated, in the order chosen. */
const fileList = (names: readonly string[]) => names.join(', ');
/** How the errors of several files are joined after 'Errors:' (the spec leaves this open). */
const errorList = (errors: readonly string[]) => errors.join('; ');

export const UPLOAD_MESSAGES = {
  companyMissing: 'Upload failed: Company ID is missing.',
  teamMissing: 'Please select a team.',
  representativeMissing: 'Please provide a Representative.',
  noFiles: 'Please select at least one file to upload.',
  noTextFiles: 'Please select at least one text file to upload.',
  audioTooLarge: (names: readonly string[]) => `The following audio files are too large (max 25MB): ${fileList(names)}`,
  meetingTooLarge: (names: readonly string[]) => `The following files are too large (max 100KB): ${fileList(names)}`,

  uploadingFiles: (count: number) => `Uploading ${count} files...`,
  uploadingFile: (index: number, total: number) => `Uploading file ${index}/${total}`,
  processingFiles: (count: number) => `All files uploaded! Processing ${count} files...`,
  /** The spec says the elapsed seconds are shown, not how; this is ours. */
  elapsed: (seconds: number) => `${seconds}s elapsed`,

  audioStatus: (file: string, status: number) => `Error uploading ${file}: Unexpected status code ${status}`,
  audioThrown: (file: string, error: string) => `Error uploading ${file}: ${error}`,
  /** The spec gives 'Error uploading text: ...'; the file name and the reason follow. */
  textFailed: (file: string, reason: string) => `Error uploading text: ${file}: ${reason}`,
  unexpectedStatus: (status: number) => `Unexpected status code ${status}`,

  jobFailed: (jobId: string, reason: string) => `Job ${jobId} failed: ${reason}`,
  jobNotFound: (jobId: string) => `Job ${jobId} not found`,
  jobTimedOut: (jobId: string, ms: number) => `Job ${jobId} timed out after ${ms}ms`,

  callUploadFailed: 'Upload failed. Please try again.',
  /** The spec names a success toast for calls, not its words; these mirror the partial one. */
  callsProcessed: (count: number) => `Processed ${count}/${count} files successfully.`,
  callsPartlyProcessed: (succeeded: number, total: number, errors: readonly string[]) =>
    `Processed ${succeeded}/${total} files successfully. ${errors.length} failed. Errors: ${errorList(errors)}`,

  readFailed: 'Failed to read file',
  meetingUploadFailed: 'Failed to upload meeting',
  meetingUnexpectedStatus: (status: number) => `Unexpected status code: ${status}`,
  jobStatusFailed: 'Failed to check job status',
  jobFailedDefault: 'Job failed',
  meetingsProcessed: (succeeded: number, total: number) => `Successfully uploaded and processed all ${succeeded}/${total} meeting(s)!`,
  meetingsPartlyProcessed: (succeeded: number, total: number, errors: readonly string[]) =>
    `Processed ${succeeded}/${total} meeting(s) successfully. ${errors.length} failed. Errors: ${errorList(errors)}`,
} as const;

// ---------------------------------------------------------------------------------------------
// Checks before an upload (spec part 2 §5), in order
// ---------------------------------------------------------------------------------------------

/** What a dialog shows when an upload cannot start: an error for calls, a warning for meetings. */
export type UploadProblem = { kind: Extract<ToastKind, 'error' | 'warning'>; text: string };

/** The size and name of a chosen file (a File has both). */
export type ChosenFile = { name: string; size: number };

type Selection = {
  companyId: string | null | undefined;
  teamId: string;
  /** The representative's e-mail. */
  representative: string;
};

const isBlank = (value: string | null | undefined) => value === null || value === undefined || value.trim() === '';

function checkSelection(selection: Selection, fileCount: number, noFiles: string): string | null {
  if (isBlank(selection.companyId)) return UPLOAD_MESSAGES.companyMissing;
  if (isBlank(selection.teamId)) return UPLOAD_MESSAGES.teamMissing;
  if (isBlank(selection.representative)) return UPLOAD_MESSAGES.representativeMissing;
  if (fileCount === 0) return noFiles;
  return null;
}

/**
 * The call upload's checks: company, team, representative, at least one audio or text file, then
 * no audio file above 25 MB (all such files named). Null when the upload may start.
 */
export function checkCallUpload(selection: Selection & { audioFiles: readonly ChosenFile[]; textFiles: readonly ChosenFile[] }): UploadProblem | null {
  const first = checkSelection(selection, selection.audioFiles.length + selection.textFiles.length, UPLOAD_MESSAGES.noFiles);
  if (first) return { kind: 'error', text: first };
  const tooLarge = selection.audioFiles.filter((file) => file.size > AUDIO_MAX_BYTES).map((file) => file.name);
  if (tooLarge.length > 0) return { kind: 'error', text: UPLOAD_MESSAGES.audioTooLarge(tooLarge) };
  return null;
}

/** The meeting upload's checks, in the same order, shown as warnings; files above 100 KB are named. */
export function checkMeetingUpload(selection: Selection & { files: readonly ChosenFile[] }): UploadProblem | null {
  const first = checkSelection(selection, selection.files.length, UPLOAD_MESSAGES.noTextFiles);
  if (first) return { kind: 'warning', text: first };
  const tooLarge = selection.files.filter((file) => file.size > MEETING_MAX_BYTES).map((file) => file.name);
  if (tooLarge.length > 0) return { kind: 'warning', text: UPLOAD_MESSAGES.meetingTooLarge(tooLarge) };
  return null;
}

// ---------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------

export function hasMeetingExtension(fileName: string): boolean {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return false;
  return (MEETING_EXTENSIONS as readonly string[]).includes(fileName.slice(dot).toLowerCase());
}

/**
 * The files a pick adds to the meeting list: only accepted extensions, and not a file already in
 * the list (same name, size and modification time).
 */
export function addMeetingFiles<F extends ChosenFile & { lastModified: number }>(current: readonly F[], picked: readonly F[]): F[] {
  const same = (a: F, b: F) => a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;
  const added: F[] = [];
  for (const file of picked) {
    if (!hasMeetingExtension(file.name)) continue;
    if (current.some((known) => same(known, file)) || added.some((known) => same(known, file))) continue;
    added.push(file);
  }
  return [...current, ...added];
}

/** '12.3 KB' style sizes for the file list. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** An error about one file, naming it unless the message already does. */
export function aboutFile(fileName: string, message: string): string {
  return message.includes(fileName) ? message : `${fileName}: ${message}`;
}

/** The name sent as repName: the representative's first name, or 'N/A'. */
export function repNameOf(member: { first_name?: string | null } | undefined): string {
  const first = member?.first_name?.trim();
  return first ? first : 'N/A';
}

/** A date as the upload sends it: the file's last-modified time in ISO 8601. */
export function fileDate(file: { lastModified: number }): string {
  return new Date(file.lastModified).toISOString();
}

// ---------------------------------------------------------------------------------------------
// Final toasts (spec part 2 §4 and §8)
// ---------------------------------------------------------------------------------------------

export type UploadToast = { kind: Extract<ToastKind, 'success' | 'warning' | 'error'>; text: string };

/**
 * After the queued call jobs are waited for: success when none failed, a warning naming the
 * failures otherwise. (When the wait itself fails the toast is `callUploadFailedToast`.)
 */
export function callUploadToast(total: number, errors: readonly string[]): UploadToast {
  if (errors.length === 0) return { kind: 'success', text: UPLOAD_MESSAGES.callsProcessed(total) };
  return { kind: 'warning', text: UPLOAD_MESSAGES.callsPartlyProcessed(total - errors.length, total, errors) };
}

export const callUploadFailedToast: UploadToast = { kind: 'error', text: UPLOAD_MESSAGES.callUploadFailed };

/**
 * After a meeting upload: success when every meeting was processed; a warning naming the failures
 * when some were; an error when none was.
 */
export function meetingUploadToast(total: number, errors: readonly string[]): UploadToast {
  const succeeded = total - errors.length;
  if (errors.length === 0) return { kind: 'success', text: UPLOAD_MESSAGES.meetingsProcessed(succeeded, total) };
  return { kind: succeeded > 0 ? 'warning' : 'error', text: UPLOAD_MESSAGES.meetingsPartlyProcessed(succeeded, total, errors) };
}
