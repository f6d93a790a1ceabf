/**
 * Single sign-on: verifies an OIDC access token (e.g. from Keycloak) with `jose` against the
 * issuer's key set: asymmetric signature only, the configured issuer and audience, expiry with a
 * small clock tolerance. What it proves is handed to identity, which maps it to a user and company.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { DomainError, permissionDenied, unauthenticated } from '@parlance/platform/errors';
import type { OidcSettings } from '../config.js';

export interface SsoClaims {
  issuer: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  firstName: string;
  lastName: string;
  organization: string;
  roles: string[];
}

export const SSO_MESSAGES = {
  invalid: 'Your single sign-on token is not valid. Please sign in again.',
  notAccessToken: 'Send an access token from single sign-on, not an ID or refresh token.',
  severalOrganizations: 'Your single sign-on token names more than one organisation; Parlance needs exactly one.',
  expired: 'Your single sign-on token has expired. Please sign in again.',
  unavailable: 'Single sign-on is temporarily unavailable. Please try again in a moment.',
} as const;

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** A claim given by a dotted path (`realm_access.roles`), as a list of strings. */
function listClaim(payload: JWTPayload, path: string): string[] {
  let value: unknown = payload;
  for (const part of path.split('.')) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export type SsoVerifier = (token: string) => Promise<SsoClaims>;

export function ssoVerifier(settings: OidcSettings): SsoVerifier {
  // One key set for the life of the process: jose caches keys and refetches on an unknown `kid`.
  const keySet = createRemoteJWKSet(new URL(settings.jwksUrl), { timeoutDuration: 5_000 });
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keySet, {
        issuer: settings.issuer,
        audience: settings.audience,
        algorithms: ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'],
        clockTolerance: 30,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw unauthenticated(SSO_MESSAGES.expired, { reason: 'expired' });
      if (error instanceof errors.JOSEError && !(error instanceof errors.JWKSTimeout)) throw unauthenticated(SSO_MESSAGES.invalid, { reason: error.code });
      throw new DomainError('unavailable', SSO_MESSAGES.unavailable, { reason: 'jwks-unavailable' });
    }
    // ID and refresh tokens are signed by the same keys; only access tokens grant API access
    // (Keycloak marks them typ "Bearer"; RFC 9068 access tokens say at+jwt in the header).
    if (typeof payload.typ === 'string' && payload.typ !== 'Bearer') throw unauthenticated(SSO_MESSAGES.notAccessToken, { reason: 'token-type' });
    const organizations = listClaim(payload, settings.organizationClaim);
    if (organizations.length > 1) throw permissionDenied(SSO_MESSAGES.severalOrganizations);
    return {
      issuer: settings.issuer,
      subject: text(payload.sub),
      email: text(payload.email),
      emailVerified: payload.email_verified === true,
      firstName: text(payload.given_name),
      lastName: text(payload.family_name),
      organization: organizations[0] ?? '',
      roles: listClaim(payload, settings.rolesClaim),
    };
  };
}
