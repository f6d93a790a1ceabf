// Shared by the summary dialogs' tests: sample rows and summaries, a routed fetch stub and a
// render with a real store and the toast region.
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { vi } from 'vitest';
import { makeStore } from '../../../app/store';
import { ToastRegion } from '../../../components/toast-region';
import { jsonResponse } from '../../../testing/json-response';
import { signedInState } from '../../../testing/signed-in';
import type { ActivityCall, ActivityMeeting } from '../activity-types';
import type { SummaryData, SummaryEvaluation } from './summary-model';

export function makeCall(overrides: Partial<ActivityCall> = {}): ActivityCall {
  return {
    id: 'call-1',
    audio_date: '2025-03-04T10:15:00.000Z',
    audio_duration: 125,
    representative: 'ada@example.com',
    representativeName: 'Ada Lovelace',
    contact_id: 'contact-1',
    contactName: 'Charles Babbage',
    score: 6,
    script_match: 70,
    is_successful: true,
    evaluation: [{ id: 'g1', criteria: [{ id: 'c1', result: true }] }],
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
    date: '2025-03-05T14:00:00.000Z',
    rep_email: 'ada@example.com',
    representativeName: 'Ada Lovelace',
    contact: { name: 'Charles Babbage', company: 'Difference Engines' },
    contact_id: 'contact-1',
    role: '',
    duration: 1800,
    score: 7,
    script_match: 80,
    is_successful: true,
    evaluations: [{ group_id: 'g1', criterion_id: 'c1', result: true }],
    link: 'https://meet.example.com/abc',
    transcript: '[0:05] Ada: Thanks for joining today.\n[0:12] Charles: Happy to be here.',
    summary: {
      summary: 'Ada walked Charles through the roadmap.',
      improvements: [{ id: 'g2', name: 'Closing', criteria: [{ id: 'c3', name: 'Next steps', suggestion: 'Agree on a follow-up date.' }] }],
    },
    title: 'Roadmap review',
    teamId: 'team-1',
    status: 'scored',
    ...overrides,
  };
}

export function makeEvaluation(overrides: Partial<SummaryEvaluation> = {}): SummaryEvaluation {
  return {
    score: 6,
    scriptMatch: 70,
    isSuccessful: true,
    successReason: 'A demo was booked.',
    successEvidence: [{ quote: 'book a demo', segmentIndex: 2, speaker: 'Charles', role: 'contact', startMs: 20000 }],
    verdicts: [
      {
        groupId: 'g1',
        groupName: 'Opening',
        criterionId: 'c1',
        criterionName: 'Greeting',
        weight: 6,
        passed: true,
        applicable: true,
        confidence: 0.92,
        reason: 'The representative greeted the contact.',
        expected: '',
        suggestion: '',
        evidence: [{ quote: 'Good morning', segmentIndex: 0, speaker: 'Ada', role: 'representative', startMs: 0 }],
      },
      {
        groupId: 'g2',
        groupName: 'Closing',
        criterionId: 'c3',
        criterionName: 'Next steps',
        weight: 4,
        passed: false,
        applicable: true,
        confidence: 0.8,
        reason: 'No follow-up date was agreed.',
        expected: 'A date for the next conversation.',
        suggestion: 'Agree on a follow-up date.',
        evidence: [{ quote: 'talk soon', segmentIndex: 3, speaker: 'Ada', role: 'representative', startMs: 75500 }],
      },
    ],
    statistics: null,
    summaryDetails: { participants: ['Ada', 'Charles'], discussion: '', outcome: '', nextSteps: [] },
    engine: 'offline-evidence',
    fallbackReason: '',
    insightTokens: 0,
    evaluatedAt: '2025-03-04T10:20:00.000Z',
    warnings: [],
    ...overrides,
  };
}

export function makeSummary(overrides: Partial<SummaryData> = {}): SummaryData {
  return {
    transcript: '[0:00] Ada: Good morning, this is Ada.\n…',
    summary: 'Ada introduced the product and Charles asked for a demo.',
    improvements: [{ id: 'g2', name: 'Closing', criteria: [{ id: 'c3', name: 'Next steps', suggestion: 'Agree on a follow-up date.' }] }],
    segments: [
      { index: 0, speaker: 'Ada', role: 'representative', startMs: 0, endMs: 4000, text: 'Good morning, this is Ada.' },
      { index: 1, speaker: 'Charles', role: 'contact', startMs: 4000, endMs: 9000, text: 'Hello Ada.' },
      { index: 2, speaker: 'Charles', role: 'contact', startMs: 20000, endMs: 26000, text: 'I would like to book a demo.' },
      { index: 3, speaker: 'Ada', role: 'representative', startMs: 75500, endMs: 80000, text: 'Great, talk soon.' },
    ],
    evaluation: makeEvaluation(),
    ...overrides,
  };
}

export type Route = (request: Request, url: URL) => Response | undefined | Promise<Response | undefined>;

/** A fetch stub answering by method and path; unrouted requests answer 404. Requests are recorded. */
export function stubApi(route: Route) {
  const requests: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      const text = request.method === 'GET' ? '' : await request.clone().text();
      requests.push({ method: request.method, path: url.pathname, body: text ? JSON.parse(text) : undefined });
      return (await route(request, url)) ?? jsonResponse({ error: 'Not found' }, 404);
    }),
  );
  return { requests, sent: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path) };
}

export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Renders `ui` with a signed-in store (holding a CSRF token) and the toast region; `rerender` keeps both. */
export function renderWithStore(ui: ReactElement) {
  const store = makeStore({ ...signedInState(), csrf: { token: 'csrf-test' } });
  const wrap = (element: ReactElement) => (
    <Provider store={store}>
      {element}
      <ToastRegion />
    </Provider>
  );
  const view = render(wrap(ui));
  return { ...view, store, rerender: (element: ReactElement) => view.rerender(wrap(element)) };
}
