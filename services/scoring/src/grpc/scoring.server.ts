/** parlance.scoring.v1.ScoringService: stored evaluations, for the summary views. */
import type { Database } from '@parlance/platform/db/database';
import { notFound } from '@parlance/platform/errors';
import type { ServiceImplementation } from '@parlance/platform/grpc/grpc-server';
import { requireCompanyId } from '@parlance/platform/grpc/request-context';
import type { ScoringServiceService } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { findEvaluation } from '../db/evaluations.repository.js';

export function scoringService(db: Database<Record<string, unknown>>): ServiceImplementation<typeof ScoringServiceService> {
  return {
    async getEvaluation({ activityId }) {
      const evaluation = await findEvaluation(db, requireCompanyId(), activityId);
      if (!evaluation) throw notFound('No evaluation for this activity.');
      return { evaluation };
    },
  };
}
