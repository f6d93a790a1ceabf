/**
 * parlance.identity.v1.TeamsService: the caller's company's teams. The company comes from the
 * call's metadata, every query is scoped by it, and every change is written together with its
 * `identity.team-changed.v1` event.
 */
import { randomUUID } from 'node:crypto';
import { invalidArgument, notFound } from '@parlance/platform/errors';
import type { Database } from '@parlance/platform/db/database';
import { retryOnConflict } from '@parlance/platform/db/conflict-retry';
import type { ServiceImplementation } from '@parlance/platform/grpc/grpc-server';
import type { TeamDraft as TeamDraftMessage, TeamsServiceService } from '@parlance/proto/parlance/identity/v1/teams';
import { findTeam, listTeamMembers, listTeams, markTeamDeleted, teamState } from '../db/teams.repository.js';
import { checkTeam, TEAM_MESSAGES, type TeamDraft } from '../domain/teams.js';
import { publishTeamChanged } from '../events/publishers.js';
import { callerMembership } from '../membership.js';
import { writeTeam } from '../team-writes.js';
import { teamMessage } from './messages.js';

export interface TeamsDependencies {
  db: Database<Record<string, unknown>>;
  now?: () => Date;
}

/** The editor's draft as the domain reads it; the message's groups and criteria have its shape already. */
const draftOf = (message: TeamDraftMessage | undefined): TeamDraft => ({
  id: message?.id ?? '',
  name: message?.name ?? '',
  department: message?.department ?? '',
  criteriaGroups: message?.hasCriteriaGroups ? message.criteriaGroups : undefined,
  successPrompt: message?.successPrompt ?? '',
  callScript: message?.callScript,
  crmId: message?.crmId ?? '',
  reviewThreshold: message?.reviewThreshold,
});

/** The team (or its state) when the company has it and it is not deleted; otherwise NOT_FOUND. */
function liveOrNotFound<T extends { deletedAt: Date | null }>(team: T | undefined, teamId: string): T {
  if (!team || team.deletedAt) throw notFound(TEAM_MESSAGES.notFound, { teamId });
  return team;
}

export function teamsService(deps: TeamsDependencies): ServiceImplementation<typeof TeamsServiceService> {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    async listTeams(request) {
      const { company } = await callerMembership(db);
      const department = request.department.trim();
      if (department && !company.departments.includes(department)) throw invalidArgument(TEAM_MESSAGES.unknownDepartment(department), { field: 'department' });
      return { teams: (await listTeams(db, company.id, department || undefined)).map(teamMessage) };
    },

    async getTeam(request) {
      const { company } = await callerMembership(db);
      const team = liveOrNotFound(await findTeam(db, company.id, request.teamId), request.teamId);
      return { team: teamMessage(team), members: await listTeamMembers(db, company.id, team.id) };
    },

    async listTeamMembers(request) {
      const { company } = await callerMembership(db);
      liveOrNotFound(await teamState(db, company.id, request.teamId), request.teamId);
      return { members: await listTeamMembers(db, company.id, request.teamId) };
    },

    async saveTeam(request) {
      const { company } = await callerMembership(db);
      const checked = checkTeam(draftOf(request.team), request.keepMembers ? undefined : request.members, {
        departments: company.departments,
        newId: randomUUID,
      });
      if (!request.isNew && checked.team.id === undefined) throw notFound(TEAM_MESSAGES.notFound);
      const teamId = checked.team.id ?? randomUUID();

      const saved = await retryOnConflict(() => db.transaction((tx) => writeTeam(tx, company.id, teamId, checked, { isNew: request.isNew }, now())));
      return { team: teamMessage(saved.team), members: saved.members, existed: !saved.created };
    },

    async deleteTeam(request) {
      const { company } = await callerMembership(db);
      await db.transaction(async (tx) => {
        liveOrNotFound(await teamState(tx, company.id, request.teamId, { lock: true }), request.teamId);
        await markTeamDeleted(tx, company.id, request.teamId, now());
        const deleted = (await findTeam(tx, company.id, request.teamId))!;
        await publishTeamChanged(tx, company.id, deleted, await listTeamMembers(tx, company.id, request.teamId));
      });
      return {};
    },
  };
}
