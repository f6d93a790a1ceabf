import type { Team } from '../lib/api/gateway-api.generated';

/** A saved team as the gateway answers it, for tests: no criteria, success prompt or script unless given. */
export function makeSavedTeam(overrides: Partial<Team> = {}): Team {
  return {
    id: 'team-1',
    name: 'Inbound sales',
    department: 'sales',
    criteria_group: [],
    success_criteria: { prompt: '' },
    members: [],
    call_script: '',
    crm_id: '',
    review_threshold: 0.7,
    version: 1,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}
