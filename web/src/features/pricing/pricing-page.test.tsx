import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderApp } from '../../testing/render-app';
import { jsonResponse } from '../../testing/json-response';
import type { ListPlansApiResponse } from '../../lib/api/gateway-api.generated';
import { demoClosed } from '../../lib/ui/demo-slice';

type Plan = ListPlansApiResponse['plans'][number];

const plan = (overrides: Partial<Plan> & Pick<Plan, 'id' | 'name'>): Plan => ({
  description: `${overrides.name} plan`,
  price: 4900,
  contact_sales: false,
  billing_cycle: 'monthly',
  annual_discount_percent: 0,
  popular: false,
  trial_days: 0,
  type: 'paid',
  features: { insight_tokens_included: 5_000_000 },
  ...overrides,
});

const catalogue: ListPlansApiResponse = {
  success: true,
  plans: [
    plan({ id: 'trial', name: 'Free Trial', price: 0, trial_days: 14, type: 'trial', features: { insight_tokens_included: 1_000_000 } }),
    plan({ id: 'starter', name: 'Starter', price: 4900, features: { insight_tokens_included: 100_000 } }),
    plan({
      id: 'growth',
      name: 'Growth',
      price: 49_950,
      popular: true,
      annual_discount_percent: 20,
      features: { insight_tokens_included: 20_000_000 },
    }),
    plan({
      id: 'enterprise',
      name: 'Enterprise',
      price: null,
      contact_sales: true,
      billing_cycle: 'annual',
      type: 'custom',
      features: { insight_tokens_included: 'unlimited' },
    }),
  ],
  metadata: { overage_pricing: { insight_tokens_per_1000: 0.05 } },
};

function stubPlans(respond: () => Response) {
  const fetchMock = vi.fn(async (request: Request) =>
    new URL(request.url).pathname === '/api/billing/plans' ? respond() : jsonResponse({ error: 'Not found' }, 404),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const card = (name: string) => within(screen.getByRole('article', { name }));

describe('pricing page', () => {
  it('shows a card per plan with its price, allowance and call-time estimate', async () => {
    const fetchMock = stubPlans(() => jsonResponse(catalogue));

    renderApp('/pricing');

    expect(await screen.findByRole('status', { name: 'Loading pricing plans' })).toBeTruthy();
    await screen.findByRole('article', { name: 'Growth' });
    expect(screen.getAllByRole('article').map((article) => within(article).getByRole('heading').textContent)).toEqual([
      'Free Trial',
      'Starter',
      'Growth',
      'Enterprise',
    ]);

    const requests = fetchMock.mock.calls.map(([request]) => [request.method, new URL(request.url).pathname]);
    expect(requests).toContainEqual(['GET', '/api/billing/plans']);

    const trial = card('Free Trial');
    expect(trial.getByText('Free')).toBeTruthy();
    expect(trial.getByText('14-day free trial')).toBeTruthy();
    expect(trial.getByText('1,000,000 insight tokens')).toBeTruthy();
    expect(trial.getByText('about 2.5 hours of calls')).toBeTruthy();
    expect(trial.queryByText(/beyond your allowance/)).toBeNull();
    expect(trial.getByRole('link', { name: 'Start Free Trial' }).getAttribute('href')).toBe('/login');

    const starter = card('Starter');
    expect(starter.getByText('$49.00')).toBeTruthy();
    expect(starter.getByText('/ month')).toBeTruthy();
    expect(starter.getByText('about 15 minutes of calls')).toBeTruthy();
    expect(starter.queryByText(/Save/)).toBeNull();
    expect(starter.queryByText('14-day free trial')).toBeNull();

    const growth = card('Growth');
    expect(growth.getByText('$499.50')).toBeTruthy();
    expect(growth.getByText('Save 20% with annual billing')).toBeTruthy();
    expect(growth.getByText('20,000,000 insight tokens')).toBeTruthy();
    expect(growth.getByText('about 50 hours of calls')).toBeTruthy();
    expect(growth.getByText('$0.05 per 1,000 insight tokens beyond your allowance')).toBeTruthy();

    const enterprise = card('Enterprise');
    expect(enterprise.getByText('Custom')).toBeTruthy();
    expect(enterprise.queryByText(/\$/)).toBeNull();
    expect(enterprise.getByText('Unlimited insight tokens')).toBeTruthy();
    expect(enterprise.getByText('Unlimited call time')).toBeTruthy();
    expect(enterprise.getByRole('button', { name: 'Contact Sales' })).toBeTruthy();

    expect(screen.getByRole('heading', { name: 'All Plans Include' })).toBeTruthy();
  });

  it('marks only the popular plan as Most Popular', async () => {
    stubPlans(() => jsonResponse(catalogue));

    renderApp('/pricing');

    await screen.findByRole('article', { name: 'Growth' });
    expect(screen.getAllByText('Most Popular')).toHaveLength(1);
    expect(card('Growth').getByText('Most Popular')).toBeTruthy();
  });

  it('reads the overage price from the server metadata', async () => {
    stubPlans(() => jsonResponse({ ...catalogue, metadata: { overage_pricing: { insight_tokens_per_1000: 0.08 } } }));

    renderApp('/pricing');

    expect(await screen.findAllByText('$0.08 per 1,000 insight tokens beyond your allowance')).toHaveLength(2);
  });

  it('opens the demo modal from Contact Sales and from the call to action', async () => {
    stubPlans(() => jsonResponse(catalogue));
    const { store } = renderApp('/pricing');

    fireEvent.click(await screen.findByRole('button', { name: 'Contact Sales' }));
    expect(await screen.findByRole('dialog', { name: 'Schedule Your Parlance Demo' })).toBeTruthy();

    store.dispatch(demoClosed());
    fireEvent.click(within(screen.getByRole('main')).getByRole('button', { name: 'Request a Demo' }));
    expect(store.getState().demo).toEqual({ open: true, title: 'Schedule Your Parlance Demo' });
  });

  it('says the plans failed to load when the call fails', async () => {
    stubPlans(() => jsonResponse({ error: 'Billing unavailable' }, 503));

    renderApp('/pricing');

    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load pricing plans');
    expect(screen.queryByRole('article')).toBeNull();
  });

  it('says the plans failed to load when the server answers success false', async () => {
    stubPlans(() => jsonResponse({ success: false, plans: [], metadata: { overage_pricing: { insight_tokens_per_1000: 0.05 } } }));

    renderApp('/pricing');

    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load pricing plans');
  });
});
