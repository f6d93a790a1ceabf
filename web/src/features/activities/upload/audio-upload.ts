/**
 * Sending one call recording (POST /api/calls/transcribe/audio, multipart) with XMLHttpRequest,
 * whose upload progress events drive the file's progress bar; fetch reports none. Like every
 * change request it carries the CSRF token in X-CSRF-Token, got and renewed as the API slice does
 * (lib/api/api-slice.ts).
 */
import { CSRF_HEADER, CSRF_UNAVAILABLE, isCsrfRejected, isSessionEnded, sendWithCsrfToken, type CsrfTokens } from '../../../lib/api/api-slice';
import { abortError } from './job-poller';

export const AUDIO_UPLOAD_URL = '/api/calls/transcribe/audio';

/** The form's text fields (spec part 2 §7), sent before the file. */
export type AudioFields = {
  /** The file's last-modified time, ISO 8601. */
  audioDate: string;
  teamId: string;
  /** The representative's e-mail. */
  representative: string;
  /** The representative's first name, or 'N/A'. */
  repName: string;
};

export type AudioUploadRequest = {
  file: Blob & { name: string };
  fields: AudioFields;
  /** 0 to 1, as the bytes go out. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
};

/** The HTTP status and the parsed JSON body (undefined when it was not JSON). */
export type AudioUploadAnswer = { status: number; body: unknown };

/** One multipart POST; rejects only when no answer came (network failure, abort). */
function sendAudio(request: AudioUploadRequest, csrfToken: string): Promise<AudioUploadAnswer> {
  return new Promise((resolve, reject) => {
    if (request.signal?.aborted) {
      reject(abortError());
      return;
    }
    const form = new FormData();
    form.append('audioDate', request.fields.audioDate);
    form.append('teamId', request.fields.teamId);
    form.append('representative', request.fields.representative);
    form.append('repName', request.fields.repName);
    form.append('file', request.file, request.file.name);

    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => request.signal?.removeEventListener('abort', onAbort);
    xhr.open('POST', AUDIO_UPLOAD_URL);
    xhr.withCredentials = true;
    xhr.setRequestHeader(CSRF_HEADER, csrfToken);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) request.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      done();
      resolve({ status: xhr.status, body: parseJson(xhr.responseText) });
    };
    xhr.onerror = () => {
      done();
      reject(new Error('Network error'));
    };
    xhr.ontimeout = () => {
      done();
      reject(new Error('The upload timed out'));
    };
    xhr.onabort = () => {
      done();
      reject(abortError());
    };
    request.signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(form);
  });
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The CSRF tokens of the store, and what to do when the gateway says the session has ended. */
export type UploadSession = CsrfTokens & { onSessionEnded?(): void };

/**
 * Sends the recording with a CSRF token (a second send, after a refused token, starts the file's
 * progress again). Rejects with 'Failed to obtain CSRF token' when none can be had, so the dialog
 * reads 'Error uploading {file}: Failed to obtain CSRF token'.
 */
export async function uploadAudio(request: AudioUploadRequest, session: UploadSession): Promise<AudioUploadAnswer> {
  const answer = await sendWithCsrfToken(
    session,
    (token, retry) => {
      if (retry) request.onProgress?.(0);
      return sendAudio(request, token);
    },
    (first) => isCsrfRejected(first.status, first.body),
  );
  if (!answer) throw new Error(CSRF_UNAVAILABLE);
  if (isSessionEnded(answer.status, answer.body)) session.onSessionEnded?.();
  return answer;
}

/** The job id of an accepted upload (status 200 with { jobId }), else undefined. */
export function jobIdOf(answer: AudioUploadAnswer): string | undefined {
  if (answer.status !== 200) return undefined;
  const jobId = (answer.body as { jobId?: unknown } | undefined)?.jobId;
  return typeof jobId === 'string' && jobId !== '' ? jobId : undefined;
}
