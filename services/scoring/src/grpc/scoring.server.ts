/** parlance.scoring.v1.ScoringService: stored evaluations, for the summary views. */
import type { Database } from '@parlance/platform/db/database';
import { notFound } from '@parlance/platform/errors';
import type { ServiceImplementation } from '@parlance/platform/grpc/grpc-server';
import { requireCompanyId } from '@parlance/platform/grpc/request-context';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import type { ScoringServiceService } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { activityKindName } from '../activity-kinds.js';
import { findEvaluation } from '../db/evaluations.repository.js';

export function scoringService(db: Database<Record<string, unknown>>): ServiceImplementation<typeof ScoringServiceService> {
  return {
    async getEvaluation({ activityId, kind }) {
      const named = kind === ActivityKind.ACTIVITY_KIND_UNSPECIFIED ? undefined : activityKindName(kind);
      const evaluation = await findEvaluation(db, requireCompanyId(), activityId, named);
      if (!evaluation) throw notFound('No evaluation for this activity.');
      return { evaluation };
    },
  };
}
