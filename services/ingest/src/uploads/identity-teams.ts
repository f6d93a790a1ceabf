/**
 * The team directory an upload is checked against: identity's teams, asked over gRPC. Only the
 * members matter here (who may be the representative, and everyone's names), so it asks for them
 * alone (ListTeamMembers), not the whole team with its criteria: half the statements on identity's
 * side for every upload.
 */
import { createClient } from '@parlance/platform/grpc/grpc-client';
import { GrpcCallError } from '@parlance/platform/grpc/status-mapping';
import { TeamsServiceClient } from '@parlance/proto/parlance/identity/v1/teams';
import type { TeamDirectory } from './receive-upload.js';

export function identityTeamDirectory(address: string): TeamDirectory & { close(): void } {
  const teams = createClient(TeamsServiceClient, address, { idempotent: ['listTeamMembers'] });
  return {
    async members(teamId) {
      try {
        const { members } = await teams.listTeamMembers({ teamId });
        return members.map((member) => ({ email: member.email.toLowerCase(), firstName: member.firstName, lastName: member.lastName }));
      } catch (error) {
        if (error instanceof GrpcCallError && error.kind === 'not-found') return undefined;
        throw error;
      }
    },
    close: () => teams.close(),
  };
}
