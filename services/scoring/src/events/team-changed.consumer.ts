/**
 * Keeps scoring's copy of each team's criteria in step with identity: every
 * `identity.team-changed.v1` carries the whole team, and a newer version replaces an older one
 * (an event redelivered out of order changes nothing).
 */
import type { EventEnvelope } from '@parlance/proto/parlance/events/v1/envelope';
import { TeamChanged } from '@parlance/proto/parlance/identity/v1/events';
import type { Executor } from '@parlance/platform/db/database';
import type { EventConsumer } from '@parlance/platform/service/service-runtime';
import { applyTeamCriteria } from '../db/team-criteria.repository.js';
import { reviewThresholdOf } from '../domain/review.js';

export const TEAM_CHANGED = 'identity.team-changed.v1';

export async function applyTeamChanged(event: EventEnvelope, tx: Executor): Promise<void> {
  const { team, deleted } = TeamChanged.decode(event.payload);
  if (!team?.id) throw new Error(`event ${event.id} carries no team`);
  const changedAt = team.updatedAt ?? event.occurredAt ?? new Date();
  await applyTeamCriteria(tx, {
    companyId: event.companyId,
    teamId: team.id,
    version: team.version,
    name: team.name,
    department: team.department,
    criteriaGroups: team.criteriaGroups,
    successPrompt: team.successPrompt,
    callScript: team.callScript,
    reviewThreshold: reviewThresholdOf(team.reviewThreshold),
    deletedAt: deleted ? changedAt : null,
    updatedAt: changedAt,
  });
}

export const teamChangedConsumer: EventConsumer = {
  consumer: 'team-criteria',
  eventTypes: [TEAM_CHANGED],
  handle: (event, tx) => applyTeamChanged(event, tx),
};
