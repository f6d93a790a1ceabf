// Shared by the performance screen's tests: teams, their members, and what the analytics and
// recommendations calls answer.
import { makeSavedTeam } from '../../../testing/team';
import type { GetAnalyticsApiResponse, GetRecommendationsApiResponse, Team, TeamMember } from '../../../lib/api/gateway-api.generated';

export function makeTeam(overrides: Partial<Team> = {}): Team {
  return makeSavedTeam({
    criteria_group: [{ id: 'g1', name: 'Opening', criteria: [{ id: 'c1', name: 'Greeting', prompt: 'Greets.', weight: 10 }] }],
    success_criteria: { prompt: 'A meeting is booked.' },
    members: ['ada@example.com', 'alan@example.com'],
    ...overrides,
  });
}

export const inbound = makeTeam();
export const outbound = makeTeam({ id: 'team-2', name: 'Outbound sales', members: ['grace@example.com', 'alan@example.com'] });
export const recruiting = makeTeam({ id: 'team-3', name: 'Recruiting', department: 'hr', members: ['edsger@example.com'] });

export const teamMembers: Record<string, TeamMember[]> = {
  'team-1': [
    { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', crm_id: '', target: 3 },
    { first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com', crm_id: '', target: 2 },
  ],
  'team-2': [
    { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', crm_id: '', target: 4 },
    { first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com', crm_id: '', target: 2 },
  ],
};

/** An answer by day (or week, month): one series per team. */
export function timeAnswer(metric = 'score'): GetAnalyticsApiResponse {
  return {
    rows: [
      { label: '2025-07-02', 'Inbound sales': 8, 'Outbound sales': 6 },
      { label: '2025-07-01', 'Inbound sales': 7.5, 'Outbound sales': null },
    ],
    colors: { 'Inbound sales': '#2f5bd3', 'Outbound sales': '#e8590c' },
    series: [
      { name: 'Inbound sales', key: 'team-1', metric },
      { name: 'Outbound sales', key: 'team-2', metric },
    ],
  };
}

/** An answer by parameter: each criterion's success rate per team. */
export function criteriaAnswer(metric = 'total_calls'): GetAnalyticsApiResponse {
  return {
    rows: [
      { label: 'Greeting', 'Inbound sales': 80, 'Outbound sales': 55.5 },
      { label: 'Next steps', 'Inbound sales': 40, 'Outbound sales': null },
    ],
    colors: { 'Inbound sales': '#2f5bd3', 'Outbound sales': '#e8590c' },
    series: [
      { name: 'Inbound sales', key: 'team-1', metric },
      { name: 'Outbound sales', key: 'team-2', metric },
    ],
  };
}

const standing = {
  target: 30,
  successfulCalls: 12,
  totalCalls: 40,
  conversionRate: 30,
  averageScore: 7.25,
  onTarget: false,
  additionalNeeded: 60 as number | '-',
  requiredConversionRate: 75,
  requiredAverageScore: 10,
  scoredCalls: 36,
};

export const recommendations: GetRecommendationsApiResponse = [
  {
    groupId: 'group-1',
    groupName: 'Group 1',
    from: '2025-07-01',
    to: '2025-09-30',
    workingDays: 30,
    teams: [
      {
        teamId: 'team-1',
        teamName: 'Inbound sales',
        ...standing,
        scriptMatch: 78.4,
        criteria: [
          { criterionName: 'Greeting', failureRate: 10, failed: 2, judged: 20 },
          { criterionName: 'Next steps, agreed', failureRate: 45, failed: 9, judged: 20 },
        ],
        members: [
          {
            firstName: 'Ada',
            lastName: 'Lovelace',
            email: 'ada@example.com',
            ...standing,
            target: 10,
            successfulCalls: 11,
            onTarget: true,
            additionalNeeded: 0,
            averageScore: 8.04,
            scriptMatch: 82.5,
            criteria: [
              { criterionName: 'Greeting', failureRate: 12.5, failed: 1, judged: 8, groupId: 'g1', criterionId: 'c1', teamId: 'team-1' },
              { criterionName: 'Next steps, agreed', failureRate: 50, failed: 4, judged: 8, groupId: 'g1', criterionId: 'c2', teamId: 'team-1' },
            ],
          },
          {
            firstName: 'Alan',
            lastName: 'Turing',
            email: 'alan@example.com',
            ...standing,
            successfulCalls: 0,
            conversionRate: 0,
            additionalNeeded: '-',
            scoredCalls: 0,
            scriptMatch: null,
            criteria: [],
          },
        ],
      },
    ],
  },
];
