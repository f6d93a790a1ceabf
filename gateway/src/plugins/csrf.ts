import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CSRF_FAILED_MESSAGE, CSRF_HEADER, verifyCsrfToken } from '../auth/csrf-token.js';
import { errorBody } from '../schemas/error.schema.js';
import type { SessionCookies } from './sessions.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A request authenticated by a header rather than a cookie, which another site cannot make a
 * browser send without a CORS preflight (never granted here): a bearer token (single sign-on,
 * any route, which then ignores cookies) or the operators' token (diagnostics routes only).
 */
function authenticatedByHeader(request: FastifyRequest): boolean {
  if (/^bearer\s+\S/i.test(request.headers.authorization ?? '')) return true;
  return request.headers['x-diagnostics-token'] !== undefined && (request.routeOptions.url ?? '').startsWith('/api/diagnostics/');
}

/**
 * Every request that could change something needs `X-CSRF-Token` matching the browser's CSRF
 * cookie (see auth/csrf-token.ts); otherwise 403 'CSRF validation failed'. The check looks at the
 * method only, never at the path, so no spelling of a URL (`/%61pi/…`) gets around it.
 */
export function registerCsrfProtection(app: FastifyInstance, cookies: SessionCookies): void {
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method) || authenticatedByHeader(request)) return;
    const header = request.headers[CSRF_HEADER];
    const token = Array.isArray(header) ? header[0] : header;
    if (!verifyCsrfToken(cookies.csrfSecret(request), token)) {
      return reply.status(403).send(errorBody(CSRF_FAILED_MESSAGE));
    }
  });
}
