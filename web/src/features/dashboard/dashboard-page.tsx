import { useId, useMemo, useReducer, useState } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { Spinner } from '../../components/spinner';
import { useGetDashboardMetricsQuery, useGetLeaderboardQuery, useGetPerformanceQuery } from '../../lib/api/gateway-api.generated';
import { selectCompany } from '../../lib/auth/auth-slice';
import { selectActiveDepartment } from '../../lib/auth/department-slice';
import { formatDay } from '../../lib/format';
import { ActivityTabs } from '../../components/activity-tabs';
import { ChartCard } from './chart-card';
import { criteriaOptions, hasChartData, scoreTrendOptions, totalsOptions } from './chart-options';
import { compareSummary, optionsOf } from './compare-options';
import { CompareSelector } from './compare-selector';
import { DashboardDateRange } from './dashboard-date-range';
import {
  chartMetric,
  filtersReducer,
  INITIAL_FILTERS,
  leaderboardArgs,
  metricsArgs,
  parseLocalDay,
  performanceArgs,
  performanceRouteState,
  scopeOf,
  type DashboardChart,
  type RequestContext,
} from './dashboard-filters';
import { activityNoun, activityTitle } from './format';
import { kpiCards } from './kpi';
import { KpiCards } from './kpi-cards';
import { LeaderboardCard } from './leaderboard-card';
import { browserTimeZone, TIME_GROUPINGS, type ActivityType, type DashboardMode, type TimeGrouping } from './metrics';
import { useCompareOptions } from './use-compare-options';
import './dashboard.css';

const MODES: readonly { id: DashboardMode; label: string }[] = [
  { id: 'team', label: 'Team' },
  { id: 'representative', label: 'Representative' },
];

const dayText = (day: string) => {
  const date = parseLocalDay(day);
  return date ? formatDay(date) : day;
};

/**
 * /dashboard (spec part 2 §2.9): the calls or meetings of the current department's teams, or of
 * their representatives, over a period. Four KPI cards against the period before, the score,
 * criteria and volume charts, and the leaderboard. A failed read shows as no data (§8).
 */
export function DashboardPage() {
  const department = useAppSelector(selectActiveDepartment);
  const company = useAppSelector(selectCompany);
  const [activityType, setActivityType] = useState<ActivityType>('calls');
  const [filters, dispatch] = useReducer(filtersReducer, INITIAL_FILTERS);
  // The picker keeps its own preset; Clear filters gives it a fresh start.
  const [pickerKey, setPickerKey] = useState(0);

  // Another department has other teams and people: what was compared is let go.
  const [filtersDepartment, setFiltersDepartment] = useState(department);
  if (filtersDepartment !== department) {
    setFiltersDepartment(department);
    dispatch({ type: 'compareCleared' });
  }

  const { options, teamsLoading, representativesLoading } = useCompareOptions(department, filters.mode === 'representative');
  const timezone = useMemo(browserTimeZone, []);
  const scope = useMemo(() => scopeOf(filters, options), [filters, options]);
  const context: RequestContext = { activityType, department: department ?? '', timezone, ...(company?.id ? { companyId: company.id } : {}) };
  const noTeams = !teamsLoading && options.teams.length === 0;
  const skip = !department || teamsLoading || noTeams;

  const leaderboard = useGetLeaderboardQuery(leaderboardArgs(filters, scope, context), { skip });
  const metrics = useGetDashboardMetricsQuery(metricsArgs(filters, scope, context), { skip });
  const score = useGetPerformanceQuery(performanceArgs('score', filters, scope, context), { skip });
  const criteria = useGetPerformanceQuery(performanceArgs('criteria', filters, scope, context), { skip });
  const totals = useGetPerformanceQuery(performanceArgs('totals', filters, scope, context), { skip });

  // currentData belongs to the filters shown; a failed read is no data (spec part 2 §8).
  const metricsData = metrics.isError ? undefined : metrics.currentData;
  const leaderboardRows = leaderboard.isError ? [] : (leaderboard.currentData ?? []);
  const waiting = (query: { isFetching: boolean; isError: boolean; currentData?: unknown }) => query.isFetching && !query.currentData && !query.isError;
  const chartData = (query: typeof score) => (query.isError ? undefined : query.currentData);

  const scoreData = chartData(score);
  const criteriaData = chartData(criteria);
  const totalsData = chartData(totals);
  // Options are made once per answer: a chart redraws whenever it is handed new ones.
  const scoreOptions = useMemo(() => (hasChartData(scoreData) ? scoreTrendOptions(scoreData, filters.groupBy) : null), [scoreData, filters.groupBy]);
  const criteriaChart = useMemo(() => (hasChartData(criteriaData) ? criteriaOptions(criteriaData) : null), [criteriaData]);
  const totalsChart = useMemo(
    () => (hasChartData(totalsData) ? totalsOptions(totalsData, filters.groupBy, activityType) : null),
    [totalsData, filters.groupBy, activityType],
  );
  const viewFull = (chart: DashboardChart) => performanceRouteState(chartMetric(chart, activityType), filters, activityType, options);
  const noun = activityNoun(activityType);
  const compareNoun = filters.mode === 'team' ? 'teams' : 'representatives';

  const modeId = useId();
  const groupById = useId();
  const periodLabelId = useId();

  const clearFilters = () => {
    dispatch({ type: 'filtersCleared' });
    setPickerKey((key) => key + 1);
  };

  const previousPeriod = metricsData?.previousPeriod;
  const periodNote = !filters.range
    ? 'No period chosen: every activity is counted. Choose a period to compare it with the one before.'
    : previousPeriod?.from && previousPeriod.to
      ? `Last period: ${dayText(previousPeriod.from)} – ${dayText(previousPeriod.to)}.`
      : null;

  return (
    <div className="page dashboard-page">
      <div className="page__header">
        <h1>Dashboard</h1>
      </div>

      <ActivityTabs value={activityType} onChange={setActivityType}>
        <div className="dashboard-toolbar">
          <div className="dashboard-field">
            <label htmlFor={modeId} className="dashboard-field__label">
              Mode
            </label>
            <select
              id={modeId}
              className="field__input"
              value={filters.mode}
              onChange={(event) => dispatch({ type: 'modeChanged', mode: event.target.value as DashboardMode })}
            >
              {MODES.map((mode) => (
                <option key={mode.id} value={mode.id}>
                  {mode.label}
                </option>
              ))}
            </select>
          </div>
          <CompareSelector
            noun={compareNoun}
            options={optionsOf(filters.mode, options)}
            compared={filters.compared}
            summary={compareSummary(filters.mode, filters.compared, options)}
            loading={filters.mode === 'team' ? teamsLoading : representativesLoading}
            onToggle={(id) => dispatch({ type: 'compareToggled', id })}
            onSelectAll={() => dispatch({ type: 'allCompared', ids: optionsOf(filters.mode, options).map((option) => option.id) })}
            onClear={() => dispatch({ type: 'compareCleared' })}
          />
          <div className="dashboard-field">
            <label htmlFor={groupById} className="dashboard-field__label">
              Group By
            </label>
            <select
              id={groupById}
              className="field__input"
              value={filters.groupBy}
              onChange={(event) => dispatch({ type: 'groupingChanged', groupBy: event.target.value as TimeGrouping })}
            >
              {TIME_GROUPINGS.map((grouping) => (
                <option key={grouping.id} value={grouping.id}>
                  {grouping.label}
                </option>
              ))}
            </select>
          </div>
          <div className="dashboard-field" role="group" aria-labelledby={periodLabelId}>
            <span id={periodLabelId} className="dashboard-field__label">
              Period
            </span>
            <DashboardDateRange key={pickerKey} range={filters.range} onChange={(range) => dispatch({ type: 'rangeChosen', range })} />
          </div>
          <div className="dashboard-toolbar__actions">
            <button type="button" className="button" onClick={clearFilters}>
              Clear filters
            </button>
          </div>
        </div>

        {teamsLoading ? (
          <p className="dashboard-page__note">
            <Spinner label="Loading teams" />
          </p>
        ) : noTeams ? (
          <p className="card dashboard-page__note">
            This department has no teams yet. <Link to="/teams">Create a team</Link> to see its dashboard.
          </p>
        ) : (
          <>
            <KpiCards cards={kpiCards(metricsData, activityType, filters.mode)} loading={waiting(metrics)} />
            {periodNote ? <p className="dashboard-page__period">{periodNote}</p> : null}

            <div className="dashboard-grid">
              <ChartCard
                title="Avg Success Score"
                loading={waiting(score)}
                options={scoreOptions}
                empty={`No scored ${noun} for these filters.`}
                viewFull={viewFull('score')}
              />
              <LeaderboardCard rows={leaderboardRows} loading={waiting(leaderboard)} coachingState={{ activityType, ...(filters.range ? { range: filters.range } : {}) }} />
              <ChartCard
                title="Criteria Comparison"
                loading={waiting(criteria)}
                options={criteriaChart}
                empty="No criteria results for these filters."
                viewFull={viewFull('criteria')}
              />
              <ChartCard
                title={`${activityTitle(activityType)} Over Time`}
                loading={waiting(totals)}
                options={totalsChart}
                empty={`No ${noun} for these filters.`}
                viewFull={viewFull('totals')}
              />
            </div>
          </>
        )}
      </ActivityTabs>
    </div>
  );
}
