import { readFileSync } from 'node:fs';
import Type from 'typebox';
import Value from 'typebox/value';
import { ConfigError, loadConfig } from '@parlance/platform/config';
import type { HostConfig } from '@parlance/platform/host/host-config';
import { loadMailConfig, type MailConfig } from '@parlance/platform/mail/mail-config';
import { GOOGLE_JWKS_URL } from './auth/google-id-token.js';
import { DEFAULT_PLAN_CATALOGUE, PlanCatalogueSchema, type PlanCatalogue } from './domain/plans.js';

export const IdentityConfigSchema = Type.Object({
  PUBLIC_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^/?#\\s]+(/[^?#\\s]*)?$',
      description:
        'base URL people open Parlance at, used in e-mailed links (no query); default http://127.0.0.1:<GATEWAY_PORT> standalone, required distributed',
    }),
  ),
  GOOGLE_CLIENT_ID: Type.Optional(Type.String({ minLength: 1, description: 'OAuth client id Google ID tokens must be issued for; unset disables Google sign-in' })),
  GOOGLE_JWKS_URL: Type.String({ pattern: '^https?://', default: GOOGLE_JWKS_URL, description: 'key set Google ID tokens are verified against' }),
  IDENTITY_PLANS_FILE: Type.Optional(Type.String({ minLength: 1, description: 'JSON file with the plan catalogue; default the built-in plans' })),
  IDENTITY_DEMO_ACCOUNT: Type.Boolean({ default: false, description: 'create the demo company and sign-in at start (make run sets it)' }),
});

export interface IdentityConfig {
  publicUrl: string;
  google: { clientId: string; jwksUrl: string } | undefined;
  plans: PlanCatalogue;
  demoAccount: boolean;
  mail: MailConfig;
}

/** Reads the identity settings; throws ConfigError naming each bad variable. */
export function loadIdentityConfig(host: HostConfig, env: NodeJS.ProcessEnv = process.env): IdentityConfig {
  const raw = loadConfig(IdentityConfigSchema, env);
  const problems: string[] = [];
  let publicUrl = raw.PUBLIC_URL;
  if (!publicUrl) {
    if (host.PARLANCE_MODE === 'distributed') problems.push('PUBLIC_URL is required in distributed mode (the address people open Parlance at)');
    publicUrl = `http://127.0.0.1:${env.GATEWAY_PORT || '8080'}`;
  }
  let plans = DEFAULT_PLAN_CATALOGUE;
  if (raw.IDENTITY_PLANS_FILE) {
    try {
      plans = readPlans(raw.IDENTITY_PLANS_FILE);
    } catch (error) {
      problems.push(`IDENTITY_PLANS_FILE ${(error as Error).message}`);
    }
  }
  let mail: MailConfig | undefined;
  try {
    mail = loadMailConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  if (problems.length > 0 || !mail) throw new ConfigError(problems);
  return {
    publicUrl: publicUrl.replace(/\/+$/, ''),
    google: raw.GOOGLE_CLIENT_ID ? { clientId: raw.GOOGLE_CLIENT_ID, jwksUrl: raw.GOOGLE_JWKS_URL } : undefined,
    plans,
    demoAccount: raw.IDENTITY_DEMO_ACCOUNT,
    mail,
  };
}

function readPlans(file: string): PlanCatalogue {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot be read as JSON (${(error as Error).message})`);
  }
  const first = Value.Errors(PlanCatalogueSchema, parsed)[0];
  if (first) throw new Error(`does not hold a plan catalogue: ${first.instancePath || '/'} ${first.message}`);
  const catalogue = parsed as PlanCatalogue;
  const ids = catalogue.plans.map((plan) => plan.id);
  if (new Set(ids).size !== ids.length) throw new Error('names a plan id twice');
  if (!ids.includes('trial')) throw new Error("has no plan with id 'trial' (new companies start on it)");
  return catalogue;
}
