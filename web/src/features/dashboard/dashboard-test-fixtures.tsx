// Shared by the dashboard's and the coaching view's tests: a signed-in state, the department's
// teams and members, API answers, a stand-in gateway, and the screens in a memory router.
import { render } from '@testing-library/react';
import { createMemoryRouter, useLocation } from 'react-router';
import { AppProviders } from '../../app/providers';
import { makeStore, type RootState } from '../../app/store';
import type {
  GetCoachingApiResponse,
  GetDashboardMetricsApiResponse,
  GetLeaderboardApiResponse,
  GetPerformanceApiResponse,
  Team,
  TeamMember,
} from '../../lib/api/gateway-api.generated';
import { jsonResponse } from '../../testing/json-response';
import { signedInState } from '../../testing/signed-in';
import { makeSavedTeam } from '../../testing/team';
import { stubGateway, type Route } from '../../testing/stub-gateway';
import { CoachingPage } from './coaching/coaching-page';
import { DashboardPage } from './dashboard-page';

/** Signed in to company c-1, in `department`. */
export const dashboardState = (department = 'sales'): Partial<RootState> => signedInState({ department, company: { departments: ['sales', 'hr'] } });

export const makeTeam = (id: string, name: string, members: string[], department = 'sales'): Team => makeSavedTeam({ id, name, members, department });

export const inbound = makeTeam('team-1', 'Inbound sales', ['ada@example.com', 'alan@example.com']);
export const outbound = makeTeam('team-2', 'Outbound sales', ['alan@example.com', 'grace@example.com']);
export const recruiting = makeTeam('team-9', 'Recruiting', ['hedy@example.com'], 'hr');

const member = (email: string, first: string, last: string): TeamMember => ({ email, first_name: first, last_name: last, crm_id: '', target: 3 });

export const teamMembers: Record<string, TeamMember[]> = {
  'team-1': [member('ada@example.com', 'Ada', 'Lovelace'), member('alan@example.com', 'Alan', 'Turing')],
  'team-2': [member('alan@example.com', 'Alan', 'Turing'), member('grace@example.com', 'Grace', 'Hopper')],
  'team-9': [member('hedy@example.com', 'Hedy', 'Lamarr')],
};

export const leaderboard: GetLeaderboardApiResponse = [
  {
    team_id: 'team-1',
    representative_name: 'Ada Lovelace',
    representative_email: 'ada@example.com',
    total_activities: 1234,
    successful_activities: 823,
    success_rate: 66.66666666666667,
    average_score: 7.456,
  },
  {
    team_id: 'team-2',
    representative_name: 'Grace Hopper, PhD',
    representative_email: 'grace@example.com',
    total_activities: 0,
    successful_activities: 0,
    success_rate: null,
    average_score: null,
  },
];

export const metrics: GetDashboardMetricsApiResponse = {
  current: { conversionRate: 45, avgActivitiesPerRep: 12.5, avgDuration: 125, successScore: 7.4 },
  previous: { conversionRate: 40, avgActivitiesPerRep: 0, avgDuration: 150, successScore: 7.4 },
  currentPeriod: { from: '', to: '' },
  previousPeriod: { from: '', to: '' },
};

/** The performance answer for a grouping and metric: a series per team, with the API's colours. */
export function performanceAnswer(groupBy: string, metric: string): GetPerformanceApiResponse {
  if (groupBy === 'parameter') {
    return {
      labels: ['Greeting', 'Next steps'],
      datasets: [{ label: 'Inbound sales', data: [80, 42.5], color: '#2f7ed8', key: 'team-1', metric }],
    };
  }
  const value = metric === 'score' ? [7.5, null] : [12, 30];
  return {
    labels: ['2025-03-03', '2025-03-10'],
    datasets: [
      { label: 'Inbound sales', data: value, color: '#2f7ed8', key: 'team-1', metric },
      { label: 'Outbound sales', data: metric === 'score' ? [6, 8.25] : [4, 9], color: '#0d233a', key: 'team-2', metric },
    ],
  };
}

export const coaching: GetCoachingApiResponse = {
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  teamIds: ['team-1'],
  from: '',
  to: '',
  trend: [
    { week: '2025-03-03', averageScore: 6.5, activities: 4 },
    { week: '2025-03-10', averageScore: 7.25, activities: 6 },
  ],
  failedCriteria: [
    {
      criterionName: 'Next steps',
      failureRate: 62.5,
      failed: 5,
      judged: 8,
      groupId: 'g2',
      criterionId: 'c2',
      teamId: 'team-1',
      activityIds: ['call-5', 'call-4', 'call-3', 'call-2', 'call-1'],
    },
    { criterionName: 'Greeting', failureRate: 12.5, failed: 1, judged: 8, groupId: 'g1', criterionId: 'c1', teamId: 'team-1', activityIds: ['call-7'] },
  ],
  statistics: [
    { metric: 'total_activities', value: 8, teamMedian: 6 },
    { metric: 'conversion_rate', value: 37.5, teamMedian: 50 },
    { metric: 'average_score', value: 6.9, teamMedian: 6.9 },
    { metric: 'script_match', value: null, teamMedian: 72 },
    { metric: 'average_duration', value: 185, teamMedian: 240 },
  ],
};

type Answer = (url: URL) => Response | undefined;
export type DashboardAnswers = {
  teams?: Team[];
  leaderboard?: Answer;
  metrics?: Answer;
  performance?: Answer;
  coaching?: Answer;
  extra?: Route;
};

/** The gateway as the dashboard screens use it; each answer can be replaced. */
export function stubDashboard(answers: DashboardAnswers = {}) {
  return stubGateway(async (request, url) => {
    const extra = await answers.extra?.(request, url);
    if (extra) return extra;
    if (request.method !== 'GET') return undefined;
    if (url.pathname === '/api/teams/fetch/') return jsonResponse(answers.teams ?? [inbound, outbound, recruiting]);
    const members = /^\/api\/teams\/([^/]+)\/members$/.exec(url.pathname);
    if (members) return jsonResponse(teamMembers[members[1]!] ?? []);
    if (url.pathname === '/api/dashboard/leaderboard') return answers.leaderboard?.(url) ?? jsonResponse(leaderboard);
    if (url.pathname === '/api/dashboard/metrics') return answers.metrics?.(url) ?? jsonResponse(metrics);
    if (url.pathname === '/api/dashboard/performance') {
      return answers.performance?.(url) ?? jsonResponse(performanceAnswer(url.searchParams.get('groupBy') ?? 'day', url.searchParams.get('metrics') ?? 'score'));
    }
    if (url.pathname.startsWith('/api/dashboard/representatives/')) return answers.coaching?.(url) ?? jsonResponse(coaching);
    return undefined;
  });
}

/** Where a link led: the path, the query and the router state, as text. */
function LocationProbe() {
  const location = useLocation();
  return (
    <output aria-label="Location">
      {JSON.stringify({ pathname: location.pathname, search: location.search, state: location.state ?? null })}
    </output>
  );
}

/** The dashboard and the coaching view at their routes; the performance and activity screens are probes. */
export function renderDashboard(entry: string | { pathname: string; state?: unknown }, state: Partial<RootState> = dashboardState()) {
  const store = makeStore(state);
  const router = createMemoryRouter(
    [
      { path: '/dashboard', element: <DashboardPage /> },
      { path: '/dashboard/representatives/:email', element: <CoachingPage /> },
      { path: '/dashboard/performance', element: <LocationProbe /> },
      { path: '/activities', element: <LocationProbe /> },
    ],
    { initialEntries: [entry] },
  );
  const view = render(<AppProviders store={store} router={router} />);
  return { ...view, store, router };
}

/** What the location probe shows. */
export const probedLocation = (text: string | null) => JSON.parse(text ?? '{}') as { pathname: string; search: string; state: unknown };
