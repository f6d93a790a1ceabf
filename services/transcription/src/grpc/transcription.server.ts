/** parlance.transcription.v1.TranscriptionService: stored transcripts, for the summary views. */
import type { Database } from '@parlance/platform/db/database';
import { notFound } from '@parlance/platform/errors';
import type { ServiceImplementation } from '@parlance/platform/grpc/grpc-server';
import { requireCompanyId } from '@parlance/platform/grpc/request-context';
import type { TranscriptionServiceService } from '@parlance/proto/parlance/transcription/v1/transcription';
import { activityKindOf } from '@parlance/platform/activity/activity-kind';
import { findTranscript } from '../db/transcripts.repository.js';

export function transcriptionService(db: Database<Record<string, unknown>>): ServiceImplementation<typeof TranscriptionServiceService> {
  return {
    async getTranscript({ activityId }) {
      const row = await findTranscript(db, requireCompanyId(), activityId);
      if (!row) throw notFound('No transcript for this activity.');
      return {
        transcript: {
          activityId: row.activityId,
          kind: activityKindOf(row.kind),
          sourceFormat: row.sourceFormat,
          engine: row.engine,
          durationMs: row.durationMs,
          speakers: row.speakers,
          segments: row.segments,
          warnings: row.warnings,
        },
      };
    },
  };
}
