/**
 * Who is calling. A browser carries an opaque session token in an HttpOnly cookie; an API client
 * in single-sign-on mode sends an OIDC access token as `Authorization: Bearer`. Either way the
 * gateway asks identity, and every later gRPC call carries the company and user it answered with:
 * no request parameter can choose another company.
 *
 * Cookies: `parlance_session` (the session token) and `parlance_csrf` (the CSRF secret), both
 * HttpOnly, SameSite=Lax, Path=/; behind HTTPS (PUBLIC_URL https://) they are Secure and carry
 * the `__Host-` prefix, which browsers only accept from the exact host over HTTPS.
 */
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unauthenticated } from '@parlance/platform/errors';
import type { CallSettings } from '@parlance/platform/grpc/grpc-client';
import type { Company, NewSession, User } from '@parlance/proto/parlance/identity/v1/identity';
import { csrfTokenFor, newCsrfSecret } from '../auth/csrf-token.js';
import type { SsoVerifier } from '../auth/sso-token.js';
import type { IdentityClients } from '../service-clients.js';

export interface Caller {
  user: User;
  company: Company;
  /** How the caller proved who they are. */
  via: 'session' | 'sso';
}

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}

export const SESSION_MESSAGES = {
  signIn: 'Please sign in to continue.',
  ssoOff: 'Bearer tokens are not accepted: single sign-on is not configured on this server.',
} as const;

/** How long the CSRF secret cookie lives: as long as the longest session (14 days). */
const CSRF_COOKIE_MAX_AGE_S = 14 * 24 * 60 * 60;

export interface SessionCookies {
  session: string;
  csrf: string;
  /** The session token the request carried, if any. */
  sessionToken(request: FastifyRequest): string | undefined;
  csrfSecret(request: FastifyRequest): string | undefined;
  startSession(reply: FastifyReply, session: NewSession): void;
  endSession(reply: FastifyReply): void;
  /** Sets a new CSRF secret and returns a token for it. */
  rotateCsrf(reply: FastifyReply): string;
}

export interface SessionOptions {
  identity: IdentityClients;
  secureCookies: boolean;
  sso: SsoVerifier | undefined;
}

export interface Sessions {
  cookies: SessionCookies;
  /** preHandler: answers 401 unless the request is signed in; sets `request.caller`. */
  requireCaller(request: FastifyRequest): Promise<void>;
}

/** The tenant and user every gRPC call made for this request must carry. */
export function callAs(request: FastifyRequest): CallSettings {
  const caller = request.caller;
  if (!caller) throw unauthenticated(SESSION_MESSAGES.signIn);
  return { companyId: caller.company.id, userId: caller.user.id };
}

function setCaller(request: FastifyRequest, caller: Caller): void {
  request.caller = caller;
  // Every later line about this request names the tenant and user.
  request.log = request.log.child({ companyId: caller.company.id, userId: caller.user.id });
}

export async function registerSessions(app: FastifyInstance, options: SessionOptions): Promise<Sessions> {
  await app.register(fastifyCookie);
  const prefix = options.secureCookies ? '__Host-' : '';
  const base = { httpOnly: true, sameSite: 'lax' as const, path: '/', secure: options.secureCookies };

  const cookies: SessionCookies = {
    session: `${prefix}parlance_session`,
    csrf: `${prefix}parlance_csrf`,
    sessionToken: (request) => request.cookies[cookies.session] || undefined,
    csrfSecret: (request) => request.cookies[cookies.csrf] || undefined,
    startSession(reply, session) {
      const maxAge = Math.max(0, Math.floor(((session.expiresAt?.getTime() ?? Date.now()) - Date.now()) / 1000));
      reply.setCookie(cookies.session, session.token, { ...base, maxAge });
    },
    endSession(reply) {
      reply.clearCookie(cookies.session, base);
    },
    rotateCsrf(reply) {
      const secret = newCsrfSecret();
      reply.setCookie(cookies.csrf, secret, { ...base, maxAge: CSRF_COOKIE_MAX_AGE_S });
      return csrfTokenFor(secret);
    },
  };

  async function requireCaller(request: FastifyRequest): Promise<void> {
    const authorization = request.headers.authorization;
    if (authorization !== undefined) {
      const [scheme, token] = authorization.split(/\s+/, 2);
      if (scheme?.toLowerCase() !== 'bearer' || !token) throw unauthenticated(SESSION_MESSAGES.signIn);
      if (!options.sso) throw unauthenticated(SESSION_MESSAGES.ssoOff);
      const claims = await options.sso(token);
      const { user, company } = await options.identity.auth.signInWithSso(claims);
      setCaller(request, { user: user!, company: company!, via: 'sso' });
      return;
    }
    const sessionToken = cookies.sessionToken(request);
    if (!sessionToken) throw unauthenticated(SESSION_MESSAGES.signIn);
    const { user, company } = await options.identity.auth.getSession({ sessionToken });
    setCaller(request, { user: user!, company: company!, via: 'session' });
  }

  return { cookies, requireCaller };
}
