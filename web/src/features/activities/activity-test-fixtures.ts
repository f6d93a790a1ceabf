// Shared by the activity screen's tests: a signed-in state, a team, its members and rows.
import type { RootState } from '../../app/store';
import type { Team, TeamMember } from '../../lib/api/gateway-api.generated';
import { signedInState } from '../../testing/signed-in';
import { makeSavedTeam } from '../../testing/team';
import type { ActivityCall, ActivityMeeting } from './activity-types';

/** Signed in to a company with sales, hr and support, in `department`, with a CSRF token in hand. */
export const activitiesState = (department = 'sales'): Partial<RootState> =>
  signedInState({ department, company: { departments: ['sales', 'hr', 'support'] }, csrfToken: 'csrf-test' });

export function makeTeam(overrides: Partial<Team> = {}): Team {
  return makeSavedTeam({
    criteria_group: [
      { id: 'g1', name: 'Opening', criteria: [{ id: 'c1', name: 'Greeting', prompt: 'Greets.', weight: 4 }] },
      { id: 'g2', name: 'Closing', criteria: [{ id: 'c2', name: 'Next steps', prompt: 'Agrees a next step.', weight: 6 }] },
    ],
    success_criteria: { prompt: 'A meeting is booked.' },
    members: ['ada@example.com', 'alan@example.com'],
    ...overrides,
  });
}

export const members: TeamMember[] = [
  { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', crm_id: '', target: 3 },
  { first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com', crm_id: '', target: 3 },
];

export function makeCall(overrides: Partial<ActivityCall> = {}): ActivityCall {
  return {
    id: 'call-1',
    audio_date: '2025-08-14T13:05:00.000Z',
    audio_duration: 125,
    representative: 'ada@example.com',
    representativeName: 'Ada Lovelace',
    contact_id: 'contact-1',
    contactName: 'Charles Babbage',
    score: 7.5,
    script_match: 82,
    is_successful: true,
    evaluation: [
      { id: 'g1', criteria: [{ id: 'c1', result: true }] },
      { id: 'g2', criteria: [{ id: 'c2', result: false }] },
    ],
    criteriaNeedingReview: 0,
    teamId: 'team-1',
    fileName: 'call.mp3',
    media: 'audio',
    status: 'scored',
    ...overrides,
  };
}

export function makeMeeting(overrides: Partial<ActivityMeeting> = {}): ActivityMeeting {
  return {
    id: 'meeting-1',
    date: '2025-08-14T09:00:00.000Z',
    rep_email: 'alan@example.com',
    representativeName: 'Alan Turing',
    contact: { name: 'Mary Somerville', company: 'Royal Society' },
    contact_id: 'contact-9',
    role: 'Analyst',
    duration: 3725,
    score: 8,
    script_match: 90,
    is_successful: false,
    evaluations: [{ group_id: 'g1', criterion_id: 'c1', result: true }],
    criteriaNeedingReview: 0,
    link: 'https://meet.example.com/abc',
    transcript: '[0:05] Alan: Thanks for joining today.\n[0:12] Mary: Happy to be here.',
    summary: {
      summary: 'Ada walked Charles through the roadmap.',
      improvements: [{ id: 'g2', name: 'Closing', criteria: [{ id: 'c3', name: 'Next steps', suggestion: 'Agree on a follow-up date.' }] }],
    },
    title: 'Intro',
    teamId: 'team-1',
    status: 'scored',
    ...overrides,
  };
}

export const page = <Row>(data: Row[], totalPages = 1, pageNumber = 1, limit = 20) => ({ data, pagination: { page: pageNumber, limit, total: data.length, totalPages } });
