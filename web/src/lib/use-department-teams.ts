import { useAppSelector } from '../app/hooks';
import { useFetchTeamsQuery, type Team } from './api/gateway-api.generated';
import { selectActiveDepartment } from './auth/department-slice';

const NO_TEAMS: Team[] = [];

/**
 * The teams of the current department, as the page and the upload dialogs offer them: asked for
 * by department, and any other department's team left out. Nothing is fetched while `skip`.
 */
export function useDepartmentTeams(skip = false) {
  const department = useAppSelector(selectActiveDepartment);
  const { data, isLoading, isError } = useFetchTeamsQuery({ department: department ?? undefined }, { skip: skip || !department });
  return { teams: (data ?? NO_TEAMS).filter((team) => team.department === department), isLoading, isError };
}
