/**
 * What the generated endpoints' results mean to the upload flows: a job status or the status of
 * a failed request, the reason a text upload failed, whether a meeting was accepted.
 */
import { serverMessage, type CallError } from '../../../lib/api/error-message';
import type { JobAnswer } from './job-poller';
import type { MeetingSendAnswer } from './upload-flows';
import { UPLOAD_MESSAGES } from './upload-rules';

type Result<T> = { data?: T; error?: CallError };
type JobStatus = { isCompleted: boolean; isFailed: boolean; failedReason?: string | null };

/** The HTTP status of a failed request, or its kind ('FETCH_ERROR', ...) when no status came. */
export function statusOf(error: CallError): number | string {
  if (!error) return 'UNKNOWN_ERROR';
  if (!('status' in error)) return error.name ?? 'UNKNOWN_ERROR';
  if (typeof error.status === 'number') return error.status;
  if (error.status === 'PARSING_ERROR') return error.originalStatus;
  return error.status;
}

export function jobAnswerOf(result: Result<JobStatus>): JobAnswer {
  if (result.data) return { ok: true, job: result.data };
  return { ok: false, status: statusOf(result.error) };
}

/**
 * Why a text upload failed: the gateway's sentence ('Please select a team.', 'The following text
 * files are too large ...'), else 'Unexpected status code {n}', else the request's own error.
 */
export function textFailureReason(error: CallError): string {
  const said = serverMessage(error);
  if (said) return said;
  const status = statusOf(error);
  if (typeof status === 'number') return UPLOAD_MESSAGES.unexpectedStatus(status);
  if (error && 'status' in error && 'error' in error) return error.error;
  if (error && 'message' in error && error.message) return error.message;
  return status;
}

/**
 * A meeting is accepted with a jobId (the gateway answers 202). A refusal carries its HTTP status
 * ('Unexpected status code: {status}'); a request that got no answer carries its error.
 */
export function meetingSendAnswerOf(result: Result<{ jobId: string }>): MeetingSendAnswer {
  if (result.data?.jobId) return { ok: true, jobId: result.data.jobId };
  const status = statusOf(result.error);
  if (typeof status === 'number') return { ok: false, status };
  const error = result.error;
  if (error && 'status' in error && 'error' in error) return { ok: false, error: error.error };
  return { ok: false, error: status };
}
