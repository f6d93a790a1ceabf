import { describe, expect, it } from 'vitest';
import type { Team } from '@parlance/proto/parlance/identity/v1/teams';
import { teamDraft, teamView } from './team-views.js';

const TEAM: Team = {
  id: 'team-1',
  name: 'Inbound sales',
  department: 'sales',
  criteriaGroups: [],
  successPrompt: 'The customer agrees to a demo.',
  callScript: '',
  crmId: '',
  memberEmails: [],
  version: 3,
  createdAt: new Date('2026-11-20T10:00:00Z'),
  updatedAt: new Date('2026-11-21T10:00:00Z'),
  reviewThreshold: 0.85,
};

describe('a team’s review threshold between the editor’s JSON and identity', () => {
  it('is passed on as chosen, out of range or not: identity refuses a bad one with its own sentence', () => {
    expect(teamDraft({ review_threshold: 0.85 }).reviewThreshold).toBe(0.85);
    expect(teamDraft({ review_threshold: 0.3 }).reviewThreshold).toBe(0.3);
  });

  it('is left unset when the payload has none or null, so an existing team keeps its own', () => {
    expect(teamDraft({}).reviewThreshold).toBeUndefined();
    expect(teamDraft({ review_threshold: null }).reviewThreshold).toBeUndefined();
    expect(teamDraft(undefined).reviewThreshold).toBeUndefined();
  });

  it('is returned with the team', () => {
    expect(teamView(TEAM).review_threshold).toBe(0.85);
  });
});
