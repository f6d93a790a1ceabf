import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from './config.js';

describe('loadGatewayConfig', () => {
  it('makes cookies Secure only when Parlance is reached over HTTPS', () => {
    expect(loadGatewayConfig({}).secureCookies).toBe(false);
    expect(loadGatewayConfig({ PUBLIC_URL: 'http://127.0.0.1:8080' }).secureCookies).toBe(false);
    expect(loadGatewayConfig({ PUBLIC_URL: 'https://parlance.example.com' }).secureCookies).toBe(true);
  });

  it('turns single sign-on on with an issuer, finding its key set under the issuer by default', () => {
    expect(loadGatewayConfig({}).oidc).toBeUndefined();
    expect(loadGatewayConfig({ OIDC_ISSUER: 'https://sso.example.com/realms/acme/' }).oidc).toEqual({
      // Kept as written: tokens' iss is compared with it exactly.
      issuer: 'https://sso.example.com/realms/acme/',
      jwksUrl: 'https://sso.example.com/realms/acme/protocol/openid-connect/certs',
      audience: 'parlance-gateway',
      organizationClaim: 'company_id',
      rolesClaim: 'roles',
    });
    expect(() => loadGatewayConfig({ OIDC_JWKS_URL: 'https://sso.example.com/certs' })).toThrow('OIDC_ISSUER is required when OIDC_JWKS_URL is set');
  });

  it('trusts no proxy unless told, and names the ones it is told', () => {
    expect(loadGatewayConfig({}).trustProxy).toBe(false);
    expect(loadGatewayConfig({ GATEWAY_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadGatewayConfig({ GATEWAY_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
  });

  it('refuses a short diagnostics token without repeating it', () => {
    expect(() => loadGatewayConfig({ DIAGNOSTICS_TOKEN: 'short' })).toThrow(/DIAGNOSTICS_TOKEN .*"\*\*\*"/);
    expect(() => loadGatewayConfig({ DIAGNOSTICS_TOKEN: 'short' })).not.toThrow(/short"/);
  });
});
