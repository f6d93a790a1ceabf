import { fileURLToPath } from 'node:url';
import Type, { type Static } from 'typebox';
import { ConfigError, Port, loadConfig, splitList } from '@parlance/platform/config';

const builtWebApp = fileURLToPath(new URL('../../web/dist', import.meta.url));

export const GatewayConfigSchema = Type.Object({
  GATEWAY_HOST: Type.String({ default: '127.0.0.1', description: 'interface the HTTP server binds' }),
  GATEWAY_PORT: Port('HTTP port of the API and web app', 8080),
  GATEWAY_WEB_DIR: Type.String({ default: builtWebApp, description: 'folder of the built web app (vite build output)' }),
  GATEWAY_BODY_LIMIT: Type.Integer({ minimum: 1024, default: 1_048_576, description: 'largest JSON body in bytes' }),
  PUBLIC_URL: Type.Optional(
    Type.String({ pattern: '^https?://', description: 'base URL people open Parlance at; https:// makes the cookies Secure' }),
  ),
  GATEWAY_TRUST_PROXY: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'proxies whose X-Forwarded-For / -Proto to trust: true (any), or comma-separated addresses or CIDRs; unset trusts none',
    }),
  ),
  OIDC_ISSUER: Type.Optional(Type.String({ pattern: '^https?://', description: 'SSO: issuer whose bearer tokens the API accepts (e.g. a Keycloak realm URL)' })),
  OIDC_JWKS_URL: Type.Optional(Type.String({ pattern: '^https?://', description: 'SSO: the issuer’s key set; default <OIDC_ISSUER>/protocol/openid-connect/certs' })),
  OIDC_AUDIENCE: Type.String({ default: 'parlance-gateway', description: 'SSO: audience bearer tokens must be issued for' }),
  OIDC_ORGANIZATION_CLAIM: Type.String({ default: 'company_id', description: 'SSO: claim naming the person’s organisation (one Parlance company each)' }),
  OIDC_ROLES_CLAIM: Type.String({ default: 'roles', description: 'SSO: claim listing application roles (admin, manager)' }),
  GOOGLE_CLIENT_ID: Type.Optional(
    Type.String({ minLength: 1, description: 'OAuth client id for "Sign in with Google" on the login page (the same value identity verifies tokens for); unset hides the button' }),
  ),
  DEMO_SCHEDULING_URL: Type.Optional(
    Type.String({ pattern: '^https://[^/?#\\s]+', description: 'https page of the demo scheduling calendar the demo modal frames; unset shows the contact address instead' }),
  ),
  DEMO_CONTACT_EMAIL: Type.String({ default: 'sales@parlance.local', pattern: '^[^@\\s]+@[^@\\s]+$', description: 'address the demo modal offers when no scheduling page is set' }),
  WEB_ANALYTICS_SCRIPT_URL: Type.Optional(
    Type.String({ pattern: '^https://[^/?#\\s]+/', description: 'https address of a web analytics script the app loads on start; unset loads none' }),
  ),
  DIAGNOSTICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      secret: true,
      description: 'secret operators send as X-Diagnostics-Token to use /api/diagnostics; unset turns those routes off',
    }),
  ),
});

export type RawGatewayConfig = Static<typeof GatewayConfigSchema>;

export interface OidcSettings {
  issuer: string;
  jwksUrl: string;
  audience: string;
  organizationClaim: string;
  rolesClaim: string;
}

export interface GatewayConfig extends RawGatewayConfig {
  /** Cookies carry Secure (and the __Host- prefix) when Parlance is reached over HTTPS. */
  secureCookies: boolean;
  trustProxy: boolean | string[];
  oidc: OidcSettings | undefined;
}

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const raw = loadConfig(GatewayConfigSchema, env);
  const problems: string[] = [];
  if (raw.OIDC_JWKS_URL && !raw.OIDC_ISSUER) problems.push('OIDC_ISSUER is required when OIDC_JWKS_URL is set');
  if (problems.length > 0) throw new ConfigError(problems);
  // The issuer is compared with each token's `iss` exactly, so it is kept as written.
  const issuer = raw.OIDC_ISSUER;
  return {
    ...raw,
    secureCookies: (raw.PUBLIC_URL ?? '').startsWith('https://'),
    trustProxy: parseTrustProxy(raw.GATEWAY_TRUST_PROXY),
    oidc: issuer
      ? {
          issuer,
          jwksUrl: raw.OIDC_JWKS_URL ?? `${issuer.replace(/\/+$/, '')}/protocol/openid-connect/certs`,
          audience: raw.OIDC_AUDIENCE,
          organizationClaim: raw.OIDC_ORGANIZATION_CLAIM,
          rolesClaim: raw.OIDC_ROLES_CLAIM,
        }
      : undefined,
  };
}

function parseTrustProxy(value: string | undefined): boolean | string[] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return splitList(value);
}
