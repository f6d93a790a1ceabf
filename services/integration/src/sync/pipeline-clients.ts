/**
 * The two services a sync talks to, over gRPC as any other caller does: identity for the
 * company's teams (to find whose call it is), ingest to take each call or meeting in exactly as an
 * upload.
 */
import { chunksOf, uploadActivity } from '@parlance/platform/activity/upload-activity';
import { createClient } from '@parlance/platform/grpc/grpc-client';
import { GrpcCallError } from '@parlance/platform/grpc/status-mapping';
import { TeamsServiceClient } from '@parlance/proto/parlance/identity/v1/teams';
import { ActivityKind, IngestServiceClient, MediaKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import type { TeamRoster } from '../domain/close-import.js';
import { ImportRefused, type ActivityImporter } from './import-call.js';

/** An upload's time limit: a 25 MB recording over a slow link included. */
const IMPORT_DEADLINE_MS = 120_000;

export function identityRosters(address: string): { teams: (companyId: string) => Promise<TeamRoster[]>; close(): void } {
  const client = createClient(TeamsServiceClient, address, { idempotent: ['listTeams', 'listTeamMembers'] });
  return {
    async teams(companyId) {
      const { teams } = await client.listTeams({ department: '' }, { companyId });
      const rosters = await Promise.all(
        teams.map(async (team) => {
          try {
            const { members } = await client.listTeamMembers({ teamId: team.id }, { companyId });
            return { id: team.id, department: team.department, members: members.map(({ email, firstName, crmId }) => ({ email, firstName, crmId })) };
          } catch (error) {
            // Deleted between the two calls: it has no members to find.
            if (error instanceof GrpcCallError && error.kind === 'not-found') return { id: team.id, department: team.department, members: [] };
            throw error;
          }
        }),
      );
      return rosters;
    },
    close: () => client.close(),
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
