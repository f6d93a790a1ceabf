/** A company with a team and a representative, ready to upload calls and meetings, for the upload tests. */
import { and, eq } from 'drizzle-orm';
import { jobs } from '@parlance/ingest/db/schema';
import { createClient } from '@parlance/platform/grpc/grpc-client';
import { TranscriptionServiceClient, type Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import type { ApiClient } from '../support/api-client.js';
import type { IdentityStack } from '../support/identity-stack.js';
import { waitFor } from '../support/wait-for.js';
import { memberPayload, teamPayload, type MemberJson } from '../teams/team-fixtures.js';

export interface JobStatus {
  status: string;
  isCompleted: boolean;
  isFailed: boolean;
  failedReason: string;
  /** The call or meeting the job processes. */
  activityId: string;
}

export interface UploadingCompany {
  browser: ApiClient;
  companyId: string;
  /** The admin who signed the company up. */
  userId: string;
  teamId: string;
  representative: MemberJson;
}

/** Signs a company up and saves a team with one representative. */
export async function uploadingCompany(stack: IdentityStack, representative: Partial<MemberJson> = {}): Promise<UploadingCompany> {
  const { browser, companyId, userId } = await stack.signUpVerified();
  const member = memberPayload(representative);
  const saved = await browser.put<{ team: { id: string } }>('/api/teams/save', { team: teamPayload({ members: [member.email] }), isNew: true, members: [member] });
  if (saved.status !== 200) throw new Error(`saving the team answered ${saved.status}: ${JSON.stringify(saved.body)}`);
  return { browser, companyId, userId, teamId: saved.body.team.id, representative: member };
}

/** Polls a job (as the web app does every 2 s; here every 100 ms) until it ends. */
export async function finishedJob(browser: ApiClient, path: string, timeoutMs = 60_000): Promise<JobStatus> {
  return waitFor(
    `${path} to finish`,
    async () => {
      const response = await browser.get<JobStatus>(path);
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
      return response.body.isCompleted || response.body.isFailed ? response.body : undefined;
    },
    timeoutMs,
  );
}

/** The activity an upload's job follows, as ingest stored it, read from its database (the job's status names it too, as `activityId`). */
export async function activityOfJob(stack: IdentityStack, companyId: string, jobId: string): Promise<string> {
  const [row] = await stack
    .runtime('ingest')
    .database.db.select({ activityId: jobs.activityId })
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId)));
  if (!row) throw new Error(`no job ${jobId}`);
  return row.activityId;
}

/** The stored transcript of an activity, read from transcription over gRPC as other services will. */
export async function storedTranscript(stack: IdentityStack, companyId: string, activityId: string): Promise<Transcript | undefined> {
  const client = createClient(TranscriptionServiceClient, stack.services.get('transcription').address);
  try {
    return (await client.getTranscript({ activityId }, { companyId })).transcript;
  } catch (error) {
    if ((error as { kind?: string }).kind === 'not-found') return undefined;
    throw error;
  } finally {
    client.close();
  }
}
