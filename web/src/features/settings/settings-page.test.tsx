import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../testing/render-app';
import { jsonResponse } from '../../testing/json-response';
import { ADMIN, MANAGER, signedInAs, stubGateway } from './settings-fixtures';
import { reloadPage } from './reload-page';

vi.mock('./reload-page', () => ({ reloadPage: vi.fn() }));

afterEach(() => {
  vi.mocked(reloadPage).mockClear();
  vi.restoreAllMocks();
});

const tabNames = () => screen.getAllByRole('tab').map((tab) => tab.textContent);

describe('settings page tabs', () => {
  it('shows the six tabs and opens the one named in ?tab=', async () => {
    stubGateway({
      'GET /api/billing/subscription': () => jsonResponse({ error: 'x' }, 500),
    });
    renderApp('/settings?tab=security', signedInAs(ADMIN));

    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    expect(screen.getByRole('tablist')).toBeTruthy();
    expect(tabNames()).toEqual([
      'My Profile',
      'Notifications',
      'Security and Data',
      'Billing and Usage',
      'Members',
      'Audit Log (locked: Enterprise plan only)',
    ]);
    const security = screen.getByRole('tab', { name: 'Security and Data' });
    expect(security.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'Security and Data' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'My Profile' }).getAttribute('aria-selected')).toBe('false');
  });

  it('keeps the chosen tab in the URL so a reload reopens it', async () => {
    stubGateway({
      'GET /api/billing/subscription': () => jsonResponse({ error: 'x' }, 500),
    });
    const { router } = renderApp('/settings', signedInAs(ADMIN));

    const billing = await screen.findByRole('tab', {
      name: 'Billing and Usage',
    });
    expect(screen.getByRole('tab', { name: 'My Profile' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(billing);

    expect(router.state.location.search).toBe('?tab=billing');
    expect(billing.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('heading', { level: 2, name: 'Billing and Usage' })).toBeTruthy();
  });

  it('moves between tabs with the arrow keys, Home and End', async () => {
    stubGateway({});
    const { router } = renderApp('/settings?tab=profile', signedInAs(ADMIN));

    const profile = await screen.findByRole('tab', { name: 'My Profile' });
    fireEvent.keyDown(profile, { key: 'ArrowRight' });
    expect(router.state.location.search).toBe('?tab=notifications');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Notifications' }));
    fireEvent.keyDown(document.activeElement as Element, { key: 'End' });
    expect(router.state.location.search).toBe('?tab=audit-log');
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowRight' });
    expect(router.state.location.search).toBe('?tab=profile');
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowLeft' });
    expect(router.state.location.search).toBe('?tab=audit-log');
  });

  it('locks Members for a manager, with words a screen reader reads', async () => {
    stubGateway({ 'GET /api/settings/members': () => jsonResponse([]) });
    renderApp('/settings', signedInAs(MANAGER));

    expect(
      await screen.findByRole('tab', {
        name: 'Members (locked: Admin users only)',
      }),
    ).toBeTruthy();
    expect(
      screen.getByRole('tab', {
        name: 'Audit Log (locked: Enterprise plan only)',
      }),
    ).toBeTruthy();
  });

  it('shows the Audit Log as a labelled, disabled sample with Upgrade to Enterprise opening the demo', async () => {
    stubGateway({});
    const { store } = renderApp('/settings?tab=audit-log', signedInAs(ADMIN));

    const panel = await screen.findByRole('tabpanel', {
      name: 'Audit Log (locked: Enterprise plan only)',
    });
    expect(within(panel).getByText('The Audit Log is available on Enterprise plans only.', { exact: false })).toBeTruthy();
    expect(within(panel).getByText("Sample data: these events are examples, not your company's activity.")).toBeTruthy();
    const sample = within(panel).getByRole('table');
    expect(sample.closest('[aria-disabled="true"]')).toBeTruthy();

    fireEvent.click(within(panel).getByRole('button', { name: 'Upgrade to Enterprise' }));
    expect(store.getState().demo).toEqual({
      open: true,
      title: 'Schedule Your Parlance Demo',
    });
    expect(
      await screen.findByRole('dialog', {
        name: 'Schedule Your Parlance Demo',
      }),
    ).toBeTruthy();
  });
});

describe('My Profile', () => {
  it('edits first and last name, shows the e-mail read-only, and says when nothing changed', async () => {
    const gateway = stubGateway({});
    renderApp('/settings?tab=profile', signedInAs(ADMIN));

    const first = (await screen.findByLabelText('First name')) as HTMLInputElement;
    const last = screen.getByLabelText('Last name') as HTMLInputElement;
    const email = screen.getByLabelText('Email') as HTMLInputElement;
    expect([first.value, last.value, email.value]).toEqual(['Ana', 'Lopez', 'ana@example.com']);
    expect(email.readOnly).toBe(true);

    fireEvent.change(first, { target: { value: ' Ana ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(screen.getByRole('alert').textContent).toBe('No changes made to the profile.');
    expect(gateway.changes()).toEqual([]);
  });

  it('saves the new names with PUT and reloads the page', async () => {
    const gateway = stubGateway({
      'PUT /api/settings/profile/update': () =>
        jsonResponse({
          success: true,
          user: { ...ADMIN, lastName: 'Lopez-Diaz' },
        }),
    });
    const { store } = renderApp('/settings?tab=profile', signedInAs(ADMIN));

    fireEvent.change(await screen.findByLabelText('Last name'), {
      target: { value: 'Lopez-Diaz ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
    expect(gateway.changes()).toEqual([
      {
        method: 'PUT',
        path: '/api/settings/profile/update',
        body: { firstName: 'Ana', lastName: 'Lopez-Diaz' },
      },
    ]);
    expect(store.getState().auth.user?.lastName).toBe('Lopez-Diaz');
  });

  it("alerts 'Failed to update profile' when the save fails", async () => {
    stubGateway({
      'PUT /api/settings/profile/update': () =>
        jsonResponse(
          {
            error: 'Last name is required.',
            message: 'Last name is required.',
          },
          400,
        ),
    });
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    renderApp('/settings?tab=profile', signedInAs(ADMIN));

    fireEvent.change(await screen.findByLabelText('First name'), {
      target: { value: 'Anna' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(alert).toHaveBeenCalledWith('Failed to update profile'));
    expect(reloadPage).not.toHaveBeenCalled();
  });
});

describe('Notifications and Security and Data', () => {
  it('lists the e-mails Parlance sends and says preferences are not configurable', async () => {
    stubGateway({});
    renderApp('/settings?tab=notifications', signedInAs(ADMIN));

    const panel = await screen.findByRole('tabpanel', {
      name: 'Notifications',
    });
    expect(within(panel).getByText('E-mail address verification')).toBeTruthy();
    expect(within(panel).getByText('Invitations')).toBeTruthy();
    expect(within(panel).getByText('Per-user notification preferences are not configurable in this version.')).toBeTruthy();
    expect(within(panel).queryByRole('checkbox')).toBeNull();
  });

  it('states the real protections, the signed-in account and links the privacy policy and DPA', async () => {
    stubGateway({});
    renderApp('/settings?tab=security', signedInAs(MANAGER));

    const panel = await screen.findByRole('tabpanel', {
      name: 'Security and Data',
    });
    expect(within(panel).getByText('sam+sales@example.com')).toBeTruthy();
    expect(within(panel).getByText('Manager')).toBeTruthy();
    expect(panel.textContent).toContain('argon2id');
    expect(panel.textContent).toContain('CSRF token');
    expect(panel.textContent).toContain('hash of the session token');
    expect(within(panel).getByText('Conversation and CRM data are kept for up to 90 days by default.')).toBeTruthy();
    expect(within(panel).getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
    expect(within(panel).getByRole('link', { name: 'Data Processing Agreement' }).getAttribute('href')).toBe('/dpa');
  });
});
