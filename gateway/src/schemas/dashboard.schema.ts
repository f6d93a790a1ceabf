/**
 * The dashboard and performance analytics (spec part 2 §2.9–2.11, §3 "Leaderboard row",
 * "Metrics response", "Performance response", "Filter group", "Recommendation result"; §7
 * "Dashboard and analytics"). Parameters are taken as text and read by analytics, so a bad one is
 * answered 400 with a sentence naming it.
 */
import Type from 'typebox';

const nullable = <T extends Type.TSchema>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description });
const List = (description: string) =>
  Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description: `${description}; repeated or comma-separated` }));
const Text = (description: string) => Type.Optional(Type.String({ description }));

const ACTIVITY_TYPE = Text('calls (default) or meetings');
const DAY = 'a day (YYYY-MM-DD) of `timezone`, or an ISO 8601 time (its day in `timezone`); inclusive; absent leaves that end open';
const TIMEZONE = Text('the browser’s IANA time zone, which days, weeks and months are counted in; default UTC; Europe/Kiev is read as Europe/Kyiv; an unknown zone is 400');

const scope = {
  activityType: ACTIVITY_TYPE,
  department: Text('sales, hr or support: the teams of this department when no team is named'),
  teamIds: List('teams; none means every team of `department`, or of the company'),
  representatives: List('representatives’ e-mails; none means everyone of the teams'),
  from: Text(`first day: ${DAY}`),
  to: Text(`last day: ${DAY}`),
  timezone: TIMEZONE,
  companyId: Text('accepted for the original clients and ignored: the session’s company is always the one counted'),
};

export const LeaderboardQuery = Type.Object(scope);

export const LeaderboardRow = Type.Object({
  team_id: Type.String(),
  representative_name: Type.String({ description: 'the team member’s first and last name; the e-mail when the teams do not name them' }),
  representative_email: Type.String(),
  total_activities: Type.Integer(),
  successful_activities: Type.Integer(),
  success_rate: nullable(Type.Number(), 'successful ÷ total × 100; null with no activities'),
  average_score: nullable(Type.Number(), '0–10; null when none is scored'),
});

export const LeaderboardResponse = Type.Array(LeaderboardRow, { description: 'best success rate first, then average score, then most activities' });

export const MetricsQuery = Type.Object({ ...scope, mode: Text('team or representative; default representative when representatives are given, else team') });

const PeriodMetrics = Type.Object({
  conversionRate: Type.Number({ description: 'successful ÷ activities × 100' }),
  avgActivitiesPerRep: Type.Number({ description: 'activities per team (team mode) or per representative (representative mode) that had any' }),
  avgDuration: Type.Number({ description: 'seconds' }),
  successScore: Type.Number({ description: 'average score, 0–10' }),
});

const Period = Type.Object({ from: Type.String(), to: Type.String() }, { description: 'the days counted, YYYY-MM-DD; empty when open' });

export const MetricsResponse = Type.Object({
  current: PeriodMetrics,
  previous: PeriodMetrics,
  currentPeriod: Period,
  previousPeriod: Type.Object({ from: Type.String(), to: Type.String() }, { description: 'the same number of days just before `from`; empty (and zeros above) when the range is open' }),
});

const METRICS = 'score, conversion_rate, total_calls, total_meetings, successful, unsuccessful, script_match';

export const PerformanceQuery = Type.Object({
  ...scope,
  mode: Text('team (a series per team) or representative (a series per representative); members is read as representative'),
  groupBy: Text('day (default), week (starting Monday), month, or parameter (by criterion)'),
  metrics: List(
    `${METRICS}; default score. By parameter one of successful, unsuccessful, total_calls or total_meetings: the pass rate of each criterion over those activities`,
  ),
});

export const Dataset = Type.Object({
  label: Type.String(),
  data: Type.Array(Type.Union([Type.Number(), Type.Null()]), { description: 'one per label; null where an average has nothing to average' }),
  color: Type.String({ description: 'from the 16-colour palette, cycled' }),
  key: Type.String({ description: 'the team id or representative e-mail of the series' }),
  metric: Type.String(),
});

export const PerformanceResponse = Type.Object({
  labels: Type.Array(Type.String(), { description: 'YYYY-MM-DD days or Mondays, YYYY-MM months, or criterion names' }),
  datasets: Type.Array(Dataset),
});

export const AnalyticsResponse = Type.Object({
  rows: Type.Array(
    Type.Object(
      { label: Type.String() },
      { additionalProperties: Type.Union([Type.Number(), Type.Null(), Type.String()]), description: 'a label plus one value per series, keyed by series name' },
    ),
  ),
  colors: Type.Record(Type.String(), Type.String(), { description: 'series name → colour' }),
  series: Type.Array(Type.Object({ name: Type.String(), key: Type.String(), metric: Type.String() }), { description: 'the series in chart order' }),
});

export const RecommendationsQuery = Type.Object({
  filterGroups: Type.String({
    description:
      'a JSON list of filter groups (spec part 2 §3): {id, name, selectedMode, selectedTeams, selectedMembers, dateRangeType, fromDate, toDate}; fromDate and toDate are days or ISO times',
  }),
  activityType: ACTIVITY_TYPE,
  timezone: TIMEZONE,
});

const criterionFailureRate = {
  criterionName: Type.String(),
  failureRate: Type.Number({ description: 'failed ÷ judged × 100' }),
  failed: Type.Integer(),
  judged: Type.Integer(),
};

const CriterionFailure = Type.Object({
  ...criterionFailureRate,
  groupId: Type.String(),
  criterionId: Type.String(),
  teamId: Type.String(),
});

const standing = {
  target: Type.Integer({ description: 'daily target × the working days (Monday to Friday) of the period up to today' }),
  successfulCalls: Type.Integer(),
  totalCalls: Type.Integer(),
  conversionRate: Type.Number(),
  averageScore: Type.Number(),
  onTarget: Type.Boolean({ description: 'successfulCalls ≥ target' }),
  additionalNeeded: Type.Union([Type.Integer(), Type.Literal('-')], {
    description: 'ceil(remaining ÷ (conversionRate ÷ 100)); 0 on target; "-" when the conversion rate is 0',
  }),
  requiredConversionRate: Type.Number({ description: 'remaining ÷ total × 100 + conversionRate, at most 100; 100 with no activities' }),
  requiredAverageScore: Type.Number({ description: 'averageScore × target ÷ max(1, successful), at most 10' }),
  scoredCalls: Type.Integer({ description: 'the activities with a score: averageScore is 0 without any' }),
};

const MemberRecommendation = Type.Object({
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  ...standing,
  scriptMatch: nullable(Type.Number(), 'average script match; null when no scored activity had a script'),
  criteria: Type.Array(CriterionFailure, { description: 'most failed first' }),
});

const TeamRecommendation = Type.Object({
  teamId: Type.String(),
  teamName: Type.String(),
  ...standing,
  scriptMatch: nullable(Type.Number(), 'average script match of the members counted (every representative in team mode); null when no scored activity had a script'),
  criteria: Type.Array(Type.Object(criterionFailureRate), { description: 'the criteria of the members counted, by name, most failed first' }),
  members: Type.Array(MemberRecommendation),
});

export const RecommendationsResponse = Type.Array(
  Type.Object({
    groupId: Type.String(),
    groupName: Type.String(),
    from: Type.String(),
    to: Type.String(),
    workingDays: Type.Integer({ description: 'the Monday-to-Friday days of the period up to today, which targets are multiplied by' }),
    teams: Type.Array(TeamRecommendation),
  }),
);

export const CoachingParams = Type.Object({ email: Type.String({ description: 'the representative’s e-mail' }) });

export const CoachingQuery = Type.Object({ activityType: ACTIVITY_TYPE, from: scope.from, to: scope.to, timezone: TIMEZONE });

export const CoachingResponse = Type.Object({
  email: Type.String(),
  name: Type.String(),
  teamIds: Type.Array(Type.String()),
  from: Type.String(),
  to: Type.String(),
  trend: Type.Array(Type.Object({ week: Type.String({ description: 'the Monday, YYYY-MM-DD' }), averageScore: nullable(Type.Number(), 'null when none scored'), activities: Type.Integer() })),
  failedCriteria: Type.Array(
    Type.Intersect([CriterionFailure, Type.Object({ activityIds: Type.Array(Type.String(), { description: 'the latest activities (up to 50, newest first) that failed it in the period' }) })]),
    { description: 'the criteria they fail most, worst first' },
  ),
  statistics: Type.Array(
    Type.Object({
      metric: Type.String({ description: 'total_activities, conversion_rate, average_score, script_match or average_duration' }),
      value: nullable(Type.Number(), 'null when there is nothing to measure'),
      teamMedian: nullable(Type.Number(), 'the median of the members of their teams, them included'),
    }),
  ),
});
