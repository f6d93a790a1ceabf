/**
 * The two services a sync talks to, over gRPC as any other caller does: identity for the
 * company's teams (to find whose call it is, and to bring Close's users in as members), ingest to
 * take each call or meeting in exactly as an upload.
 */
import { chunksOf, uploadActivity } from '@parlance/platform/activity/upload-activity';
import { createClient } from '@parlance/platform/grpc/grpc-client';
import { GrpcCallError } from '@parlance/platform/grpc/status-mapping';
import { TeamsServiceClient, type Team, type TeamDraft } from '@parlance/proto/parlance/identity/v1/teams';
import { ActivityKind, IngestServiceClient, MediaKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import type { TeamRoster } from '../domain/call-import.js';
import { membersWithChange, type RosterTeam } from '../domain/close-roster.js';
import type { RosterKeeper } from './close-sync.js';
import { ImportRefused, type ActivityImporter } from './import-call.js';

/** An upload's time limit: a 25 MB recording over a slow link included. */
const IMPORT_DEADLINE_MS = 120_000;

export function identityRosters(address: string): { teams: (companyId: string) => Promise<TeamRoster[]>; keeper: RosterKeeper; close(): void } {
  // SaveTeam replaces the team whole, so sending it again is harmless.
  const client = createClient(TeamsServiceClient, address, { idempotent: ['listTeams', 'listTeamMembers', 'getTeam', 'saveTeam'] });
  const rosters = async (companyId: string): Promise<RosterTeam[]> => {
    const { teams } = await client.listTeams({ department: '' }, { companyId });
    return Promise.all(
      teams.map(async (team) => {
        try {
          const { members } = await client.listTeamMembers({ teamId: team.id }, { companyId });
          return { id: team.id, department: team.department, members: members.map(({ firstName, lastName, email, crmId, target }) => ({ firstName, lastName, email, crmId, target })) };
        } catch (error) {
          // Deleted between the two calls: it has no members to find.
          if (error instanceof GrpcCallError && error.kind === 'not-found') return { id: team.id, department: team.department, members: [] };
          throw error;
        }
      }),
    );
  };
  return {
    teams: rosters,
    keeper: {
      read: rosters,
      async apply(companyId, change) {
        try {
          // Read again just before saving, so what a manager changed meanwhile is kept.
          const { team, members } = await client.getTeam({ teamId: change.teamId }, { companyId });
          if (!team) return { refused: 'identity answered without the team' };
          await client.saveTeam(
            {
              team: draftOf(team),
              isNew: false,
              members: membersWithChange(members, change).map(({ firstName, lastName, email, crmId, target }) => ({ firstName, lastName, email, crmId, targetText: String(target) })),
              keepMembers: false,
            },
            { companyId },
          );
          return { saved: true };
        } catch (error) {
          if (error instanceof GrpcCallError && (error.kind === 'invalid-argument' || error.kind === 'not-found')) return { refused: error.message };
          throw error;
        }
      },
    },
    close: () => client.close(),
  };
}

/** The team as the editor would send it unchanged: identity reads weights as typed text. */
function draftOf(team: Team): TeamDraft {
  return {
    id: team.id,
    name: team.name,
    department: team.department,
    criteriaGroups: team.criteriaGroups.map((group) => ({
      id: group.id,
      name: group.name,
      criteria: group.criteria.map((criterion) => ({ id: criterion.id, name: criterion.name, prompt: criterion.prompt, weightText: String(criterion.weight) })),
    })),
    successPrompt: team.successPrompt,
    callScript: team.callScript,
    crmId: team.crmId,
    hasCriteriaGroups: true,
  };
}

export function ingestImporter(address: string): ActivityImporter & { close(): void } {
  const client = createClient(IngestServiceClient, address);
  return {
    async importCall(companyId, activity) {
      const content = activity.media.kind === 'text' ? Buffer.from(activity.media.text, 'utf8') : activity.media.bytes;
      try {
        return await uploadActivity(
          client.raw,
          {
            kind: activity.meeting ? ActivityKind.ACTIVITY_KIND_MEETING : ActivityKind.ACTIVITY_KIND_CALL,
            mediaKind: activity.media.kind === 'text' ? MediaKind.MEDIA_KIND_TEXT : MediaKind.MEDIA_KIND_AUDIO,
            fileName: activity.fileName,
            teamId: activity.teamId,
            representativeEmail: activity.representativeEmail,
            representativeName: activity.representativeName,
            occurredAt: activity.occurredAt,
            title: activity.meeting?.title ?? '',
            notes: activity.notes,
            contact: { id: activity.contactId, name: activity.contactName, company: '', role: '' },
            link: activity.meeting?.link ?? '',
            source: activity.source,
            externalId: activity.externalId,
          },
          chunksOf(content),
          { companyId, deadlineMs: IMPORT_DEADLINE_MS },
        );
      } catch (error) {
        if (error instanceof GrpcCallError && error.kind === 'invalid-argument') throw new ImportRefused(error.message);
        throw error;
      }
    },
    close: () => client.close(),
  };
}
