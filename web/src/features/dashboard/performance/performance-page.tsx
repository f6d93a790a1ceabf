import { Fragment, useEffect, useId, useMemo, useReducer, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { Options } from 'highcharts';
import { useAppSelector } from '../../../app/hooks';
import { selectActiveDepartment } from '../../../lib/auth/department-slice';
import { ActivityTabs } from '../../../components/activity-tabs';
import { useDepartmentTeams } from '../../../lib/use-department-teams';
import { METRIC_LABELS, TIME_GROUPINGS, totalMetricOf, type ActivityType, type MetricId, type TimeGrouping } from '../metrics';
import { AnalyticsRequest, useAnalyticsAnswers, type AnalyticsAnswer } from './analytics-request';
import { ChartCard, type ChartState } from './chart-card';
import { FilterPanel } from './filter-panel';
import { baseFilterSeeded, filterGroupsReducer, groupLabel, groupRemoved, initialFilterGroups, LAST_GROUP_ALERT, type FilterGroup } from './filter-groups';
import { PerformanceAnalysis } from './performance-analysis';
import {
  CRITERIA_CSV_NAME,
  CRITERIA_PNG_NAME,
  criteriaChartOptions,
  hasValues,
  metricsChartOptions,
  metricsCsvName,
  metricsPngName,
  metricsTitle,
  type GroupAnalytics,
} from './performance-charts';
import {
  analyticsArg,
  criteriaMetricOf,
  DEFAULT_CRITERIA_BASIS,
  isAskable,
  metricsFor,
  recommendationsArg,
  settingsFromRouteState,
  type CriteriaBasis,
} from './performance-queries';
import { dayOf } from './period-presets';
import './performance.css';

export const NO_TEAM_CHOSEN = 'Choose at least one team in a filter group to see this chart.';

/** The two requests of each group (spec part 2 §7): by the chosen grouping, and by parameter. */
const lineKey = (group: FilterGroup) => `${group.id}:line`;
const criteriaKey = (group: FilterGroup) => `${group.id}:criteria`;
type RequestKey = typeof lineKey;

const sameGroups = (a: readonly GroupAnalytics[], b: readonly GroupAnalytics[]) =>
  a.length === b.length && a.every((entry, index) => entry.groupName === b[index]!.groupName && entry.answer === b[index]!.answer);

/**
 * Each group's name and the answer its request under `key` gave. The list keeps its identity
 * while neither changes, so one chart is not redrawn when only the other's answer arrives.
 */
function useGroupAnswers(groups: readonly FilterGroup[], answers: Readonly<Record<string, AnalyticsAnswer>>, key: RequestKey): GroupAnalytics[] {
  const next = groups.map((group, index) => ({ groupName: groupLabel(group, index), answer: answers[key(group)]?.answer }));
  const kept = useRef(next);
  if (!sameGroups(kept.current, next)) kept.current = next;
  return kept.current;
}

/** A chart's state: loading until the filters are known, a hint without a team, then its data. */
function chartState(seeded: boolean, askable: boolean, list: readonly GroupAnalytics[], loading: boolean, options: Options): ChartState {
  if (seeded && !askable) return { kind: 'idle', hint: NO_TEAM_CHOSEN };
  if (seeded && hasValues(list)) return { kind: 'ready', options };
  return !seeded || loading ? { kind: 'loading' } : { kind: 'empty' };
}

/**
 * /dashboard/performance (spec part 2 §2.10): the chosen metrics over time and each criterion's
 * success rate for one or more filter groups, and the Performance Analysis. The dashboard's
 * 'View Full' links pass their metric, grouping, tab and filter as router state.
 */
export function PerformancePage() {
  const department = useAppSelector(selectActiveDepartment);
  const { state } = useLocation();
  // Another department means other teams: its filters start afresh.
  return <PerformanceScreen key={department ?? ''} routeState={state} />;
}

function PerformanceScreen({ routeState }: { routeState: unknown }) {
  const navigate = useNavigate();
  const [initial] = useState(() => settingsFromRouteState(routeState));
  const [activityType, setActivityType] = useState<ActivityType>(initial.activityType);
  const [groupBy, setGroupBy] = useState<TimeGrouping>(initial.groupBy);
  const [metrics, setMetrics] = useState<MetricId[]>(initial.metrics);
  const [criteriaBasis, setCriteriaBasis] = useState<CriteriaBasis>(DEFAULT_CRITERIA_BASIS);
  const [filters, dispatch] = useReducer(filterGroupsReducer, undefined, () => initialFilterGroups(dayOf(new Date())));
  const { groups, seeded } = filters;

  const { teams, isLoading: teamsLoading, isError: teamsFailed } = useDepartmentTeams();
  const departmentTeams = teamsLoading ? undefined : teamsFailed ? [] : teams;
  useEffect(() => {
    if (seeded || departmentTeams === undefined) return;
    const membership = departmentTeams.map((team) => ({ id: team.id, members: team.members }));
    dispatch(baseFilterSeeded({ teams: membership, initialFilter: initial.initialFilter, today: dayOf(new Date()) }));
  }, [seeded, departmentTeams, initial]);

  // §4: the criteria selector's total follows the tab, as does a total among the metrics.
  const switchTab = (next: ActivityType) => {
    setActivityType(next);
    setMetrics((current) => metricsFor(current, next));
  };

  const deleteGroup = (id: string) => {
    if (groups.length <= 1) window.alert(LAST_GROUP_ALERT);
    else dispatch(groupRemoved(id));
  };

  const { answers, onAnswer } = useAnalyticsAnswers();
  const criteriaMetric = criteriaMetricOf(criteriaBasis, activityType);
  const askable = groups.some(isAskable);

  const loading = (key: RequestKey) => groups.some((group) => answers[key(group)]?.loading);
  const lineGroups = useGroupAnswers(groups, answers, lineKey);
  const criteriaGroups = useGroupAnswers(groups, answers, criteriaKey);
  // A chart redraws on every new options object, so they are remade only when what they show changes.
  const lineOptions = useMemo(() => metricsChartOptions(lineGroups, metrics, groupBy), [lineGroups, metrics, groupBy]);
  const criteriaOptions = useMemo(() => criteriaChartOptions(criteriaGroups, criteriaMetric), [criteriaGroups, criteriaMetric]);
  const lineState = chartState(seeded, askable, lineGroups, loading(lineKey), lineOptions);
  const criteriaState = chartState(seeded, askable, criteriaGroups, loading(criteriaKey), criteriaOptions);

  const recommendations = useMemo(() => (seeded ? recommendationsArg(groups, activityType) : undefined), [seeded, groups, activityType]);

  const ids = useId();
  const groupingLabel = TIME_GROUPINGS.find((grouping) => grouping.id === groupBy)?.label ?? groupBy;

  return (
    <div className="page performance-page">
      <div className="page__header">
        <h1>Performance Analytics</h1>
      </div>

      <ActivityTabs value={activityType} onChange={switchTab} panelClassName="performance-layout">
        <FilterPanel
          activityType={activityType}
          groupBy={groupBy}
          onGroupBy={setGroupBy}
          metrics={metrics}
          onMetrics={setMetrics}
          groups={groups}
          dispatch={dispatch}
          teams={seeded ? departmentTeams : undefined}
          onBack={() => navigate('/dashboard')}
          onDeleteGroup={deleteGroup}
        />

        <div className="performance-main">
          <ChartCard
            headingId={`${ids}-metrics`}
            heading={
              <h2 id={`${ids}-metrics`} className="performance-card__title">
                {metricsTitle(metrics)} by {groupingLabel}
              </h2>
            }
            label="metrics chart"
            state={lineState}
            csvName={metricsCsvName(metrics)}
            pngName={metricsPngName(metrics)}
          />

          <ChartCard
            headingId={`${ids}-criteria`}
            heading={
              <div className="performance-card__heading">
                <h2 id={`${ids}-criteria`} className="performance-card__title">
                  Criteria Success Rate in
                </h2>
                <select
                  aria-labelledby={`${ids}-criteria`}
                  className="field__input performance-card__select"
                  value={criteriaBasis}
                  onChange={(event) => setCriteriaBasis(event.target.value as CriteriaBasis)}
                >
                  <option value="successful">{METRIC_LABELS.successful}</option>
                  <option value="unsuccessful">{METRIC_LABELS.unsuccessful}</option>
                  <option value="total">{METRIC_LABELS[totalMetricOf(activityType)]}</option>
                </select>
              </div>
            }
            label="criteria chart"
            state={criteriaState}
            csvName={CRITERIA_CSV_NAME}
            pngName={CRITERIA_PNG_NAME}
          />

          <PerformanceAnalysis arg={recommendations} activityType={activityType} />
        </div>
      </ActivityTabs>

      {seeded &&
        groups.map((group) => (
          <Fragment key={group.id}>
            <AnalyticsRequest requestKey={lineKey(group)} arg={analyticsArg(group, { activityType, groupBy, metrics })} onAnswer={onAnswer} />
            <AnalyticsRequest
              requestKey={criteriaKey(group)}
              arg={analyticsArg(group, { activityType, groupBy: 'parameter', metrics: [criteriaMetric] })}
              onAnswer={onAnswer}
            />
          </Fragment>
        ))}
    </div>
  );
}

