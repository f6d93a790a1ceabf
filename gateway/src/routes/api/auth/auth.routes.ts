import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { NewSession } from '@parlance/proto/parlance/identity/v1/identity';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { invalidArgument } from '@parlance/platform/errors';
import { csrfTokenFor } from '../../../auth/csrf-token.js';
import { limitBy, type RateLimiter } from '../../../plugins/rate-limit.js';
import { callAs, type Sessions } from '../../../plugins/sessions.js';
import { PUBLIC_CHANGE, SIGNED_IN, SIGNED_IN_CHANGE } from '../../../schemas/security.schema.js';
import { ErrorResponse } from '../../../schemas/error.schema.js';
import {
  AcceptInviteQuery,
  AcceptInviteResponse,
  CsrfTokenResponse,
  GoogleSignupBody,
  GoogleSignupResponse,
  InviteBody,
  InviteResponse,
  LoginBody,
  SessionResponse,
  SignedInResponse,
  SignupBody,
  SignupResponse,
  SuccessResponse,
  VerifyEmailBody,
} from '../../../schemas/identity.schema.js';
import type { ServiceClients } from '../../../service-clients.js';
import { companyView, userView } from '../identity-views.js';

export const AUTH_ROUTE_MESSAGES = {
  noInvitationToken: 'No invitation token found. Please check your invite link.',
  noVerificationToken: 'Invalid verification link',
  noGoogleToken: 'Google sign-in token is missing.',
  signupSent: (email: string) => `We sent a verification link to ${email}. Open it within 24 hours to finish signing up.`,
  invitationSent: (email: string) => `Invitation sent to ${email}`,
} as const;

export interface AuthRouteOptions {
  services: ServiceClients;
  sessions: Sessions;
  limiter: RateLimiter;
}

const tags = ['auth'];
const clientAddress = (request: FastifyRequest) => request.ip;
const emailOf = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
};

/** GET /api/csrf-token and the sign-up, sign-in and invitation calls (spec part 1, §7). */
export async function authRoutes(app: FastifyInstance, options: AuthRouteOptions): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { services, sessions, limiter } = options;
  const { auth, accounts } = services.identity;
  const { cookies } = sessions;
  const noStore = { 'cache-control': 'no-store' };

  /** After any sign-in: the session cookie, a new CSRF secret, and the body the spec expects. */
  const signedIn = (reply: FastifyReply, session: NewSession | undefined) => {
    cookies.startSession(reply, session!);
    const csrfToken = cookies.rotateCsrf(reply);
    return { user: userView(session?.user), company: companyView(session?.company), csrfToken };
  };

  typed.get(
    '/api/csrf-token',
    { schema: { operationId: 'getCsrfToken', summary: 'A CSRF token, to send as X-CSRF-Token on every non-GET request', tags, response: { 200: CsrfTokenResponse } } },
    async (request, reply) => {
      const secret = cookies.csrfSecret(request);
      const csrfToken = secret ? csrfTokenFor(secret) : cookies.rotateCsrf(reply);
      return reply.headers(noStore).send({ csrfToken });
    },
  );

  typed.get(
    '/api/auth/session',
    {
      schema: {
        operationId: 'getSession',
        summary: 'The signed-in user and their company',
        security: SIGNED_IN,
        tags,
        response: { 200: SessionResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
      preHandler: sessions.requireCaller,
    },
    async (request, reply) => reply.headers(noStore).send({ user: userView(request.caller?.user), company: companyView(request.caller?.company) }),
  );

  typed.post(
    '/api/auth/login',
    {
      schema: {
        operationId: 'login',
        summary: 'Sign in with e-mail and password; sets the session cookie',
        security: PUBLIC_CHANGE,
        tags,
        body: LoginBody,
        response: { 200: SignedInResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse },
      },
      preHandler: limitBy(limiter, [
        ['login-address', clientAddress],
        ['login', (request) => `${clientAddress(request)} ${emailOf(request)}`],
      ]),
    },
    async (request, reply) => {
      const { session } = await auth.signIn({
        email: request.body.email ?? '',
        password: request.body.password ?? '',
        previousSessionToken: cookies.sessionToken(request) ?? '',
      });
      return reply.headers(noStore).send(signedIn(reply, session));
    },
  );

  typed.post(
    '/api/auth/logout',
    {
      schema: {
        operationId: 'logout',
        summary: 'Sign out: revokes the session and clears its cookie',
        security: PUBLIC_CHANGE,
        tags,
        response: { 200: SuccessResponse, 403: ErrorResponse },
      },
    },
    async (request, reply) => {
      // A bearer-token client has no session; its cookies, if any, are not what it asked to end.
      const sessionToken = request.headers.authorization === undefined ? cookies.sessionToken(request) : undefined;
      if (sessionToken) await auth.signOut({ sessionToken });
      cookies.endSession(reply);
      cookies.rotateCsrf(reply);
      return { success: true as const };
    },
  );

  typed.post(
    '/api/auth/signup',
    {
      schema: {
        operationId: 'signup',
        summary: 'Create an account; e-mails a verification link valid 24 hours (the answer is the same if the address has an account)',
        security: PUBLIC_CHANGE,
        tags,
        body: SignupBody,
        response: { 200: SignupResponse, 400: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse },
      },
      preHandler: limitBy(limiter, [
        ['signup', clientAddress],
        ['signup-email', emailOf],
      ]),
    },
    async (request) => {
      const { email } = await auth.signUp({
        firstName: request.body.firstName ?? '',
        lastName: request.body.lastName ?? '',
        email: request.body.email ?? '',
        password: request.body.password ?? '',
      });
      return { success: true as const, emailSent: true as const, email, message: AUTH_ROUTE_MESSAGES.signupSent(email) };
    },
  );

  typed.post(
    '/api/auth/verify-email',
    {
      schema: {
        operationId: 'verifyEmail',
        summary: 'Verify an e-mail address with the token from the link; signs the user in',
        security: PUBLIC_CHANGE,
        tags,
        body: VerifyEmailBody,
        response: { 200: SignedInResponse, 400: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse },
      },
      preHandler: limitBy(limiter, [['verify-email', clientAddress]]),
    },
    async (request, reply) => {
      const token = request.body.token ?? '';
      if (!token) throw invalidArgument(AUTH_ROUTE_MESSAGES.noVerificationToken);
      const { session } = await auth.verifyEmail({ token, previousSessionToken: cookies.sessionToken(request) ?? '' });
      return reply.headers(noStore).send(signedIn(reply, session));
    },
  );

  typed.post(
    '/api/auth/google-signup',
    {
      schema: {
        operationId: 'googleSignup',
        summary: 'Sign in or sign up with a Google ID token, verified on the server',
        security: PUBLIC_CHANGE,
        tags,
        body: GoogleSignupBody,
        response: { 200: GoogleSignupResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse },
      },
      preHandler: limitBy(limiter, [['google-signup', clientAddress]]),
    },
    async (request, reply) => {
      const idToken = request.body.idToken ?? '';
      if (!idToken) throw invalidArgument(AUTH_ROUTE_MESSAGES.noGoogleToken);
      const { session, created } = await auth.signInWithGoogle({ idToken, previousSessionToken: cookies.sessionToken(request) ?? '' });
      return reply.headers(noStore).send({ ...signedIn(reply, session), created });
    },
  );

  typed.post(
    '/api/auth/invite',
    {
      schema: {
        operationId: 'inviteMember',
        summary: 'Invite someone to the company (admins only); e-mails a link valid 7 days',
        security: SIGNED_IN_CHANGE,
        tags,
        body: InviteBody,
        response: { 200: InviteResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse },
      },
      preHandler: [sessions.requireCaller, limitBy(limiter, [['invite', (request) => request.caller?.user.id ?? clientAddress(request)]])],
    },
    async (request) => {
      const invitation = await accounts.inviteMember({ email: request.body.email ?? '', role: request.body.role ?? '' }, callAs(request));
      return {
        success: true as const,
        message: AUTH_ROUTE_MESSAGES.invitationSent(invitation.email),
        invitation: { email: invitation.email, role: invitation.role, expiresAt: (invitation.expiresAt ?? new Date()).toISOString() },
      };
    },
  );

  typed.get(
    '/api/auth/accept-invite',
    {
      schema: {
        operationId: 'acceptInvite',
        summary: 'Accept an invitation from its link',
        tags,
        querystring: AcceptInviteQuery,
        response: { 200: AcceptInviteResponse, 400: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse },
      },
      preHandler: limitBy(limiter, [['accept-invite', clientAddress]]),
    },
    async (request, reply) => {
      const token = request.query.token ?? '';
      if (!token) throw invalidArgument(AUTH_ROUTE_MESSAGES.noInvitationToken);
      const accepted = await auth.acceptInvitation({ token, sessionToken: cookies.sessionToken(request) ?? '' });
      return reply.headers(noStore).send({ success: true as const, ...accepted });
    },
  );
}
