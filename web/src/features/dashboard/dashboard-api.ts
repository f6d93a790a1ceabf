import { gatewayApi, type TeamMember } from '../../lib/api/gateway-api.generated';
import { mergeRepresentatives, type RepresentativeOption } from './compare-options';

/**
 * The representatives of several teams in one query: the Compare selector offers every member of
 * the department's teams. Each team is read with the generated GET /api/teams/{id}/members
 * endpoint (so its cache is shared); a team whose members cannot be read offers none.
 */
export const dashboardApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getRepresentativesOfTeams: build.query<RepresentativeOption[], string[]>({
      async queryFn(teamIds, { dispatch }) {
        const teamMembers = await Promise.all(
          teamIds.map(async (teamId) => {
            const request = dispatch(gatewayApi.endpoints.getTeamMembers.initiate({ id: teamId }, { subscribe: false }));
            const members: TeamMember[] = (await request).data ?? [];
            return { teamId, members };
          }),
        );
        return { data: mergeRepresentatives(teamMembers) };
      },
      providesTags: ['teams'],
    }),
  }),
});

export const { useGetRepresentativesOfTeamsQuery } = dashboardApi;
