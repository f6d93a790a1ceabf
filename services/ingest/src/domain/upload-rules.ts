/**
 * What an upload must satisfy before Parlance stores it (spec part 2 §5 and §9), with the wording
 * of §5 and §8. Each check returns a result rather than throwing, so the caller decides whether a
 * failure is an HTTP answer, a toast or a failed job.
 */
import { describeAcceptedAudio, detectAudioFormat, type AudioFormat } from './audio-format.js';

/** 100 KB. */
export const MEETING_MAX_BYTES = 102_400;
/** A call transcript sent as text; the spec sets no limit, so this keeps one upload to 1 MB. */
export const CALL_TEXT_MAX_BYTES = 1_048_576;
/** Compared case-insensitively: 'Notes.TXT' is a text file. */
export const MEETING_EXTENSIONS = ['.txt', '.md', '.text'] as const;

export type UploadKind = 'calls' | 'meetings';

export const UPLOAD_MESSAGES = {
  companyMissing: 'Upload failed: Company ID is missing.',
  teamMissing: 'Please select a team.',
  representativeMissing: 'Please provide a Representative.',
  noFiles: 'Please select at least one file to upload.',
  noTextFiles: 'Please select at least one text file to upload.',
  audioTooLarge: (fileNames: readonly string[]) => `The following audio files are too large (max 25MB): ${formatFileList(fileNames)}`,
  meetingTooLarge: (fileNames: readonly string[]) => `The following files are too large (max 100KB): ${formatFileList(fileNames)}`,
  // The spec gives no wording for these; they follow the style of the size messages.
  textTooLarge: (fileNames: readonly string[]) => `The following text files are too large (max 1MB): ${formatFileList(fileNames)}`,
  teamNotInCompany: 'The selected team was not found in your company. Please select a team.',
  representativeNotInTeam: (email: string) => `${email} is not a representative of the selected team.`,
  notTextFiles: (fileNames: readonly string[]) =>
    `The following files are not text files (accepted: ${MEETING_EXTENSIONS.join(', ')}): ${formatFileList(fileNames)}`,
  emptyFiles: (fileNames: readonly string[]) => `The following files are empty: ${formatFileList(fileNames)}`,
  notAudio: (fileName: string) => `${fileName} is not an audio file Parlance can read (accepted: ${describeAcceptedAudio()}).`,
  processingFailed: (fileName: string, reason: string) => `Processing failed for ${fileName}: ${reason}`,
} as const;

export interface UploadRequest {
  companyId?: string | undefined;
  teamId?: string | undefined;
  /** The representative's e-mail. */
  representative?: string | undefined;
  fileCount: number;
}

/** Spec §5: meeting checks show as warnings; a call upload that cannot start is an error. */
export type UploadRequestResult = { ok: true } | { ok: false; message: string; severity: 'error' | 'warning' };

/**
 * Spec §5's checks before an upload, in its order: company, team, representative, then at least
 * one file. A value of only spaces counts as missing.
 */
export function checkUploadRequest(kind: UploadKind, request: UploadRequest): UploadRequestResult {
  const severity = kind === 'meetings' ? 'warning' : 'error';
  const fail = (message: string): UploadRequestResult => ({ ok: false, message, severity });
  if (isBlank(request.companyId)) return fail(UPLOAD_MESSAGES.companyMissing);
  if (isBlank(request.teamId)) return fail(UPLOAD_MESSAGES.teamMissing);
  if (isBlank(request.representative)) return fail(UPLOAD_MESSAGES.representativeMissing);
  if (request.fileCount < 1) return fail(kind === 'meetings' ? UPLOAD_MESSAGES.noTextFiles : UPLOAD_MESSAGES.noFiles);
  return { ok: true };
}

/** What the lists show for a representative the upload does not name (spec part 2 §3: "first name, or N/A"). */
export const UNNAMED_REPRESENTATIVE = 'N/A';

/**
 * The representative's name as the activity keeps it: the name the upload sent, or else (the
 * meeting upload sends only an e-mail, and "N/A" means none) their first name as the team knows
 * it, as the call upload sends it; "N/A" when neither says.
 */
export function representativeNameOf(sent: string, member: { firstName: string; lastName: string } | undefined): string {
  const given = sent.trim();
  if (given !== '' && given.toUpperCase() !== UNNAMED_REPRESENTATIVE) return given;
  return member?.firstName.trim() || member?.lastName.trim() || UNNAMED_REPRESENTATIVE;
}

export function hasMeetingExtension(fileName: string): boolean {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return false;
  const extension = fileName.slice(dot).toLowerCase();
  return (MEETING_EXTENSIONS as readonly string[]).includes(extension);
}

/**
 * Whether a call's audio is something Parlance can read, judged by its first bytes
 * (AUDIO_HEAD_BYTES of them, or the whole file when smaller), never by its name. An empty head
 * means an empty file.
 */
export function checkAudioContent(fileName: string, head: Uint8Array): { ok: true; format: AudioFormat } | { ok: false; message: string } {
  if (head.length === 0) return failure(UPLOAD_MESSAGES.emptyFiles([fileName]));
  const format = detectAudioFormat(head);
  return format === undefined ? failure(UPLOAD_MESSAGES.notAudio(fileName)) : { ok: true, format };
}

/** File names as the spec's messages list them: comma-separated, in the order given. */
export function formatFileList(fileNames: readonly string[]): string {
  return fileNames.join(', ');
}

function failure(message: string): { ok: false; message: string } {
  return { ok: false, message };
}

function isBlank(value: string | undefined): boolean {
  return value === undefined || value.trim() === '';
}
