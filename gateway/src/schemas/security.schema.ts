/**
 * How callers prove who they are, for the OpenAPI document: a browser's session cookie (with the
 * CSRF header on every non-GET request), or a single-sign-on bearer token.
 */
export const SECURITY_SCHEMES = {
  sessionCookie: { type: 'apiKey', in: 'cookie', name: 'parlance_session', description: 'set by sign-in; __Host-parlance_session behind HTTPS' },
  csrfToken: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token', description: 'from GET /api/csrf-token; required on every non-GET request made with cookies' },
  ssoBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'an access token from the configured OIDC issuer (single sign-on)' },
  diagnosticsToken: { type: 'apiKey', in: 'header', name: 'X-Diagnostics-Token', description: 'the operators’ DIAGNOSTICS_TOKEN' },
} as const;

type Requirement = Record<string, readonly string[]>[];

/** A route for signed-in users. */
export const SIGNED_IN: Requirement = [{ sessionCookie: [] }, { ssoBearer: [] }];
/** A signed-in route that changes something. */
export const SIGNED_IN_CHANGE: Requirement = [{ sessionCookie: [], csrfToken: [] }, { ssoBearer: [] }];
/** A public route that changes something (sign-in, sign-up): the CSRF header is still required. */
export const PUBLIC_CHANGE: Requirement = [{ csrfToken: [] }];
export const OPERATORS: Requirement = [{ diagnosticsToken: [] }];
