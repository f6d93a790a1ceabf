import { vi } from 'vitest';
import { jsonResponse } from './json-response';

/** One request the app sent, as the stand-in gateway saw it; a JSON body is parsed. */
export type SentRequest = { method: string; path: string; search: URLSearchParams; body: unknown; headers: Headers };

/** Answers a request, or leaves it unanswered (undefined): the stand-in then answers 404. */
export type Route = (request: Request, url: URL) => Response | undefined | Promise<Response | undefined>;
type Handler = (request: Request, url: URL) => Response | Promise<Response>;

function parsedBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Replaces fetch with a stand-in for the gateway: `route` answers by method and path, and
 * unrouted requests answer 404. Every request is recorded; `sent(method, path)` picks some out.
 */
export function stubGateway(route: Route) {
  const requests: SentRequest[] = [];
  const fetchMock = vi.fn(async (request: Request) => {
    const url = new URL(request.url);
    const text = request.method === 'GET' ? '' : await request.clone().text();
    requests.push({ method: request.method, path: url.pathname, search: url.searchParams, body: parsedBody(text), headers: request.headers });
    return (await route(request, url)) ?? jsonResponse({ error: 'Not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, requests, sent: (method: string, path: string) => requests.filter((request) => request.method === method && request.path === path) };
}

/** A route from a table keyed 'METHOD /path'; a key ending in '*' matches every path it begins. */
export function routeTable(routes: Record<string, Handler>): Route {
  return (request, url) => {
    const key = `${request.method} ${url.pathname}`;
    const handler = routes[key] ?? Object.entries(routes).find(([pattern]) => pattern.endsWith('*') && key.startsWith(pattern.slice(0, -1)))?.[1];
    return handler?.(request, url);
  };
}
