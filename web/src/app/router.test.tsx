import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../testing/render-app';
import { jsonResponse } from '../testing/json-response';
import { signedInState, testAdmin, testCompany } from '../testing/signed-in';
import { isPublicPath } from './public-paths';
import { AUTH_FLAG_KEY } from '../lib/auth/session';
import { SELECTED_DEPARTMENT_KEY } from '../lib/auth/department-slice';

type Route = (request: Request) => Response | Promise<Response>;

function stubApi(routes: Record<string, Route> = {}) {
  const calls: string[] = [];
  const fetchMock = vi.fn(async (request: Request) => {
    const { pathname } = new URL(request.url);
    calls.push(`${request.method} ${pathname}`);
    const route = routes[`${request.method} ${pathname}`];
    if (route) return route(request);
    if (pathname === '/api/web-config') {
      return jsonResponse({ googleClientId: null, demoSchedulingUrl: null, demoContactEmail: 'demo@example.com', analyticsScriptUrl: null });
    }
    if (pathname === '/api/csrf-token') return jsonResponse({ csrfToken: 'csrf-1' });
    return jsonResponse({ error: `unexpected ${request.method} ${pathname}` }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

const mainLinks = async () => {
  const nav = await screen.findByRole('navigation', { name: 'Main' });
  return Array.from(nav.querySelectorAll('a')).map((a) => [a.textContent, a.getAttribute('href')]);
};

beforeEach(() => localStorage.clear());
afterEach(() => localStorage.clear());

describe('routing (spec part 1 §2)', () => {
  it('opens the public paths and no others', () => {
    for (const path of ['/', '/home', '/login', '/pricing', '/calculator', '/terms', '/privacy', '/dpa', '/subprocessors', '/cookies']) {
      expect(isPublicPath(path)).toBe(true);
    }
    for (const path of ['/auth/accept-invite', '/auth/email-sent', '/auth/verify-email', '/hubspot-oauth-success', '/hubspot-oauth-failed']) {
      expect(isPublicPath(path)).toBe(true);
    }
    for (const path of ['/teams', '/teams/new', '/settings', '/dashboard', '/activities', '/integrations', '/no-such-page']) {
      expect(isPublicPath(path)).toBe(false);
    }
  });

  it('shows the home page at / to a visitor without asking the server for a session', async () => {
    const calls = stubApi();
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Transform business communications into Insights' })).toBeTruthy();
    expect(calls).not.toContain('GET /api/auth/session');
  });

  it('sends a signed-out visitor of any other path, known or not, to /login', async () => {
    stubApi();
    for (const path of ['/teams', '/settings', '/no-such-page']) {
      const { router, unmount } = renderApp(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 5000 });
      unmount();
    }
  });

  it('restores a stored session, and shows a signed-in person the not-found page for an unknown path', async () => {
    localStorage.setItem(AUTH_FLAG_KEY, 'true');
    stubApi({ 'GET /api/auth/session': () => jsonResponse({ user: testAdmin, company: testCompany }) });
    const { router } = renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/no-such-page');
    expect(localStorage.getItem(SELECTED_DEPARTMENT_KEY)).toBe('sales');
  });

  it('treats a session without a company as signed out: clears the flag and goes to /login', async () => {
    localStorage.setItem(AUTH_FLAG_KEY, 'true');
    stubApi({ 'GET /api/auth/session': () => jsonResponse({ user: testAdmin, company: null }) });
    const { router } = renderApp('/teams');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 5000 });
    expect(localStorage.getItem(AUTH_FLAG_KEY)).toBeNull();
  });

  it('treats a failed session lookup as signed out but keeps a public page open', async () => {
    localStorage.setItem(AUTH_FLAG_KEY, 'true');
    stubApi({ 'GET /api/auth/session': () => jsonResponse({ error: 'Not signed in.' }, 401) });
    const { router, store } = renderApp('/pricing');
    await waitFor(() => expect(store.getState().auth.status).toBe('unauthenticated'));
    expect(router.state.location.pathname).toBe('/pricing');
    expect(localStorage.getItem(AUTH_FLAG_KEY)).toBeNull();
  });

  it('signs out and goes to /login when the server says the session has ended', async () => {
    localStorage.setItem(AUTH_FLAG_KEY, 'true');
    stubApi({ 'GET /api/billing/subscription': () => jsonResponse({ error: 'Please sign in to continue.', message: 'Please sign in to continue.' }, 401) });
    const { router, store } = renderApp('/settings?tab=billing', signedInState());
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 5000 });
    expect(store.getState().auth.status).toBe('unauthenticated');
    expect(localStorage.getItem(AUTH_FLAG_KEY)).toBeNull();
  });

  it('keeps the stored department when the company still has it, and otherwise stores the first', async () => {
    localStorage.setItem(AUTH_FLAG_KEY, 'true');
    localStorage.setItem(SELECTED_DEPARTMENT_KEY, 'support');
    stubApi({ 'GET /api/auth/session': () => jsonResponse({ user: testAdmin, company: testCompany }) });
    const first = renderApp('/no-such-page');
    await waitFor(() => expect(first.store.getState().department.active).toBe('support'));
    first.unmount();

    localStorage.setItem(SELECTED_DEPARTMENT_KEY, 'hr');
    const second = renderApp('/no-such-page');
    await waitFor(() => expect(second.store.getState().department.active).toBe('sales'));
    expect(localStorage.getItem(SELECTED_DEPARTMENT_KEY)).toBe('sales');
  });
});

describe('top bar (spec part 1 §2)', () => {
  it('offers a visitor the public pages, Login and Request a Demo; the logo goes home', async () => {
    stubApi();
    renderApp('/');
    expect(await mainLinks()).toEqual([
      ['Home', '/home'],
      ['ROI Calculator', '/calculator'],
      ['Pricing', '/pricing'],
      ['Login', '/login'],
    ]);
    expect(screen.getByRole('link', { name: 'Parlance' }).getAttribute('href')).toBe('/home');
    fireEvent.click(screen.getAllByRole('button', { name: 'Request a Demo' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Schedule Your Parlance Demo' });
    expect(within(dialog).getByText('Your information is secure and will only be used for scheduling purposes.')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'demo@example.com' })).toBeTruthy();
  });

  it('frames the scheduling page when the deployment has one, and closes on the backdrop', async () => {
    stubApi({
      'GET /api/web-config': () =>
        jsonResponse({ googleClientId: null, demoSchedulingUrl: 'https://calendar.example.com/demo', demoContactEmail: 'x@example.com', analyticsScriptUrl: null }),
    });
    renderApp('/');
    await screen.findByRole('navigation', { name: 'Main' });
    await waitFor(() => expect(document.querySelector('.top-bar')).toBeTruthy());
    fireEvent.click(screen.getAllByRole('button', { name: 'Request a Demo' })[0]!);
    const frame = await screen.findByTitle('Schedule a Demo');
    expect(frame.getAttribute('src')).toBe('https://calendar.example.com/demo');
    fireEvent.mouseDown(screen.getByTestId('modal-backdrop'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('offers a signed-in person the work areas, the department switcher and the user menu; the logo goes to the dashboard', async () => {
    stubApi();
    renderApp('/no-such-page', signedInState());
    expect(await mainLinks()).toEqual([
      ['Dashboard', '/dashboard'],
      ['Activities', '/activities'],
      ['Teams', '/teams'],
    ]);
    expect(screen.getByRole('link', { name: 'Parlance' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.getByRole('button', { name: 'Department: Sales' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ada Lovelace' })).toBeTruthy();
  });

  it('keeps one dropdown open at a time and closes it on an outside click', async () => {
    stubApi();
    renderApp('/no-such-page', signedInState());
    fireEvent.click(await screen.findByRole('button', { name: 'Department: Sales' }));
    expect(screen.getByRole('list', { name: 'Departments' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Ada Lovelace' }));
    expect(screen.queryByRole('list', { name: 'Departments' })).toBeNull();
    const account = screen.getByRole('list', { name: 'Account' });
    expect(within(account).getAllByRole('link').map((link) => link.textContent)).toEqual(['Settings', 'Integrations']);
    fireEvent.mouseDown(document.body);
    expect(screen.queryByRole('list', { name: 'Account' })).toBeNull();
  });

  it('switches the department and stores the choice', async () => {
    stubApi();
    const { store } = renderApp('/no-such-page', signedInState());
    fireEvent.click(await screen.findByRole('button', { name: 'Department: Sales' }));
    fireEvent.click(screen.getByRole('button', { name: 'Customer Support' }));
    expect(store.getState().department.active).toBe('support');
    expect(localStorage.getItem(SELECTED_DEPARTMENT_KEY)).toBe('support');
    expect(screen.getByRole('button', { name: 'Department: Customer Support' })).toBeTruthy();
  });

  it('logs out to /home: the server session ends and the storage flag is cleared', async () => {
    localStorage.setItem(AUTH_FLAG_KEY, 'true');
    const calls = stubApi({ 'POST /api/auth/logout': () => jsonResponse({ success: true }) });
    const { router, store } = renderApp('/no-such-page', signedInState());
    fireEvent.click(await screen.findByRole('button', { name: 'Ada Lovelace' }));
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(calls).toContain('POST /api/auth/logout');
    expect(store.getState().auth.status).toBe('unauthenticated');
    expect(localStorage.getItem(AUTH_FLAG_KEY)).toBeNull();
    expect(window.dataLayer?.at(-1)).toEqual({ event: 'logout', app_version: '7.0.0', company_id: 'c-1' });
  });

  it('deepens its shadow once the page is scrolled past 10 pixels', async () => {
    stubApi();
    renderApp('/');
    const bar = (await screen.findByRole('banner')) as HTMLElement;
    act(() => {
      window.scrollY = 10;
      window.dispatchEvent(new Event('scroll'));
    });
    expect(bar.className).not.toContain('top-bar--scrolled');
    act(() => {
      window.scrollY = 11;
      window.dispatchEvent(new Event('scroll'));
    });
    expect(bar.className).toContain('top-bar--scrolled');
    act(() => {
      window.scrollY = 0;
      window.dispatchEvent(new Event('scroll'));
    });
  });

  it('links the footer to privacy, terms and DPA on every page', async () => {
    stubApi();
    renderApp('/');
    const footer = await screen.findByRole('navigation', { name: 'Footer' });
    const links = within(footer).getAllByRole('link').map((link) => link.getAttribute('href'));
    expect(links).toEqual(expect.arrayContaining(['/privacy', '/terms', '/dpa']));
  });
});
