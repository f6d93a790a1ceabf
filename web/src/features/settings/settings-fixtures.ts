// Test helpers for the settings tests: a signed-in store state and a fetch stub that routes by
// method and path and records what was sent.
import { vi } from 'vitest';
import type { RootState } from '../../app/store';
import type { CompanyMember, User } from '../../lib/api/gateway-api.generated';
import { jsonResponse } from '../../testing/json-response';

export const ADMIN: User = {
  id: '6f1c1f9e-4f7e-4a53-9d39-3d3a0c7f2a10',
  firstName: 'Ana',
  lastName: 'Lopez',
  email: 'ana@example.com',
  role: 'admin',
};
export const MANAGER: User = {
  ...ADMIN,
  id: '0b0b4e2e-1a55-4d1b-8f0e-6a0c3c9f1b22',
  firstName: 'Sam',
  lastName: 'Lee',
  email: 'sam+sales@example.com',
  role: 'manager',
};

export const MEMBERS: CompanyMember[] = [
  {
    first_name: 'Ana',
    last_name: 'Lopez',
    email: 'ana@example.com',
    role: 'admin',
  },
  {
    first_name: 'Sam',
    last_name: 'Lee',
    email: 'sam+sales@example.com',
    role: 'manager',
  },
];

export function signedInAs(user: User): Partial<RootState> {
  return {
    auth: {
      status: 'authenticated',
      user,
      company: {
        id: 'c7b1d3f2-2f59-4c0c-9f9e-1e5d6c7a8b90',
        name: 'Acme',
        departments: ['sales'],
      },
    },
    department: { active: 'sales' },
    // A token already in hand: change requests go out without fetching one first.
    csrf: { token: 'csrf-token' },
  };
}

export type SentRequest = { method: string; path: string; body: unknown };
type Handler = (request: Request) => Response | Promise<Response>;

/** Routes 'METHOD /path' (path as sent, still URL-encoded) to a handler; anything else is 404. */
export function stubGateway(routes: Record<string, Handler>) {
  const sent: SentRequest[] = [];
  const fetchMock = vi.fn(async (request: Request) => {
    const path = new URL(request.url).pathname;
    const text = await request.clone().text();
    sent.push({
      method: request.method,
      path,
      body: text ? JSON.parse(text) : undefined,
    });
    const handler = routes[`${request.method} ${path}`];
    return handler ? handler(request) : jsonResponse({ error: 'Not found', message: 'Not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    sent,
    fetchMock,
    changes: () => sent.filter((request) => request.method !== 'GET'),
  };
}
