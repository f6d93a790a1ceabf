import type { FastifyInstance } from 'fastify';
import { CSRF_FAILED_MESSAGE, CSRF_HEADER, verifyCsrfToken } from '../auth/csrf-token.js';
import { errorBody } from '../schemas/error.schema.js';
import type { SessionCookies } from './sessions.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every request under /api that could change something needs `X-CSRF-Token` matching the
 * browser's CSRF cookie (see auth/csrf-token.ts); otherwise 403 'CSRF validation failed'.
 *
 * Exempt: requests whose credentials travel in a header rather than a cookie (`Authorization:
 * Bearer` for single sign-on, `X-Diagnostics-Token` for operators). CSRF abuses credentials the
 * browser attaches by itself; another site cannot make a browser add these headers without a
 * CORS preflight, which this API never grants.
 */
export function registerCsrfProtection(app: FastifyInstance, cookies: SessionCookies): void {
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (!request.url.startsWith('/api/')) return;
    if (request.headers.authorization !== undefined || request.headers['x-diagnostics-token'] !== undefined) return;
    const header = request.headers[CSRF_HEADER];
    const token = Array.isArray(header) ? header[0] : header;
    if (!verifyCsrfToken(cookies.csrfSecret(request), token)) {
      return reply.status(403).send(errorBody(CSRF_FAILED_MESSAGE));
    }
  });
}
