/** Between analytics' dashboard answers (protobuf) and the JSON of spec part 2 §3. */
import type { Static } from 'typebox';
import type {
  CriterionFailure,
  CriterionFailureRate,
  GetCoachingResponse,
  GetLeaderboardResponse,
  GetMetricsResponse,
  GetPerformanceResponse,
  GetRecommendationsResponse,
  PeriodMetrics,
  TargetStanding,
} from '@parlance/proto/parlance/analytics/v1/dashboard';
import type { AnalyticsResponse, CoachingResponse, LeaderboardResponse, MetricsResponse, PerformanceResponse, RecommendationsResponse } from '../../../schemas/dashboard.schema.js';

const orNull = (value: number | undefined) => value ?? null;

export function leaderboardView(answer: GetLeaderboardResponse): Static<typeof LeaderboardResponse> {
  return answer.rows.map((row) => ({
    team_id: row.teamId,
    representative_name: row.representativeName,
    representative_email: row.representativeEmail,
    total_activities: row.totalActivities,
    successful_activities: row.successfulActivities,
    success_rate: orNull(row.successRate),
    average_score: orNull(row.averageScore),
  }));
}

const ZERO: PeriodMetrics = { conversionRate: 0, avgActivitiesPerRep: 0, avgDuration: 0, successScore: 0 };

export function metricsView(answer: GetMetricsResponse): Static<typeof MetricsResponse> {
  return {
    current: { ...ZERO, ...answer.current },
    previous: { ...ZERO, ...answer.previous },
    currentPeriod: { from: answer.currentFrom, to: answer.currentTo },
    previousPeriod: { from: answer.previousFrom, to: answer.previousTo },
  };
}

export function performanceView(answer: GetPerformanceResponse): Static<typeof PerformanceResponse> {
  return {
    labels: answer.labels,
    datasets: answer.datasets.map((dataset) => ({
      label: dataset.label,
      data: dataset.data.map((point) => orNull(point.value)),
      color: dataset.color,
      key: dataset.seriesKey,
      metric: dataset.metric,
    })),
  };
}

/** Spec part 2 §7: the performance screen reads rows of a label plus one value per series, and a colour per series. */
export function analyticsView(answer: GetPerformanceResponse): Static<typeof AnalyticsResponse> {
  const { labels, datasets } = performanceView(answer);
  return {
    rows: labels.map((label, index) => ({ label, ...Object.fromEntries(datasets.map((dataset) => [dataset.label, dataset.data[index] ?? null])) })),
    colors: Object.fromEntries(datasets.map((dataset) => [dataset.label, dataset.color])),
    series: datasets.map((dataset) => ({ name: dataset.label, key: dataset.key, metric: dataset.metric })),
  };
}

/** A criterion's failure rate, by name (a team's criteria, summed over its members). */
const criterionRateView = ({ criterionName, failureRate, failed, judged }: CriterionFailureRate) => ({ criterionName, failureRate, failed, judged });

const criterionView = (failure: CriterionFailure) => ({
  ...criterionRateView(failure),
  groupId: failure.groupId,
  criterionId: failure.criterionId,
  teamId: failure.teamId,
});

function standingView(standing: TargetStanding | undefined) {
  const figures = standing ?? { target: 0, successfulCalls: 0, totalCalls: 0, conversionRate: 0, averageScore: 0, onTarget: true, requiredConversionRate: 0, requiredAverageScore: 0, scoredCalls: 0 };
  return {
    target: figures.target,
    successfulCalls: figures.successfulCalls,
    totalCalls: figures.totalCalls,
    conversionRate: figures.conversionRate,
    averageScore: figures.averageScore,
    onTarget: figures.onTarget,
    additionalNeeded: figures.onTarget ? 0 : (figures.additionalNeeded ?? ('-' as const)),
    requiredConversionRate: figures.requiredConversionRate,
    requiredAverageScore: figures.requiredAverageScore,
    scoredCalls: figures.scoredCalls,
  };
}

export function recommendationsView(answer: GetRecommendationsResponse): Static<typeof RecommendationsResponse> {
  return answer.groups.map((group) => ({
    groupId: group.groupId,
    groupName: group.groupName,
    from: group.from,
    to: group.to,
    workingDays: group.workingDays,
    teams: group.teams.map((team) => ({
      teamId: team.teamId,
      teamName: team.teamName,
      ...standingView(team.standing),
      scriptMatch: orNull(team.scriptMatch),
      criteria: team.criteria.map(criterionRateView),
      members: team.members.map((member) => ({
        firstName: member.firstName,
        lastName: member.lastName,
        email: member.email,
        ...standingView(member.standing),
        scriptMatch: orNull(member.scriptMatch),
        criteria: member.criteria.map(criterionView),
      })),
    })),
  }));
}

export function coachingView(answer: GetCoachingResponse): Static<typeof CoachingResponse> {
  return {
    email: answer.email,
    name: answer.name,
    teamIds: answer.teamIds,
    from: answer.from,
    to: answer.to,
    trend: answer.trend.map((point) => ({ week: point.week, averageScore: orNull(point.averageScore), activities: point.activities })),
    failedCriteria: answer.failedCriteria.map((failure) => ({ ...criterionView(failure), activityIds: failure.failedActivityIds })),
    statistics: answer.statistics.map((statistic) => ({ metric: statistic.metric, value: orNull(statistic.value), teamMedian: orNull(statistic.teamMedian) })),
  };
}
