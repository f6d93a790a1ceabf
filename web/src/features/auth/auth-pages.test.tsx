import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../testing/render-app';
import { jsonResponse } from '../../testing/json-response';
import { signedInState, testAdmin, testCompany } from '../../testing/signed-in';
import { AUTH_FLAG_KEY } from '../../lib/auth/session';

type Sent = { method: string; path: string; search: string; body: unknown; csrf: string | null };
type Route = (request: Request) => Response | Promise<Response>;

function stubApi(routes: Record<string, Route>) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      const text = request.method === 'GET' ? '' : await request.clone().text();
      sent.push({ method: request.method, path: url.pathname, search: url.search, body: text ? JSON.parse(text) : undefined, csrf: request.headers.get('x-csrf-token') });
      const route = routes[`${request.method} ${url.pathname}`];
      if (route) return route(request);
      if (url.pathname === '/api/csrf-token') return jsonResponse({ csrfToken: 'csrf-1' });
      if (url.pathname === '/api/web-config') return jsonResponse({ googleClientId: null, demoSchedulingUrl: null, demoContactEmail: 'd@example.com', analyticsScriptUrl: null });
      return jsonResponse({ error: 'not here' }, 404);
    }),
  );
  return sent;
}

const session = { user: testAdmin, company: testCompany, csrfToken: 'csrf-after-login' };

beforeEach(() => {
  localStorage.clear();
  window.dataLayer = [];
});
afterEach(() => vi.useRealTimers());

describe('login page', () => {
  it("asks for both fields with the spec's message before calling the server", async () => {
    const sent = stubApi({});
    renderApp('/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Email and password are required.');
    expect(sent.some((request) => request.path === '/api/auth/login')).toBe(false);
  });

  it('signs in: sends the credentials with a CSRF token, stores the flag, counts the event and goes to /dashboard', async () => {
    const sent = stubApi({ 'POST /api/auth/login': () => jsonResponse(session) });
    const { router, store } = renderApp('/login');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: ' ada@example.com ' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Engines-and-looms-1843' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    const login = sent.find((request) => request.path === '/api/auth/login');
    expect(login).toMatchObject({ method: 'POST', body: { email: 'ada@example.com', password: 'Engines-and-looms-1843' }, csrf: 'csrf-1' });
    expect(store.getState().auth).toMatchObject({ status: 'authenticated', user: testAdmin, company: testCompany });
    expect(store.getState().csrf.token).toBe('csrf-after-login');
    expect(localStorage.getItem(AUTH_FLAG_KEY)).toBe('true');
    expect(window.dataLayer).toContainEqual({ event: 'login', app_version: '7.0.0', company_id: 'c-1' });
  });

  it("shows the server's sentence when the credentials are refused, and stays signed out", async () => {
    stubApi({ 'POST /api/auth/login': () => jsonResponse({ error: 'Invalid email or password.' }, 401) });
    const { store } = renderApp('/login');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong-password-here' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email or password.');
    expect(store.getState().auth.status).toBe('unauthenticated');
  });

  it('signs up with firstName, lastName, email and password, then shows the e-mail-sent page without signing in', async () => {
    const sent = stubApi({
      'POST /api/auth/signup': () => jsonResponse({ success: true, emailSent: true, email: 'grace@example.com', message: 'sent' }),
    });
    const { router, store } = renderApp('/login?mode=signup');
    fireEvent.change(await screen.findByLabelText('First name'), { target: { value: 'Grace' } });
    fireEvent.change(screen.getByLabelText('Last name'), { target: { value: 'Hopper' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'grace@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Compilers-since-1952' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/email-sent'));
    expect(router.state.location.search).toBe('?email=grace%40example.com');
    expect(sent.find((request) => request.path === '/api/auth/signup')?.body).toEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
      password: 'Compilers-since-1952',
    });
    expect(await screen.findByText('grace@example.com')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign up again' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/login');
    expect(store.getState().auth.status).toBe('unauthenticated');
  });

  it('sends a signed-in person on to /dashboard', async () => {
    stubApi({});
    const { router } = renderApp('/login', signedInState());
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it("opens the demo modal from 'Request a demo to start'", async () => {
    stubApi({});
    renderApp('/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Request a demo to start' }));
    expect(await screen.findByRole('dialog', { name: 'Schedule Your Parlance Demo' })).toBeTruthy();
  });
});

describe('login page with Google', () => {
  afterEach(() => {
    delete window.google;
  });

  // A stand-in for Google Identity Services as its documentation describes it: initialize() takes
  // the client id and a callback, renderButton() draws the button, and a sign-in calls the
  // callback with { credential: <ID token> }.
  function fakeGoogleIdentity(credential: string) {
    const initialized: Array<{ client_id: string }> = [];
    window.google = {
      accounts: {
        id: {
          initialize(options) {
            initialized.push(options);
            this.callback = options.callback;
          },
          renderButton(parent) {
            const button = document.createElement('button');
            button.textContent = 'Continue with Google';
            button.addEventListener('click', () => (this as unknown as { callback: (r: { credential?: string }) => void }).callback({ credential }));
            parent.appendChild(button);
          },
        } as GoogleId,
      },
    };
    return initialized;
  }
  type GoogleId = NonNullable<Window['google']>['accounts']['id'] & { callback?: unknown };

  it('shows no Google button when the deployment has no client id', async () => {
    stubApi({});
    renderApp('/login');
    await screen.findByRole('button', { name: 'Sign In' });
    expect(screen.queryByText('or with your e-mail')).toBeNull();
  });

  it("signs in with Google's ID token when a client id is configured, and counts a new account as a signup", async () => {
    const initialized = fakeGoogleIdentity('header.payload.signature');
    const sent = stubApi({
      'GET /api/web-config': () =>
        jsonResponse({ googleClientId: 'web-client.apps.example', demoSchedulingUrl: null, demoContactEmail: 'd@example.com', analyticsScriptUrl: null }),
      'POST /api/auth/google-signup': () => jsonResponse({ ...session, created: true }),
    });
    const { router, store } = renderApp('/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(initialized.map((options) => options.client_id)).toEqual(['web-client.apps.example']);
    expect(sent.find((request) => request.path === '/api/auth/google-signup')?.body).toEqual({ idToken: 'header.payload.signature' });
    expect(store.getState().auth.status).toBe('authenticated');
    expect(window.dataLayer).toContainEqual({ event: 'signup', app_version: '7.0.0', company_id: 'c-1' });
  });

  it("passes Google sign-in's failure to the page", async () => {
    fakeGoogleIdentity('expired.token.here');
    stubApi({
      'GET /api/web-config': () =>
        jsonResponse({ googleClientId: 'web-client.apps.example', demoSchedulingUrl: null, demoContactEmail: 'd@example.com', analyticsScriptUrl: null }),
      'POST /api/auth/google-signup': () => jsonResponse({ error: 'Google could not confirm who you are. Please try again.' }, 401),
    });
    renderApp('/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Google could not confirm who you are. Please try again.');
  });
});

describe('e-mail verification page', () => {
  it("fails at once without a token: 'Invalid verification link'", async () => {
    const sent = stubApi({});
    renderApp('/auth/verify-email');
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid verification link');
    expect(sent.some((request) => request.path === '/api/auth/verify-email')).toBe(false);
    const page = within(screen.getByRole('main'));
    expect(page.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/login?mode=signup');
    expect(page.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login');
  });

  it('verifies once, signs in, and moves on to /dashboard after 3 seconds', async () => {
    const sent = stubApi({ 'POST /api/auth/verify-email': () => jsonResponse(session) });
    const { router, store } = renderApp('/auth/verify-email?token=tok-123');
    expect(await screen.findByRole('heading', { name: 'E-mail verified' })).toBeTruthy();
    expect(sent.filter((request) => request.path === '/api/auth/verify-email')).toEqual([
      expect.objectContaining({ method: 'POST', body: { token: 'tok-123' } }),
    ]);
    expect(store.getState().auth.status).toBe('authenticated');
    expect(window.dataLayer).toContainEqual({ event: 'email_verified', app_version: '7.0.0', company_id: 'c-1' });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(router.state.location.pathname).toBe('/auth/verify-email');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'), { timeout: 2000 });
  });

  it("shows the server's message, or 'Invalid verification response' for a reply without a session", async () => {
    stubApi({ 'POST /api/auth/verify-email': () => jsonResponse({ error: 'This verification link has expired.' }, 400) });
    const first = renderApp('/auth/verify-email?token=old');
    expect((await screen.findByRole('alert')).textContent).toBe('This verification link has expired.');
    first.unmount();

    stubApi({ 'POST /api/auth/verify-email': () => jsonResponse({ user: testAdmin, csrfToken: 'x' }) });
    renderApp('/auth/verify-email?token=odd');
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid verification response');
  });
});

describe('invitation acceptance page', () => {
  it('fails at once without a token', async () => {
    const sent = stubApi({});
    renderApp('/auth/accept-invite');
    expect((await screen.findByRole('alert')).textContent).toBe('No invitation token found. Please check your invite link.');
    expect(sent.some((request) => request.path === '/api/auth/accept-invite')).toBe(false);
    expect(screen.getByRole('link', { name: 'Return Home' }).getAttribute('href')).toBe('/home');
  });

  it('accepts and leads to sign-up with the invited address when it has no account yet', async () => {
    const sent = stubApi({
      'GET /api/auth/accept-invite': () =>
        jsonResponse({
          success: true,
          message: 'Invitation accepted. Sign up with kim@example.com to join Analytical Engines Ltd.',
          email: 'kim@example.com',
          requiresSignUp: true,
          requiresSignIn: false,
          companyName: 'Analytical Engines Ltd',
          role: 'manager',
        }),
    });
    renderApp('/auth/accept-invite?token=inv-1');
    expect(await screen.findByText('Invitation accepted. Sign up with kim@example.com to join Analytical Engines Ltd.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create your account' }).getAttribute('href')).toBe('/login?mode=signup&email=kim%40example.com');
    expect(sent.filter((request) => request.path === '/api/auth/accept-invite').map((request) => request.search)).toEqual(['?token=inv-1']);
  });

  it("shows the server's reason, or 'Invalid or expired invitation.' without one", async () => {
    stubApi({ 'GET /api/auth/accept-invite': () => jsonResponse({ error: 'This invitation has expired.' }, 400) });
    const first = renderApp('/auth/accept-invite?token=old');
    expect((await screen.findByRole('alert')).textContent).toBe('This invitation has expired.');
    first.unmount();
    stubApi({ 'GET /api/auth/accept-invite': () => new Response('gateway down', { status: 502 }) });
    renderApp('/auth/accept-invite?token=old');
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid or expired invitation.');
  });
});

describe('second-CRM outcome pages', () => {
  it('link to the dashboard and integrations on success, and to integrations on failure', async () => {
    stubApi({});
    const first = renderApp('/hubspot-oauth-success');
    expect((await screen.findByRole('link', { name: 'Go to Dashboard' })).getAttribute('href')).toBe('/dashboard');
    expect(screen.getByRole('link', { name: 'View Integrations' }).getAttribute('href')).toBe('/integrations');
    first.unmount();
    renderApp('/hubspot-oauth-failed');
    expect((await screen.findByRole('alert')).textContent).toContain('cancelled');
    expect(screen.getByRole('link', { name: 'Back to Integrations' }).getAttribute('href')).toBe('/integrations');
  });
});
