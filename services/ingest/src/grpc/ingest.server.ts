/** parlance.ingest.v1.IngestService: uploads, their jobs, deletions, and media for transcription. */
import { activityKindOf } from '@parlance/platform/activity/activity-kind';
import type { Database } from '@parlance/platform/db/database';
import { invalidArgument, notFound } from '@parlance/platform/errors';
import { outboxMessageFor } from '@parlance/platform/events/event-envelope';
import type { ServiceImplementation } from '@parlance/platform/grpc/grpc-server';
import { requireCompanyId } from '@parlance/platform/grpc/request-context';
import { clientStreamingHandler, serverStreamingHandler } from '@parlance/platform/grpc/streaming';
import type { Logger } from '@parlance/platform/logger';
import { enqueue } from '@parlance/platform/outbox/enqueue';
import { ActivityDeleted } from '@parlance/proto/parlance/ingest/v1/events';
import { ActivityKind, type IngestServiceService, type Job } from '@parlance/proto/parlance/ingest/v1/ingest';
import { deleteActivity, findActivity, findJob, type JobRow } from '../db/activities.repository.js';
import { outbox } from '../db/schema.js';
import { audioMimeTypeOf } from '../domain/audio-format.js';
import type { MediaStore } from '../media/media-store.js';
import { activityKindName, mediaKindOf } from './activity-kinds.js';
import { receiveUpload, type TeamDirectory } from '../uploads/receive-upload.js';

export const ACTIVITY_DELETED = 'ingest.activity-deleted.v1';

export interface IngestServerDependencies {
  db: Database<Record<string, unknown>>;
  media: MediaStore;
  teams: TeamDirectory;
  logger: Logger;
}

export function ingestService(deps: IngestServerDependencies): ServiceImplementation<typeof IngestServiceService> {
  return {
    uploadActivity: clientStreamingHandler(deps.logger, (parts) => receiveUpload(deps, requireCompanyId(), parts)),

    async getJob({ jobId }) {
      const job = await findJob(deps.db, requireCompanyId(), jobId);
      if (!job) throw notFound(`Job ${jobId} not found.`);
      return { job: jobView(job) };
    },

    async deleteActivity({ activityId, kind }) {
      const companyId = requireCompanyId();
      const kindName = activityKindName(kind);
      const removed = await deps.db.transaction(async (tx) => {
        const row = kindName ? await deleteActivity(tx, companyId, activityId, kindName) : undefined;
        if (!row) return undefined;
        const payload = ActivityDeleted.encode({ activityId, kind }).finish();
        await enqueue(tx, outbox, [outboxMessageFor({ type: ACTIVITY_DELETED, companyId, producer: 'ingest', payload })]);
        return row;
      });
      if (!removed) throw notFound(kind === ActivityKind.ACTIVITY_KIND_MEETING ? 'Meeting not found.' : 'Call not found.');
      // After the commit: a crash here leaves an unreferenced file, never a reference to no file.
      await deps.media.remove(removed.mediaKey).catch((error: unknown) => deps.logger.warn({ err: error, activityId }, 'could not remove the media of a deleted activity'));
      return {};
    },

    readMedia: serverStreamingHandler(deps.logger, async function* ({ activityId, offset, length }) {
      const activity = await findActivity(deps.db, requireCompanyId(), activityId);
      if (!activity) throw notFound('Activity not found.');
      if (offset < 0 || length < 0) throw invalidArgument('A media range starts at 0 or later and is not negative.');
      yield {
        chunk: Buffer.alloc(0),
        info: {
          kind: activityKindOf(activity.kind),
          mediaKind: mediaKindOf(activity.mediaKind),
          format: activity.mediaFormat,
          totalBytes: activity.mediaBytes,
          contentType: audioMimeTypeOf(activity.mediaFormat) ?? '',
        },
      };
      if (offset >= activity.mediaBytes) return;
      const end = length === 0 ? activity.mediaBytes : Math.min(activity.mediaBytes, offset + length);
      for await (const chunk of deps.media.read(activity.mediaKey, { start: offset, end })) yield { chunk, info: undefined };
    }),
  };
}

function jobView(job: JobRow): Job {
  return {
    id: job.id,
    activityId: job.activityId,
    kind: activityKindOf(job.kind),
    fileName: job.fileName,
    status: job.status,
    isCompleted: job.status === 'completed',
    isFailed: job.status === 'failed',
    failedReason: job.failedReason,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}
