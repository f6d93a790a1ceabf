import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderApp } from '../testing/render-app';

describe('app routes', () => {
  it('shows the home page at /', async () => {
    renderApp('/');

    expect(
      await screen.findByRole('heading', { name: 'Transform business communications into Insights' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Parlance' })).toBeTruthy();
  });

  it('shows the not-found page for an unknown path, inside the layout', async () => {
    renderApp('/no-such-page');

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText('/no-such-page')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
  });

  it('takes the user home from the not-found page', async () => {
    const { router } = renderApp('/no-such-page');

    fireEvent.click(await screen.findByRole('link', { name: 'Go to the home page' }));

    expect(
      await screen.findByRole('heading', { name: 'Transform business communications into Insights' }),
    ).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it('links the top bar to the main areas of the product', async () => {
    renderApp('/');

    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const links = Array.from(nav.querySelectorAll('a')).map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Dashboard', '/dashboard'],
      ['Activities', '/activities'],
      ['Teams', '/teams'],
      ['Integrations', '/integrations'],
      ['Settings', '/settings'],
    ]);
  });
});
