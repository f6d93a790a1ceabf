import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configProblems } from '@parlance/platform/testing/config-problems';
import { loadHostConfig } from '@parlance/platform/host/host-config';
import { loadIdentityConfig } from './config.js';
import { DEFAULT_PLAN_CATALOGUE } from './domain/plans.js';

const standalone = loadHostConfig({});
const distributed = loadHostConfig({ PARLANCE_MODE: 'distributed', KAFKA_BROKERS: 'k:9092', DATABASE_URL: 'postgres://x/y' });
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'identity-config-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadIdentityConfig', () => {
  it('runs standalone with no settings: links to this gateway, captured mail, built-in plans, no Google', () => {
    const config = loadIdentityConfig(standalone, { GATEWAY_PORT: '9090' });
    expect(config).toMatchObject({ publicUrl: 'http://127.0.0.1:9090', google: undefined, demoAccount: false, plans: DEFAULT_PLAN_CATALOGUE });
    expect(config.mail.transport).toBe('capture');
  });

  it('needs PUBLIC_URL and a mail server when distributed, and names both', () => {
    expect(configProblems(() => loadIdentityConfig(distributed, { PARLANCE_MODE: 'distributed' }))).toEqual([
      'PUBLIC_URL is required in distributed mode (the address people open Parlance at)',
      'SMTP_URL is required in distributed mode (or set MAIL_TRANSPORT=capture to keep e-mails on disk, development only)',
    ]);
  });

  it('drops a trailing slash from PUBLIC_URL and refuses one with a query', () => {
    expect(loadIdentityConfig(standalone, { PUBLIC_URL: 'https://parlance.example.com/' }).publicUrl).toBe('https://parlance.example.com');
    expect(configProblems(() => loadIdentityConfig(standalone, { PUBLIC_URL: 'https://parlance.example.com/?x=1' }))[0]).toMatch(/^PUBLIC_URL /);
  });

  it('turns Google sign-in on with a client id, against Google’s key set unless told otherwise', () => {
    expect(loadIdentityConfig(standalone, { GOOGLE_CLIENT_ID: 'abc.apps.googleusercontent.com' }).google).toEqual({
      clientId: 'abc.apps.googleusercontent.com',
      jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
    });
  });

  it('reads a plan catalogue file, and names what is wrong with a bad one', async () => {
    const good = path.join(dir, 'good.json');
    await writeFile(good, JSON.stringify(DEFAULT_PLAN_CATALOGUE));
    expect(loadIdentityConfig(standalone, { IDENTITY_PLANS_FILE: good }).plans).toEqual(DEFAULT_PLAN_CATALOGUE);

    const noTrial = path.join(dir, 'no-trial.json');
    await writeFile(noTrial, JSON.stringify({ ...DEFAULT_PLAN_CATALOGUE, plans: DEFAULT_PLAN_CATALOGUE.plans.filter((p) => p.id !== 'trial') }));
    expect(configProblems(() => loadIdentityConfig(standalone, { IDENTITY_PLANS_FILE: noTrial }))).toEqual([
      "IDENTITY_PLANS_FILE has no plan with id 'trial' (new companies start on it)",
    ]);

    const wrongShape = path.join(dir, 'wrong.json');
    await writeFile(wrongShape, JSON.stringify({ plans: [{ id: 'trial', price: 'free' }], metadata: {} }));
    expect(configProblems(() => loadIdentityConfig(standalone, { IDENTITY_PLANS_FILE: wrongShape }))[0]).toMatch(/^IDENTITY_PLANS_FILE does not hold a plan catalogue: /);

    expect(configProblems(() => loadIdentityConfig(standalone, { IDENTITY_PLANS_FILE: path.join(dir, 'missing.json') }))[0]).toMatch(
      /^IDENTITY_PLANS_FILE cannot be read as JSON/,
    );
  });
});
