import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderApp } from '../../testing/render-app';
import { jsonResponse } from '../../testing/json-response';

const DEMO_TITLE = 'Schedule Your Parlance Demo';

async function renderHome() {
  const view = renderApp('/');
  await screen.findByRole('heading', { level: 1, name: 'Transform business communications into Insights' });
  // The top bar may carry its own demo button: the page's buttons are the ones inside <main>.
  return { ...view, main: within(screen.getByRole('main')) };
}

describe('home page', () => {
  beforeEach(() => {
    // The home page calls nothing; anything the layout asks for gets a harmless answer.
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse({ error: 'Not found' }, 404)));
  });

  it('shows every section of the landing page', async () => {
    const { main } = await renderHome();

    expect(main.getByRole('img', { name: 'Demo video coming soon' })).toBeTruthy();
    expect(main.getByRole('heading', { level: 2, name: 'How It Works' })).toBeTruthy();
    const steps = main.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(steps.slice(0, 8)).toEqual([
      'Call recording',
      'Meeting recording',
      'CRM sync',
      'Analysis platform',
      'Transcription',
      'Auto-score',
      'Analytics dashboard',
      'Action plan',
    ]);

    expect(main.getByRole('heading', { level: 2, name: 'Proven Results' })).toBeTruthy();
    const results = main.getByRole('heading', { name: 'Proven Results' }).parentElement!;
    const figures = within(results)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(figures).toEqual([
      '100%of conversations captured and assessed',
      '100%objective analysis',
      '180+minutes saved daily per employee',
      '+40%customer satisfaction',
      '+30%conversion rate',
      '+20%sales growth',
    ]);

    const badges = within(main.getByRole('list', { name: 'Compliance' }))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(badges).toEqual(['GDPR-ready', 'CCPA', 'HIPAA', 'SOC 2 Type II', 'ISO 27001']);
    expect(main.getByRole('button', { name: 'Schedule Demo' })).toBeTruthy();
  });

  it('opens the demo modal from the hero button', async () => {
    const { main, store } = await renderHome();

    fireEvent.click(main.getByRole('button', { name: 'Request a Demo' }));

    expect(await screen.findByRole('dialog', { name: DEMO_TITLE })).toBeTruthy();
    expect(store.getState().demo).toEqual({ open: true, title: DEMO_TITLE });
  });

  it('opens the demo modal from the closing call to action', async () => {
    const { main } = await renderHome();

    fireEvent.click(main.getByRole('button', { name: 'Schedule Demo' }));

    expect(await screen.findByRole('dialog', { name: DEMO_TITLE })).toBeTruthy();
  });

  it('shows the Leaders tab first and switches tabs on click', async () => {
    const { main } = await renderHome();

    const tabs = main.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Leaders', 'HR', 'Sales', 'Support']);
    expect(tabs.map((tab) => tab.getAttribute('aria-selected'))).toEqual(['true', 'false', 'false', 'false']);
    expect(within(main.getByRole('tabpanel')).getByRole('button', { name: 'See Demo for Leaders' })).toBeTruthy();

    fireEvent.click(main.getByRole('tab', { name: 'Sales' }));

    expect(main.getByRole('tab', { name: 'Sales' }).getAttribute('aria-selected')).toBe('true');
    expect(main.getByRole('tab', { name: 'Leaders' }).getAttribute('aria-selected')).toBe('false');
    const panel = main.getByRole('tabpanel', { name: 'Sales' });
    expect(within(panel).getByRole('heading', { name: 'Turn every call into coaching' })).toBeTruthy();
    expect(main.queryByRole('button', { name: 'See Demo for Leaders' })).toBeNull();

    fireEvent.click(within(panel).getByRole('button', { name: 'See Demo for Sales' }));

    expect(await screen.findByRole('dialog', { name: DEMO_TITLE })).toBeTruthy();
  });

  it('moves between tabs with the arrow keys', async () => {
    const { main } = await renderHome();

    fireEvent.keyDown(main.getByRole('tab', { name: 'Leaders' }), { key: 'ArrowRight' });
    expect(main.getByRole('tab', { name: 'HR' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(main.getByRole('tab', { name: 'HR' }));
    expect(main.getByRole('button', { name: 'See Demo for HR' })).toBeTruthy();

    fireEvent.keyDown(main.getByRole('tab', { name: 'HR' }), { key: 'ArrowLeft' });
    fireEvent.keyDown(main.getByRole('tab', { name: 'Leaders' }), { key: 'ArrowLeft' });
    expect(main.getByRole('tab', { name: 'Support' }).getAttribute('aria-selected')).toBe('true');
  });
});
