/**
 * The demo company as the demo user sees it: signed in through identity with the public demo
 * sign-in (as a person would), then its teams and their members. The session is ended at once.
 */
import { DEMO_ACCOUNT } from '@parlance/identity/demo-account';
import { createClient } from '@parlance/platform/grpc/grpc-client';
import { AuthServiceClient } from '@parlance/proto/parlance/identity/v1/auth';
import { TeamsServiceClient } from '@parlance/proto/parlance/identity/v1/teams';
import type { DemoTeam } from '../domain/demo-conversations.js';

export interface DemoCompany {
  companyId: string;
  userId: string;
  teams: DemoTeam[];
}

export async function readDemoCompany(identityAddress: string): Promise<DemoCompany> {
  const auth = createClient(AuthServiceClient, identityAddress);
  const teamsClient = createClient(TeamsServiceClient, identityAddress, { idempotent: ['listTeams', 'getTeam'] });
  try {
    const { session } = await auth.signIn({ email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password, previousSessionToken: '' });
    if (!session?.company || !session.user) throw new Error('the demo sign-in has no company');
    const caller = { companyId: session.company.id, userId: session.user.id };
    try {
      const { teams } = await teamsClient.listTeams({ department: '' }, caller);
      const withMembers = await Promise.all(
        teams.map(async (team) => {
          const { members } = await teamsClient.getTeam({ teamId: team.id }, caller);
          return { id: team.id, name: team.name, department: team.department, members: members.map(({ email, firstName, lastName }) => ({ email, firstName, lastName })) };
        }),
      );
      return { ...caller, teams: withMembers };
    } finally {
      await auth.signOut({ sessionToken: session.token }).catch(() => undefined);
    }
  } finally {
    auth.close();
    teamsClient.close();
  }
}
