/** The team directory an upload is checked against: identity's teams, asked over gRPC. */
import { createClient } from '@parlance/platform/grpc/grpc-client';
import { GrpcCallError } from '@parlance/platform/grpc/status-mapping';
import { TeamsServiceClient } from '@parlance/proto/parlance/identity/v1/teams';
import type { TeamDirectory } from './receive-upload.js';

export function identityTeamDirectory(address: string): TeamDirectory & { close(): void } {
  const teams = createClient(TeamsServiceClient, address, { idempotent: ['getTeam'] });
  return {
    async memberEmails(teamId) {
      try {
        const { members } = await teams.getTeam({ teamId });
        return members.map((member) => member.email.toLowerCase());
      } catch (error) {
        if (error instanceof GrpcCallError && error.kind === 'not-found') return undefined;
        throw error;
      }
    },
    close: () => teams.close(),
  };
}
