import { useMemo } from 'react';
import { useFetchTeamsQuery, type Team } from '../../lib/api/gateway-api.generated';
import type { CompareOptions, RepresentativeOption, TeamOption } from './compare-options';
import { useGetRepresentativesOfTeamsQuery } from './dashboard-api';

const NO_TEAMS: Team[] = [];
const NO_REPRESENTATIVES: RepresentativeOption[] = [];

/**
 * The department's teams, and (only when `withRepresentatives`) their members. A failed read
 * offers nothing, silently, as the dashboard's other reads do (spec part 2 §8).
 */
export function useCompareOptions(department: string | null, withRepresentatives: boolean) {
  const teamsQuery = useFetchTeamsQuery({ department: department ?? undefined }, { skip: !department });
  const teamList = teamsQuery.isError ? NO_TEAMS : (teamsQuery.data ?? NO_TEAMS);
  const teams = useMemo<TeamOption[]>(
    () => teamList.filter((team) => team.department === department).map((team) => ({ id: team.id, name: team.name })),
    [teamList, department],
  );
  const teamIds = useMemo(() => teams.map((team) => team.id), [teams]);
  const representativesQuery = useGetRepresentativesOfTeamsQuery(teamIds, { skip: !withRepresentatives || teamIds.length === 0 });
  const representatives = representativesQuery.data ?? NO_REPRESENTATIVES;
  const options = useMemo<CompareOptions>(() => ({ teams, representatives }), [teams, representatives]);
  return {
    options,
    teamsLoading: teamsQuery.isLoading,
    representativesLoading: withRepresentatives && representativesQuery.isFetching && !representativesQuery.data,
  };
}
