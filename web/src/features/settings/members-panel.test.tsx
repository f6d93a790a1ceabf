import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../testing/render-app';
import { jsonResponse } from '../../testing/json-response';
import { ADMIN, MANAGER, MEMBERS, signedInAs, stubGateway } from './settings-fixtures';

afterEach(() => {
  vi.useRealTimers();
});

const listMembers = () => jsonResponse(MEMBERS);

async function openMembers(user = ADMIN, routes: Parameters<typeof stubGateway>[0] = {}) {
  const gateway = stubGateway({
    'GET /api/settings/members': listMembers,
    ...routes,
  });
  const view = renderApp('/settings?tab=members', signedInAs(user));
  const list = await screen.findByRole('list', { name: 'Company members' });
  return { ...view, gateway, list };
}

const rowOf = (list: HTMLElement, email: string) => within(list).getByText(email).closest('li') as HTMLElement;

const toastTexts = () => Array.from(document.querySelectorAll('.toast')).map((toast) => toast.textContent);

describe('Members list', () => {
  it('lists the members with Admin in the primary colour and Manager in the info colour', async () => {
    const { list } = await openMembers();

    const ana = rowOf(list, 'ana@example.com');
    const sam = rowOf(list, 'sam+sales@example.com');
    expect(within(ana).getByText('Ana Lopez')).toBeTruthy();
    expect(within(ana).getByText('Admin').className).toBe('badge badge--primary');
    expect(within(sam).getByText('Sam Lee')).toBeTruthy();
    expect(within(sam).getByText('Manager').className).toBe('badge badge--info');
    expect(screen.queryByText('Members management is only available for Admin users')).toBeNull();
  });

  it("shows the error toast 'Failed to load members. Please try again.' when the list fails", async () => {
    stubGateway({
      'GET /api/settings/members': () => jsonResponse({ error: 'boom', message: 'boom' }, 500),
    });
    renderApp('/settings?tab=members', signedInAs(ADMIN));

    const toast = await screen.findByText('Failed to load members. Please try again.');
    expect(toast.className).toBe('toast toast--error');
  });

  it('makes toasts vanish after 3 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubGateway({
      'GET /api/settings/members': () => jsonResponse({ error: 'boom', message: 'boom' }, 500),
    });
    renderApp('/settings?tab=members', signedInAs(ADMIN));
    await screen.findByText('Failed to load members. Please try again.');

    await act(async () => {
      vi.advanceTimersByTime(2_900);
    });
    expect(screen.queryByText('Failed to load members. Please try again.')).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.queryByText('Failed to load members. Please try again.')).toBeNull();
  });
});

describe('Invite form', () => {
  it('keeps Send Invitation disabled until the e-mail looks like text@text.text', async () => {
    await openMembers();
    const email = screen.getByLabelText('Email address');
    const send = screen.getByRole('button', {
      name: 'Send Invitation',
    }) as HTMLButtonElement;

    expect(send.disabled).toBe(true);
    expect(screen.queryByText('Please enter a valid email address')).toBeNull();

    fireEvent.change(email, { target: { value: 'new.person@example' } });
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(send.disabled).toBe(true);

    fireEvent.change(email, { target: { value: 'new.person@example.com' } });
    expect(screen.queryByText('Please enter a valid email address')).toBeNull();
    expect(send.disabled).toBe(false);
  });

  it('offers Manager and Admin with their descriptions', async () => {
    await openMembers();
    const role = screen.getByLabelText('Role') as HTMLSelectElement;
    expect(Array.from(role.options).map((option) => [option.value, option.textContent])).toEqual([
      ['manager', 'Manager – Can view and edit content'],
      ['admin', 'Admin – Full administrative access'],
    ]);
    expect(role.value).toBe('manager');
  });

  it('posts the e-mail and role and shows the success toast', async () => {
    const { gateway } = await openMembers(ADMIN, {
      'POST /api/auth/invite': () =>
        jsonResponse({
          success: true,
          message: 'Invitation sent to new@example.com',
          invitation: {
            email: 'new@example.com',
            role: 'admin',
            expiresAt: '2025-03-10T00:00:00.000Z',
          },
        }),
    });

    fireEvent.change(screen.getByLabelText('Email address'), {
      target: { value: ' new@example.com ' },
    });
    fireEvent.change(screen.getByLabelText('Role'), {
      target: { value: 'admin' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send Invitation' }));

    expect(await screen.findByText('Invitation sent to new@example.com')).toBeTruthy();
    expect(gateway.changes()).toEqual([
      {
        method: 'POST',
        path: '/api/auth/invite',
        body: { email: 'new@example.com', role: 'admin' },
      },
    ]);
    expect((screen.getByLabelText('Email address') as HTMLInputElement).value).toBe('');
  });

  it("shows 'Failed to invite user. Please try again.' when the invitation fails", async () => {
    await openMembers(ADMIN, {
      'POST /api/auth/invite': () =>
        jsonResponse(
          {
            error: 'That person is already a member.',
            message: 'That person is already a member.',
          },
          409,
        ),
    });

    fireEvent.change(screen.getByLabelText('Email address'), {
      target: { value: 'sam@example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send Invitation' }));

    await waitFor(() => expect(toastTexts()).toEqual(['Failed to invite user. Please try again.']));
  });
});

describe('Members for non-admins', () => {
  it('explains that only Admin users manage members and disables every action', async () => {
    const { list, gateway } = await openMembers(MANAGER);

    expect(screen.getByText('Members management is only available for Admin users')).toBeTruthy();
    for (const edit of within(list).getAllByRole('button', { name: /^Edit / })) expect((edit as HTMLButtonElement).disabled).toBe(true);
    expect(
      (
        screen.getByRole('button', {
          name: 'Send Invitation',
        }) as HTMLButtonElement
      ).disabled,
    ).toBe(true);
    // Disabled through its fieldset, which the element's own `disabled` property does not show.
    expect(screen.getByLabelText('Email address').matches(':disabled')).toBe(true);
    expect(screen.getByLabelText('Role').matches(':disabled')).toBe(true);

    fireEvent.change(screen.getByLabelText('Email address'), {
      target: { value: 'x@example.com' },
    });
    fireEvent.submit(screen.getByLabelText('Email address').closest('form') as HTMLFormElement);
    expect(gateway.changes()).toEqual([]);
  });
});

describe('Member edit dialog', () => {
  it("enables 'Update Role' only once the role differs, then PUTs it to the encoded e-mail", async () => {
    const { list, gateway } = await openMembers(ADMIN, {
      'PUT /api/settings/members/sam%2Bsales%40example.com': () =>
        jsonResponse({
          success: true,
          message: 'Member role updated successfully',
          member: { ...MEMBERS[1], role: 'admin' },
        }),
    });

    fireEvent.click(within(list).getByRole('button', { name: 'Edit Sam Lee' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Member' });
    const update = within(dialog).getByRole('button', {
      name: 'Update Role',
    }) as HTMLButtonElement;
    expect(
      (
        within(dialog).getByRole('radio', {
          name: /^Manager/,
        }) as HTMLInputElement
      ).checked,
    ).toBe(true);
    expect(update.disabled).toBe(true);

    fireEvent.click(within(dialog).getByRole('radio', { name: /^Admin/ }));
    expect(update.disabled).toBe(false);
    fireEvent.click(within(dialog).getByRole('radio', { name: /^Manager/ }));
    expect(update.disabled).toBe(true);
    fireEvent.click(within(dialog).getByRole('radio', { name: /^Admin/ }));
    fireEvent.click(update);

    expect(await screen.findByText('Member role updated successfully')).toBeTruthy();
    expect(gateway.changes()).toEqual([
      {
        method: 'PUT',
        path: '/api/settings/members/sam%2Bsales%40example.com',
        body: { role: 'admin' },
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Member' })).toBeNull());
    // The list is fetched again after the change.
    expect(gateway.sent.filter((request) => request.path === '/api/settings/members')).toHaveLength(2);
  });

  it("shows the server's message when a role change is refused, and the default when it gives none", async () => {
    let answer = jsonResponse(
      {
        error: 'The last admin cannot be demoted.',
        message: 'The last admin cannot be demoted.',
      },
      409,
    );
    const { list } = await openMembers(ADMIN, {
      'PUT /api/settings/members/ana%40example.com': () => answer,
    });

    fireEvent.click(within(list).getByRole('button', { name: 'Edit Ana Lopez' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Member' });
    fireEvent.click(within(dialog).getByRole('radio', { name: /^Manager/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update Role' }));
    await waitFor(() => expect(toastTexts()).toEqual(['The last admin cannot be demoted.']));
    expect(screen.getByRole('dialog', { name: 'Edit Member' })).toBeTruthy();

    answer = new Response('', { status: 500 });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update Role' }));
    await waitFor(() => expect(toastTexts()).toContain('Error updating member'));
  });

  it('removes a member only after the second, explicit confirmation', async () => {
    const { list, gateway } = await openMembers(ADMIN, {
      'DELETE /api/settings/members/sam%2Bsales%40example.com': () =>
        jsonResponse({ success: true, message: 'Member removed successfully' }),
    });

    fireEvent.click(within(list).getByRole('button', { name: 'Edit Sam Lee' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Member' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));

    expect(within(dialog).getByText('Remove Sam Lee (sam+sales@example.com) from the company?', { exact: false })).toBeTruthy();
    expect(gateway.changes()).toEqual([]);

    // Cancel goes back to the role choice without removing anyone.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(within(dialog).getByRole('button', { name: 'Update Role' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove Member' }));

    expect(await screen.findByText('Member removed successfully')).toBeTruthy();
    expect(gateway.changes()).toEqual([
      {
        method: 'DELETE',
        path: '/api/settings/members/sam%2Bsales%40example.com',
        body: undefined,
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Member' })).toBeNull());
  });

  it('signs out an admin who removes themselves (the gateway ended their session)', async () => {
    const { list, router, store } = await openMembers(ADMIN, {
      'DELETE /api/settings/members/ana%40example.com': () => jsonResponse({ success: true, message: 'Member removed successfully' }),
    });

    fireEvent.click(within(list).getByRole('button', { name: 'Edit Ana Lopez' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Member' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(within(dialog).getByText('You are removing yourself: you will be signed out.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove Member' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(store.getState().auth.status).toBe('unauthenticated');
  });

  it("says 'Failed to remove member. Please try again.' when the server cannot be reached", async () => {
    const { list } = await openMembers(ADMIN, {
      'DELETE /api/settings/members/sam%2Bsales%40example.com': () => {
        throw new TypeError('fetch failed');
      },
    });

    fireEvent.click(within(list).getByRole('button', { name: 'Edit Sam Lee' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Member' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove Member' }));

    await waitFor(() => expect(toastTexts()).toEqual(['Failed to remove member. Please try again.']));
  });
});
