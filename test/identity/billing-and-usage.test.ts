/**
 * Plans, the subscription and insight-token usage. Usage arrives as `scoring.insight-tokens-consumed.v1`
 * events on Kafka (published here as scoring will publish them), is charged once per event by
 * identity's consumer, and shows in GET /api/billing/subscription for the current period.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBus } from '@parlance/platform/bus/create-bus';
import { FAILURE_REASON_HEADER } from '@parlance/platform/bus/event-bus';
import { createLogger } from '@parlance/platform/logger';
import { testKafkaBrokers, uniqueName } from '@parlance/platform/testing/infra';
import { EventEnvelope } from '@parlance/proto/parlance/events/v1/envelope';
import { closeIdentitySql, identitySql } from '../support/identity-db.js';
import { startIdentityStack, type IdentityStack } from '../support/identity-stack.js';
import { waitFor } from '../support/wait-for.js';

let stack: IdentityStack;
const silent = createLogger({ service: 'billing-test', level: 'silent', pretty: false });

beforeAll(async () => {
  stack = await startIdentityStack();
}, 90_000);

afterAll(async () => {
  await stack?.stop();
  await closeIdentitySql();
});

interface Plan {
  id: string;
  price: number | null;
  contact_sales: boolean;
  popular: boolean;
  type: string;
  trial_days: number;
  features: { insight_tokens_included: number | 'unlimited' };
}

interface Subscription {
  success: boolean;
  subscription: { price_amount_cents: number | null; billing_cycle: string };
  plan: { name: string; features: { insight_tokens_included: number | 'unlimited' } };
  usage: { total_insight_tokens: number };
  period: { from: string; to: string };
}

describe('GET /api/billing/plans', () => {
  it('is public and lists a 14-day trial, paid tiers with one popular, and enterprise at contact-sales', async () => {
    const response = await stack.browser().get<{ success: boolean; plans: Plan[]; metadata: unknown }>('/api/billing/plans');
    expect(response.status).toBe(200);
    const { plans, metadata } = response.body;
    expect(response.body.success).toBe(true);
    expect(plans.find((p) => p.type === 'trial')).toMatchObject({ trial_days: 14, price: 0 });
    expect(plans.filter((p) => p.popular)).toHaveLength(1);
    expect(plans.filter((p) => p.type === 'paid').length).toBeGreaterThanOrEqual(3);
    expect(plans.find((p) => p.id === 'enterprise')).toMatchObject({ price: null, contact_sales: true, features: { insight_tokens_included: 'unlimited' } });
    expect(metadata).toEqual({ overage_pricing: { insight_tokens_per_1000: 0.05 } });
    for (const plan of plans) {
      expect(Object.keys(plan).sort()).toEqual(
        ['annual_discount_percent', 'billing_cycle', 'contact_sales', 'description', 'features', 'id', 'name', 'popular', 'price', 'trial_days', 'type'],
      );
    }
  });

  it('serves the catalogue of IDENTITY_PLANS_FILE when one is configured', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'parlance-plans-'));
    const file = path.join(dir, 'plans.json');
    const trial = {
      id: 'trial', name: 'Pilot', description: 'Thirty days on us.', price: 0, contact_sales: false, billing_cycle: 'monthly',
      annual_discount_percent: 0, popular: true, trial_days: 30, type: 'trial', features: { insight_tokens_included: 250_000 },
    };
    await writeFile(file, JSON.stringify({ plans: [trial], metadata: { overage_pricing: { insight_tokens_per_1000: 0.04 } } }));
    const custom = await startIdentityStack({ env: { IDENTITY_PLANS_FILE: file } });
    try {
      const response = await custom.browser().get<{ plans: Plan[]; metadata: unknown }>('/api/billing/plans');
      expect(response.body.plans).toEqual([trial]);
      expect(response.body.metadata).toEqual({ overage_pricing: { insight_tokens_per_1000: 0.04 } });
      const { browser } = await custom.signUpVerified();
      expect((await browser.get<Subscription>('/api/billing/subscription')).body.plan).toEqual({ name: 'Pilot', features: { insight_tokens_included: 250_000 } });
    } finally {
      await custom.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('GET /api/billing/subscription', () => {
  it('shows the trial: price, cycle, allowance, no usage yet, and a 14-day period', async () => {
    const { browser } = await stack.signUpVerified();
    const response = await browser.get<Subscription>('/api/billing/subscription');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      subscription: { price_amount_cents: 0, billing_cycle: 'monthly' },
      plan: { name: 'Free Trial', features: { insight_tokens_included: 1_000_000 } },
      usage: { total_insight_tokens: 0 },
    });
    const days = (Date.parse(response.body.period.to) - Date.parse(response.body.period.from)) / 86_400_000;
    expect(days).toBe(14);
    expect(Date.parse(response.body.period.from)).toBeLessThanOrEqual(Date.now());
  });

  it('adds up the insight tokens scoring reports for the company in the current period, each event once', async () => {
    const { browser, companyId } = await stack.signUpVerified();
    const other = await stack.signUpVerified();
    const eventId = await stack.publishInsightTokens({ companyId, tokens: 1_200 });
    await stack.publishInsightTokens({ companyId, tokens: 800 });
    // Redelivered: the same event again must not be charged twice.
    await stack.publishInsightTokens({ companyId, tokens: 1_200, eventId });
    // Before the period began: not part of it.
    await stack.publishInsightTokens({ companyId, tokens: 50_000, consumedAt: new Date(Date.now() - 30 * 86_400_000) });
    // Another company's usage stays theirs.
    await stack.publishInsightTokens({ companyId: other.companyId, tokens: 7 });

    await waitFor('all four ledger rows', async () => {
      const rows = await identitySql('select 1 from identity.usage_ledger where company_id = $1', [companyId]);
      return rows.length === 3 ? true : undefined;
    });
    const mine = await browser.get<Subscription>('/api/billing/subscription');
    expect(mine.body.usage.total_insight_tokens).toBe(2_000);
    const theirs = await waitFor('the other company’s usage', async () => {
      const body = (await other.browser.get<Subscription>('/api/billing/subscription')).body;
      return body.usage.total_insight_tokens > 0 ? body : undefined;
    });
    expect(theirs.usage.total_insight_tokens).toBe(7);
  });

  it('dead-letters a usage event that names no company instead of losing it silently', async () => {
    const eventId = await stack.publishInsightTokens({ companyId: 'not-a-company', tokens: 5 });
    const rows = await identitySql('select 1 from identity.usage_ledger where event_id = $1', [eventId]);
    expect(rows).toHaveLength(0);
    // The consumer refuses it with a reason; after its retries it lands on the dead-letter topic.
    const bus = createBus({ adapter: 'kafka', brokers: testKafkaBrokers(), clientId: 'billing-test' }, silent);
    const seen: Array<{ id: string; reason: string | undefined }> = [];
    const subscription = await bus.subscribe({
      group: uniqueName('dlq-reader'),
      topics: ['scoring.insight-tokens-consumed.v1.dlq'],
      handler: async (message) => {
        seen.push({ id: EventEnvelope.decode(message.value).id, reason: message.headers[FAILURE_REASON_HEADER] });
      },
    });
    try {
      const dead = await waitFor('the event on the dead-letter topic', async () => seen.find((entry) => entry.id === eventId), 30_000);
      expect(dead.reason).toBe(`event ${eventId} names no company (company id "not-a-company")`);
    } finally {
      await subscription.stop();
      await bus.close();
    }
  });

  it('needs a signed-in user', async () => {
    expect((await stack.browser().get('/api/billing/subscription')).status).toBe(401);
  });
});

describe('the usage event contract', () => {
  it('is charged whatever team or activity it names, keyed by its own event id', async () => {
    const { companyId } = await stack.signUpVerified();
    const eventId = randomUUID();
    await stack.publishInsightTokens({ companyId, tokens: 3, eventId });
    const [row] = await waitFor('the ledger row', async () => {
      const rows = await identitySql<{ tokens: string; model: string }>('select tokens, model from identity.usage_ledger where event_id = $1', [eventId]);
      return rows.length > 0 ? rows : undefined;
    });
    expect(row).toMatchObject({ tokens: '3', model: 'offline-evidence' });
  });
});
