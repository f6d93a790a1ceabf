import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderApp } from '../../testing/render-app';
import { jsonResponse } from '../../testing/json-response';
import type { GetSubscriptionApiResponse } from '../../lib/api/gateway-api.generated';
import { ADMIN, MANAGER, signedInAs, stubGateway } from './settings-fixtures';

function subscription(
  overrides: {
    cents?: number | null;
    used?: number;
    included?: number | 'unlimited';
  } = {},
): GetSubscriptionApiResponse {
  return {
    success: true,
    subscription: {
      price_amount_cents: overrides.cents === undefined ? 49_900 : overrides.cents,
      billing_cycle: 'monthly',
    },
    plan: {
      name: 'Growth',
      features: { insight_tokens_included: overrides.included ?? 1_000_000 },
    },
    usage: { total_insight_tokens: overrides.used ?? 250_000 },
    period: {
      from: '2025-01-15T10:00:00.000Z',
      to: '2025-02-15T10:00:00.000Z',
    },
  };
}

async function openBilling(answer: Response, user = ADMIN) {
  stubGateway({ 'GET /api/billing/subscription': () => answer });
  renderApp('/settings?tab=billing', signedInAs(user));
  return screen.findByRole('tabpanel', { name: 'Billing and Usage' });
}

const fact = (panel: HTMLElement, term: string) => within(panel).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;

describe('Billing and Usage', () => {
  it('shows the plan, cycle, price, period, usage and the overage price', async () => {
    const panel = await openBilling(jsonResponse(subscription()));

    expect(await within(panel).findByRole('heading', { name: 'Growth' })).toBeTruthy();
    expect(fact(panel, 'Billing cycle')).toBe('Monthly');
    expect(fact(panel, 'Price')).toBe('$499.00');
    expect(fact(panel, 'Current period')).toBe('Jan 15, 2025 – Feb 15, 2025');
    expect(fact(panel, 'Overage')).toBe('$0.05 per 1,000 insight tokens');
    expect(within(panel).getByText('250,000 of 1,000,000 insight tokens used')).toBeTruthy();

    const bar = within(panel).getByRole('progressbar', {
      name: 'Insight tokens used',
    });
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    const status = within(panel).getByText('Active');
    expect(status.className).toBe('badge badge--success');
  });

  it('caps the bar at 100% and says Over Limit when usage exceeds the allowance', async () => {
    const panel = await openBilling(jsonResponse(subscription({ used: 1_500_000 })));

    const bar = await within(panel).findByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('100');
    expect((bar.firstElementChild as HTMLElement).style.width).toBe('100%');
    expect(within(panel).getByText('Over Limit').className).toBe('badge badge--warning');
    expect(within(panel).getByText('500,000 insight tokens over the allowance, priced at $0.05 per 1,000 insight tokens.')).toBeTruthy();
  });

  it('is grey with no usage yet, not Active', async () => {
    const panel = await openBilling(jsonResponse(subscription({ used: 0 })));

    const status = await within(panel).findByText('No usage yet');
    expect(status.className).toBe('badge');
    expect(within(panel).queryByText('Active')).toBeNull();
    expect(within(panel).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('0');
  });

  it('shows Contact sales for a custom price and no bar for an unlimited allowance', async () => {
    const panel = await openBilling(jsonResponse(subscription({ cents: null, included: 'unlimited', used: 42_000 })), MANAGER);

    expect(await within(panel).findByText('42,000 of unlimited insight tokens used')).toBeTruthy();
    expect(fact(panel, 'Price')).toBe('Contact sales');
    expect(within(panel).queryByRole('progressbar')).toBeNull();
    expect(within(panel).getByText('Active')).toBeTruthy();
  });

  it('shows Free for a zero price', async () => {
    const panel = await openBilling(jsonResponse(subscription({ cents: 0 })));
    await within(panel).findByRole('heading', { name: 'Growth' });
    expect(fact(panel, 'Price')).toBe('Free');
  });

  it("says 'Failed to load subscription data' when the subscription cannot be loaded", async () => {
    const panel = await openBilling(jsonResponse({ error: 'No subscription found.', message: 'No subscription found.' }, 404));

    const alert = await within(panel).findByRole('alert');
    expect(within(alert).getByText('Failed to load subscription data')).toBeTruthy();
  });
});
