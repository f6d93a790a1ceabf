/**
 * What the upload tests share: a stand-in for XMLHttpRequest (jsdom's would go to the network),
 * a gateway answering fetch from a route table, and the dialogs rendered with a store and the
 * toast region.
 */
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { makeStore, type RootState } from '../../../app/store';
import { ToastRegion } from '../../../components/toast-region';
import type { Team, TeamMember } from '../../../lib/api/gateway-api.generated';
import { jsonResponse } from '../../../testing/json-response';

type Listener = ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;

/** One request made with the fake XMLHttpRequest; the test answers it. */
export class FakeXhr {
  static sent: FakeXhr[] = [];
  /** Answers each request as it is sent, when set. */
  static autoAnswer: ((xhr: FakeXhr) => void) | null = null;

  method = '';
  url = '';
  headers: Record<string, string> = {};
  withCredentials = false;
  body: FormData | null = null;
  status = 0;
  responseText = '';
  upload: { onprogress: Listener } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }

  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
    FakeXhr.autoAnswer?.(this);
  }

  abort() {
    this.onabort?.();
  }

  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }

  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = body === undefined ? '' : JSON.stringify(body);
    this.onload?.();
  }

  fail() {
    this.onerror?.();
  }

  /** The form's text fields, and the file's name. */
  fields() {
    const entries: Record<string, string> = {};
    this.body?.forEach((value, key) => {
      entries[key] = typeof value === 'string' ? value : (value as File).name;
    });
    return entries;
  }
}

export function stubXhr() {
  FakeXhr.sent = [];
  FakeXhr.autoAnswer = null;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return FakeXhr;
}

export type SentRequest = { method: string; path: string; body: unknown; headers: Headers };
type Handler = (request: Request, url: URL) => Response | Promise<Response>;

/** fetch answered from `routes` ('GET /api/teams/fetch/'); a route ending in '*' matches a prefix. */
export function stubGateway(routes: Record<string, Handler>) {
  const sent: SentRequest[] = [];
  const fetchMock = vi.fn(async (request: Request) => {
    const url = new URL(request.url);
    const text = await request.clone().text();
    sent.push({ method: request.method, path: url.pathname, body: text ? JSON.parse(text) : undefined, headers: request.headers });
    const key = `${request.method} ${url.pathname}`;
    const handler =
      routes[key] ?? Object.entries(routes).find(([route]) => route.endsWith('*') && key.startsWith(route.slice(0, -1)))?.[1];
    return handler ? handler(request, url) : jsonResponse({ error: 'Not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { sent, fetchMock, posts: (path: string) => sent.filter((request) => request.method === 'POST' && request.path === path) };
}

export const ada: TeamMember = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', crm_id: '', target: 0 };
export const alan: TeamMember = { first_name: '', last_name: '', email: 'alan@example.com', crm_id: '', target: 0 };

export function makeTeam(overrides: Partial<Team> = {}): Team {
  return {
    id: 'team-1',
    name: 'Inbound sales',
    department: 'sales',
    criteria_group: [],
    success_criteria: { prompt: '' },
    members: [ada.email, alan.email],
    call_script: '',
    crm_id: '',
    version: 1,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** The teams of 'sales' (and one of 'hr', which must not show), and their members. */
export const teamRoutes: Record<string, Handler> = {
  'GET /api/teams/fetch/': () => jsonResponse([makeTeam(), makeTeam({ id: 'team-2', name: 'Outbound sales', members: [] }), makeTeam({ id: 'team-3', name: 'Recruiting', department: 'hr' })]),
  'GET /api/teams/team-1/members': () => jsonResponse([ada, alan]),
  'GET /api/teams/team-2/members': () => jsonResponse({ error: 'boom' }, 500),
};

export function renderWithStore(element: ReactElement, preloadedState: Partial<RootState>) {
  const store = makeStore(preloadedState);
  const view = render(
    <Provider store={store}>
      {element}
      <ToastRegion />
    </Provider>,
  );
  return { ...view, store };
}

/** The texts and kinds of the toasts on screen. */
export const toasts = () => Array.from(document.querySelectorAll('.toast')).map((toast) => `${toast.className.replace('toast toast--', '')}: ${toast.textContent}`);

/** A file of a given size without allocating it. */
export function sizedFile(name: string, size: number, content = 'x', type = '') {
  const file = new File([content], name, { type, lastModified: Date.UTC(2025, 2, 4, 10, 30) });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}
