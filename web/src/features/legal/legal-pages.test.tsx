import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderApp } from '../../testing/render-app';
import { jsonResponse } from '../../testing/json-response';

async function renderLegal(path: string, title: string) {
  renderApp(path);
  await screen.findByRole('heading', { level: 1, name: title });
  const main = screen.getByRole('main');
  return { main, text: main.textContent ?? '' };
}

describe('legal pages', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse({ error: 'Not found' }, 404)));
  });

  it.each([
    ['/terms', 'Terms of Service'],
    ['/privacy', 'Privacy Policy'],
    ['/dpa', 'Data Processing Addendum'],
    ['/subprocessors', 'Sub-processors'],
    ['/cookies', 'Cookie Policy'],
  ])('%s has a title, a last-updated date and sections', async (path, title) => {
    const { main } = await renderLegal(path, title);

    expect(within(main).getByText(/^Last updated: \d{1,2} \w+ \d{4}$/)).toBeTruthy();
    expect(within(main).getAllByRole('heading', { level: 2 }).length).toBeGreaterThanOrEqual(3);
  });

  it('terms state the 14-day free trial and the minimum age of 18', async () => {
    const { main, text } = await renderLegal('/terms', 'Terms of Service');

    expect(within(main).getByRole('heading', { name: '3. Free trial' })).toBeTruthy();
    expect(text).toContain('free of charge for 14 days');
    expect(text).toContain('at least 18 years old');
  });

  it('the privacy policy keeps conversation and CRM data up to 90 days and mentions analytics and age', async () => {
    const { text } = await renderLegal('/privacy', 'Privacy Policy');

    expect(text).toContain('Conversation and CRM data are kept for up to 90 days by default');
    expect(text).toContain('third-party web analytics script');
    expect(text).toContain('aged 18 and over');
  });

  it('the DPA promises breach notice within 72 hours', async () => {
    const { text } = await renderLegal('/dpa', 'Data Processing Addendum');

    expect(text).toContain('in any event within 72 hours');
    expect(text).toContain('up to 90 days by default');
  });

  it('the sub-processor list is a table and says self-hosters choose their own', async () => {
    const { main, text } = await renderLegal('/subprocessors', 'Sub-processors');

    const rows = within(within(main).getByRole('table'))
      .getAllByRole('rowheader')
      .map((cell) => cell.textContent);
    expect(rows).toEqual([
      'Cloud hosting provider',
      'E-mail delivery provider',
      'AI model provider',
      'Google LLC (Google sign-in)',
      'Web analytics provider',
    ]);
    expect(text).toContain('Customers who self-host Parlance choose their own providers');
  });

  it('the cookie policy names the session cookies and the analytics script', async () => {
    const { text } = await renderLegal('/cookies', 'Cookie Policy');

    expect(text).toContain('parlance_session');
    expect(text).toContain('third-party web analytics script');
  });
});
