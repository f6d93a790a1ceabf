/** Keeps analytics' copy of the teams in step with identity, for the department filter. */
import type { EventConsumer } from '@parlance/platform/service/service-runtime';
import { TeamChanged } from '@parlance/proto/parlance/identity/v1/events';
import { applyTeamChange } from '../db/teams.repository.js';
import { teamStateOf } from '../domain/team-state.js';

export const TEAM_CHANGED = 'identity.team-changed.v1';

export const teamChangedConsumer: EventConsumer = {
  consumer: 'team-changed',
  eventTypes: [TEAM_CHANGED],
  handle: (event, tx) => applyTeamChange(tx, event.companyId, teamStateOf(TeamChanged.decode(event.payload))),
};
