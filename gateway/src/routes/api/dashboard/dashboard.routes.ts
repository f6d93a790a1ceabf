import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { invalidArgument } from '@parlance/platform/errors';
import type { DashboardScope, FilterGroup } from '@parlance/proto/parlance/analytics/v1/dashboard';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { callAs, type Sessions } from '../../../plugins/sessions.js';
import {
  AnalyticsResponse,
  CoachingParams,
  CoachingQuery,
  CoachingResponse,
  LeaderboardQuery,
  LeaderboardResponse,
  MetricsQuery,
  MetricsResponse,
  PerformanceQuery,
  PerformanceResponse,
  RecommendationsQuery,
  RecommendationsResponse,
} from '../../../schemas/dashboard.schema.js';
import { ErrorResponse } from '../../../schemas/error.schema.js';
import { SIGNED_IN } from '../../../schemas/security.schema.js';
import type { ServiceClients } from '../../../service-clients.js';
import { listParam, parseJson, type Raw } from '../activities/activity-filters.js';
import { analyticsView, coachingView, leaderboardView, metricsView, performanceView, recommendationsView } from './dashboard-views.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse } as const;
const TAGS = ['dashboard'];

interface ScopeQuery {
  activityType?: string;
  department?: string;
  teamIds?: Raw;
  representatives?: Raw;
  from?: string;
  to?: string;
  timezone?: string;
  mode?: string;
}

/** `calls` or `meetings`; the spec's other activity types (emails, chats) are not recorded. */
export function activityKindParam(raw: string | undefined): ActivityKind {
  const value = raw?.trim() || 'calls';
  if (value === 'calls') return ActivityKind.ACTIVITY_KIND_CALL;
  if (value === 'meetings') return ActivityKind.ACTIVITY_KIND_MEETING;
  throw invalidArgument('activityType must be calls or meetings.');
}

function scopeOf(query: ScopeQuery): DashboardScope {
  return {
    kind: activityKindParam(query.activityType),
    department: query.department?.trim() ?? '',
    teamIds: [...new Set(listParam(query.teamIds))],
    representativeEmails: [...new Set(listParam(query.representatives).map((email) => email.toLowerCase()))],
    from: query.from?.trim() ?? '',
    to: query.to?.trim() ?? '',
    timeZone: query.timezone?.trim() ?? '',
    mode: query.mode?.trim() ?? '',
  };
}

const GROUP_FIELDS = '{id, name, selectedMode, selectedTeams, selectedMembers, dateRangeType, fromDate, toDate}';

/** Spec part 2 §3 "Filter group", as the performance screen sends its groups. */
export function filterGroupsOf(raw: string): FilterGroup[] {
  const parsed = parseJson('filterGroups', raw, `a JSON list of filter groups ${GROUP_FIELDS}`);
  if (!Array.isArray(parsed) || parsed.length === 0) throw invalidArgument(`filterGroups must be a JSON list of at least one filter group ${GROUP_FIELDS}.`);
  return parsed.map((entry: unknown, index) => {
    const refuse = (field: string) => invalidArgument(`filterGroups[${index}].${field} is not valid: a filter group is ${GROUP_FIELDS}.`);
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw invalidArgument(`filterGroups[${index}] must be a filter group ${GROUP_FIELDS}.`);
    const group = entry as Record<string, unknown>;
    const text = (field: string): string => {
      const value = group[field];
      if (value === undefined || value === null) return '';
      if (typeof value === 'string') return value.trim();
      if (typeof value === 'number' && field === 'id') return String(value);
      throw refuse(field);
    };
    const texts = (field: string): string[] => {
      const value = group[field];
      if (value === undefined || value === null) return [];
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw refuse(field);
      return [...new Set(value.map((item: string) => item.trim()).filter((item) => item !== ''))];
    };
    return {
      id: text('id'),
      name: text('name'),
      mode: text('selectedMode'),
      teamIds: texts('selectedTeams'),
      memberEmails: texts('selectedMembers').map((email) => email.toLowerCase()),
      from: text('fromDate'),
      to: text('toDate'),
    };
  });
}

/**
 * The dashboard's calls (spec part 2 §7 "Dashboard and analytics"), answered by analytics from
 * its daily rollups, always for the session's company. The performance screen's analytics fetch
 * (GET /api/dashboard/analytics, a path the spec leaves open) and a representative's coaching
 * view are beyond the spec.
 */
export async function dashboardRoutes(app: FastifyInstance, options: { services: ServiceClients; sessions: Sessions }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { dashboard } = options.services.analytics;
  const signedIn = { preHandler: options.sessions.requireCaller };

  typed.get(
    '/api/dashboard/leaderboard',
    {
      schema: {
        operationId: 'getLeaderboard',
        summary: 'Each representative’s activities, successes and average score over the period',
        description: 'One row per representative and team. Days are counted in `timezone`.',
        security: SIGNED_IN,
        tags: TAGS,
        querystring: LeaderboardQuery,
        response: { 200: LeaderboardResponse, ...errors },
      },
      ...signedIn,
    },
    async (request) => leaderboardView(await dashboard.getLeaderboard({ scope: scopeOf(request.query) }, callAs(request))),
  );

  typed.get(
    '/api/dashboard/metrics',
    {
      schema: {
        operationId: 'getDashboardMetrics',
        summary: 'The four KPIs for the period and for the period of the same length before it',
        description: 'Team mode counts per team; representative mode per representative (`representatives` plus the `teamIds` of their teams).',
        security: SIGNED_IN,
        tags: TAGS,
        querystring: MetricsQuery,
        response: { 200: MetricsResponse, ...errors },
      },
      ...signedIn,
    },
    async (request) => metricsView(await dashboard.getMetrics({ scope: scopeOf(request.query) }, callAs(request))),
  );

  const performanceRequestOf = (query: ScopeQuery & { groupBy?: string; metrics?: Raw }) => ({
    scope: scopeOf(query),
    groupBy: query.groupBy?.trim() ?? '',
    metrics: listParam(query.metrics),
  });

  typed.get(
    '/api/dashboard/performance',
    {
      schema: {
        operationId: 'getPerformance',
        summary: 'A series per team or representative and metric, by day, week, month or criterion',
        description:
          'Labels and datasets. Every day, week or month of a bounded range has a label, with zero counts and null averages where nothing happened. ' +
          'By parameter the labels are criterion names and each value the pass rate (%) of that criterion.',
        security: SIGNED_IN,
        tags: TAGS,
        querystring: PerformanceQuery,
        response: { 200: PerformanceResponse, ...errors },
      },
      ...signedIn,
    },
    async (request) => performanceView(await dashboard.getPerformance(performanceRequestOf(request.query), callAs(request))),
  );

  typed.get(
    '/api/dashboard/analytics',
    {
      schema: {
        operationId: 'getAnalytics',
        summary: 'The performance screen’s chart data: rows of a label plus series, and a colour map',
        description:
          'The same parameters and figures as GET /api/dashboard/performance, shaped for the performance screen (spec part 2 §7: "data rows (a label plus series) and a colour map"). ' +
          'The screen calls it twice per filter group: by the chosen grouping and by parameter.',
        security: SIGNED_IN,
        tags: TAGS,
        querystring: PerformanceQuery,
        response: { 200: AnalyticsResponse, ...errors },
      },
      ...signedIn,
    },
    async (request) => analyticsView(await dashboard.getPerformance(performanceRequestOf(request.query), callAs(request))),
  );

  typed.get(
    '/api/dashboard/recommendations',
    {
      schema: {
        operationId: 'getRecommendations',
        summary: 'Each filter group’s teams and members against their daily targets (Performance Analysis)',
        description:
          'Spec part 2 §2.11 and §9’s rules: on target, additional activities needed, required conversion rate and average score, and the criteria failure rates of each member and team. Figures only: the web app words the advice from them.',
        security: SIGNED_IN,
        tags: TAGS,
        querystring: RecommendationsQuery,
        response: { 200: RecommendationsResponse, ...errors },
      },
      ...signedIn,
    },
    async (request) => {
      const { filterGroups, activityType, timezone } = request.query;
      const request_ = { groups: filterGroupsOf(filterGroups), kind: activityKindParam(activityType), timeZone: timezone?.trim() ?? '' };
      return recommendationsView(await dashboard.getRecommendations(request_, callAs(request)));
    },
  );

  typed.get(
    '/api/dashboard/representatives/:email',
    {
      schema: {
        operationId: 'getCoaching',
        summary: 'A representative’s coaching view (beyond the spec)',
        description:
          'Their weekly score trend, the criteria they fail most (with the team and ids to list those activities), and their figures against the median of their teams. 404 for a representative the company has no activities or membership of.',
        security: SIGNED_IN,
        tags: TAGS,
        params: CoachingParams,
        querystring: CoachingQuery,
        response: { 200: CoachingResponse, 404: ErrorResponse, ...errors },
      },
      ...signedIn,
    },
    async (request) => {
      const { activityType, from, to, timezone } = request.query;
      const coaching = {
        representativeEmail: request.params.email.trim().toLowerCase(),
        kind: activityKindParam(activityType),
        from: from?.trim() ?? '',
        to: to?.trim() ?? '',
        timeZone: timezone?.trim() ?? '',
      };
      return coachingView(await dashboard.getCoaching(coaching, callAs(request)));
    },
  );
}
