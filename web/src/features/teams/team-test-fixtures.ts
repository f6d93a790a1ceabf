// Shared by the team screens' tests: a signed-in state, sample teams and a routed fetch stub.
import { vi } from 'vitest';
import type { RootState } from '../../app/store';
import { jsonResponse } from '../../testing/json-response';
import type { Team, TeamMember } from '../../lib/api/gateway-api.generated';

export const signedInState = (department = 'sales'): Partial<RootState> => ({
  auth: {
    status: 'authenticated',
    user: { id: 'u1', firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', role: 'admin' },
    company: { id: 'c1', name: 'Acme', departments: ['sales', 'hr'] },
  },
  department: { active: department },
  csrf: { token: 'csrf-test' },
});

export function makeTeam(overrides: Partial<Team> = {}): Team {
  return {
    id: 'team-1',
    name: 'Inbound sales',
    department: 'sales',
    criteria_group: [
      {
        id: 'g1',
        name: 'Opening',
        criteria: [
          { id: 'c1', name: 'Greeting', prompt: 'The representative greets the customer.', weight: 3 },
          { id: 'c2', name: 'Introduction', prompt: 'The representative introduces the company.', weight: 2.5 },
        ],
      },
      { id: 'g2', name: 'Closing', criteria: [{ id: 'c3', name: 'Next steps', prompt: 'A next step is agreed.', weight: 4.5 }] },
    ],
    success_criteria: { prompt: 'The customer books a meeting.' },
    members: ['ada@example.com'],
    call_script: '',
    crm_id: 'crm-1',
    review_threshold: 0.7,
    version: 3,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-02T00:00:00.000Z',
    ...overrides,
  };
}

export const ada: TeamMember = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', crm_id: 'crm-ada', target: 5 };

export type Route = (request: Request, url: URL) => Response | undefined | Promise<Response | undefined>;

/** A fetch stub answering by method and path; unrouted requests answer 404. Requests are recorded. */
export function stubApi(route: Route) {
  const requests: { method: string; path: string; search: URLSearchParams; body: unknown }[] = [];
  const fetchMock = vi.fn(async (request: Request) => {
    const url = new URL(request.url);
    const text = request.method === 'GET' ? '' : await request.clone().text();
    requests.push({ method: request.method, path: url.pathname, search: url.searchParams, body: text ? JSON.parse(text) : undefined });
    return (await route(request, url)) ?? jsonResponse({ error: 'Not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, requests, sent: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path) };
}

export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
