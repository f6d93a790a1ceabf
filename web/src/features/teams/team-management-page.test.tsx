import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../testing/render-app';
import { jsonResponse } from '../../testing/json-response';
import { ada, deferred, makeTeam, signedInState, stubApi } from './team-test-fixtures';
import type { Team } from '../../lib/api/gateway-api.generated';

const sales = makeTeam();
const salesToo = makeTeam({ id: 'team-2', name: 'Outbound sales', members: [], criteria_group: [] });
const hr = makeTeam({ id: 'team-3', name: 'Recruiting', department: 'hr' });

let alertSpy: MockInstance<typeof window.alert>;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  alertSpy = vi.spyOn(window, 'alert').mockImplementation(() => {});
});

afterEach(() => {
  alertSpy.mockRestore();
});

/** The team list answers `teams`; members of team-1 are Ada. */
function stubTeams(teams: () => Team[], extra?: Parameters<typeof stubApi>[0]) {
  return stubApi(async (request, url) => {
    const answer = await extra?.(request, url);
    if (answer) return answer;
    if (request.method === 'GET' && url.pathname === '/api/teams/fetch/') return jsonResponse(teams());
    if (request.method === 'GET' && url.pathname === '/api/teams/team-1/members') return jsonResponse([ada, { ...ada, first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com' }]);
    return undefined;
  });
}

/** The accordion's header buttons, in order. */
const teamNames = () => Array.from(document.querySelectorAll('.teams-accordion__toggle')).map((button) => button.textContent);

describe('team management page', () => {
  it('lists only the teams of the active department, asking for that department', async () => {
    const api = stubTeams(() => [sales, hr, salesToo]);
    renderApp('/teams', signedInState('sales'));

    expect(await screen.findByRole('heading', { name: 'Team Management' })).toBeTruthy();
    await screen.findByText('Inbound sales');
    expect(teamNames()).toEqual(['Inbound sales', 'Outbound sales']);
    expect(screen.queryByText('Recruiting')).toBeNull();
    expect(api.sent('GET', '/api/teams/fetch/')[0]?.search.get('department')).toBe('sales');
    expect(screen.getByRole('link', { name: 'Add Team' }).getAttribute('href')).toBe('/teams/new');
    expect(screen.getByRole('link', { name: 'Edit Inbound sales' }).getAttribute('href')).toBe('/teams/team-1');
  });

  it('says so when the department has no teams', async () => {
    stubTeams(() => []);
    renderApp('/teams', signedInState('sales'));
    expect(await screen.findByText('No teams found for this department. Click "Add Team" to create one.')).toBeTruthy();
  });

  it('alerts and shows an empty list when the teams cannot be fetched', async () => {
    stubApi((_request, url) => (url.pathname === '/api/teams/fetch/' ? jsonResponse({ error: 'boom' }, 500) : undefined));
    renderApp('/teams', signedInState('sales'));
    await waitFor(() => expect(alertSpy).toHaveBeenCalledWith('Error fetching teams. Please try again.'));
    expect(screen.getByText('No teams found for this department. Click "Add Team" to create one.')).toBeTruthy();
  });

  it('expands a team into its criteria group cards and member badges', async () => {
    const api = stubTeams(() => [sales, salesToo]);
    renderApp('/teams', signedInState('sales'));

    const toggle = await screen.findByRole('button', { name: 'Inbound sales' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');

    const opening = screen.getByRole('region', { name: 'Opening' });
    expect(within(opening).getByRole('heading', { name: 'Opening' })).toBeTruthy();
    const rows = within(opening)
      .getAllByRole('listitem')
      .map((row) => row.textContent);
    expect(rows).toEqual(['Greeting3', 'Introduction2.5']);
    expect(within(screen.getByRole('region', { name: 'Closing' })).getByText('4.5').className).toContain('badge');

    const members = await screen.findByRole('region', { name: 'Members' });
    expect(
      within(members)
        .getAllByRole('listitem')
        .map((badge) => badge.textContent),
    ).toEqual(['Ada Lovelace', 'Alan Turing']);
    expect(api.sent('GET', '/api/teams/team-1/members')).toHaveLength(1);

    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('region', { name: 'Opening' })).toBeNull();
  });

  it('shows no Members section when the members cannot be fetched', async () => {
    const api = stubTeams(
      () => [sales],
      (_request, url) => (url.pathname === '/api/teams/team-1/members' ? jsonResponse({ error: 'boom' }, 500) : undefined),
    );
    renderApp('/teams', signedInState('sales'));
    fireEvent.click(await screen.findByRole('button', { name: 'Inbound sales' }));
    await waitFor(() => expect(api.sent('GET', '/api/teams/team-1/members')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('region', { name: 'Members' })).toBeNull();
    expect(alertSpy).not.toHaveBeenCalled();
  });

  it('asks for confirmation, then deletes the team and removes it from the list', async () => {
    let teams = [sales, salesToo];
    const api = stubTeams(
      () => teams,
      (request, url) => {
        if (request.method === 'DELETE' && url.pathname === '/api/teams/team-1') {
          teams = [salesToo];
          return jsonResponse({ success: true });
        }
        return undefined;
      },
    );
    renderApp('/teams', signedInState('sales'));

    fireEvent.click(await screen.findByRole('button', { name: 'Remove Inbound sales' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Deletion' });
    expect(within(dialog).getByText(/Are you sure/).textContent).toBe(
      'Are you sure you want to delete the team "Inbound sales"? This action cannot be undone.',
    );

    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Team' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Inbound sales' })).toBeNull());
    expect(api.sent('DELETE', '/api/teams/team-1')).toHaveLength(1);
    expect(api.requests.find((r) => r.method === 'DELETE')?.body).toBeUndefined();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(teamNames()).toEqual(['Outbound sales']);
    expect(alertSpy).not.toHaveBeenCalled();
  });

  it('keeps the team when the deletion is cancelled', async () => {
    const api = stubTeams(() => [sales]);
    renderApp('/teams', signedInState('sales'));

    fireEvent.click(await screen.findByRole('button', { name: 'Remove Inbound sales' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Deletion' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    expect(screen.getByRole('button', { name: 'Inbound sales' })).toBeTruthy();
    expect(api.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
  });

  it('alerts when the team cannot be deleted, and keeps it', async () => {
    stubTeams(
      () => [sales],
      (request) => (request.method === 'DELETE' ? jsonResponse({ error: 'nope' }, 500) : undefined),
    );
    renderApp('/teams', signedInState('sales'));

    fireEvent.click(await screen.findByRole('button', { name: 'Remove Inbound sales' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete Team' }));
    await waitFor(() => expect(alertSpy).toHaveBeenCalledWith('Error removing team. Please try again.'));
    expect(screen.getByRole('button', { name: 'Inbound sales' })).toBeTruthy();
  });

  it('duplicates a team as a new copy without members, blocking a second duplicate meanwhile', async () => {
    const saved = deferred<Response>();
    let teams = [sales];
    const api = stubTeams(
      () => teams,
      (request, url) => {
        if (request.method === 'PUT' && url.pathname === '/api/teams/save') return saved.promise;
        return undefined;
      },
    );
    renderApp('/teams', signedInState('sales'));

    fireEvent.click(await screen.findByRole('button', { name: 'Duplicate Inbound sales' }));
    const running = await screen.findByRole('button', { name: 'Duplicating...' });
    expect((running as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(running);

    await waitFor(() => expect(api.sent('PUT', '/api/teams/save')).toHaveLength(1));
    const body = api.sent('PUT', '/api/teams/save')[0]?.body as {
      team: Team;
      isNew: boolean;
      members: unknown[];
    };
    expect(body.isNew).toBe(true);
    expect(body.members).toEqual([]);
    expect(body.team.name).toBe('Inbound sales (copy)');
    expect(body.team.members).toEqual([]);
    expect(body.team.department).toBe('sales');
    expect(body.team.success_criteria).toEqual(sales.success_criteria);
    expect(body.team.crm_id).toBe('crm-1');
    expect(body.team).not.toHaveProperty('version');
    const ids = [body.team.id, ...body.team.criteria_group.flatMap((group) => [group.id, ...group.criteria.map((criterion) => criterion.id)])];
    expect(new Set(ids).size).toBe(6);
    for (const id of ['team-1', 'g1', 'g2', 'c1', 'c2', 'c3']) expect(ids).not.toContain(id);
    expect(body.team.criteria_group.map((group) => group.criteria.map((criterion) => [criterion.name, criterion.weight]))).toEqual([
      [
        ['Greeting', 3],
        ['Introduction', 2.5],
      ],
      [['Next steps', 4.5]],
    ]);

    const fetchesBefore = api.sent('GET', '/api/teams/fetch/').length;
    teams = [sales, makeTeam({ id: 'copy', name: 'Inbound sales (copy)', members: [] })];
    saved.resolve(jsonResponse({ success: true, team: teams[1], members: [], created: true }));

    // The list reloads with the copy; the button is back.
    expect(await screen.findByRole('button', { name: 'Inbound sales (copy)' })).toBeTruthy();
    expect(api.sent('GET', '/api/teams/fetch/').length).toBeGreaterThan(fetchesBefore);
    const again = screen.getByRole('button', { name: 'Duplicate Inbound sales' });
    expect((again as HTMLButtonElement).disabled).toBe(false);

    // Within 8 s the global marker still refuses another duplicate of the same team.
    fireEvent.click(again);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.sent('PUT', '/api/teams/save')).toHaveLength(1);
    expect(alertSpy).not.toHaveBeenCalled();
  });

  it('refuses a duplicate while another tab has just duplicated the same team', async () => {
    localStorage.setItem('team-duplicate-global:team-1', String(Date.now()));
    const api = stubTeams(() => [sales]);
    renderApp('/teams', signedInState('sales'));

    fireEvent.click(await screen.findByRole('button', { name: 'Duplicate Inbound sales' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.sent('PUT', '/api/teams/save')).toHaveLength(0);
  });

  it('alerts when the duplicate fails', async () => {
    stubTeams(
      () => [sales],
      (request) => (request.method === 'PUT' ? jsonResponse({ error: 'nope' }, 500) : undefined),
    );
    renderApp('/teams', signedInState('sales'));

    fireEvent.click(await screen.findByRole('button', { name: 'Duplicate Inbound sales' }));
    await waitFor(() => expect(alertSpy).toHaveBeenCalledWith('Error duplicating team. Please try again.'));
    expect(screen.getByRole('button', { name: 'Duplicate Inbound sales' })).toBeTruthy();
  });

  it('clears its duplicate markers when the page is left', async () => {
    stubTeams(() => [sales]);
    const { unmount } = renderApp('/teams', signedInState('sales'));
    fireEvent.click(await screen.findByRole('button', { name: 'Duplicate Inbound sales' }));
    await waitFor(() => expect(alertSpy).toHaveBeenCalled());
    expect(localStorage.getItem('team-duplicate-global:team-1')).not.toBeNull();
    unmount();
    expect(localStorage.getItem('team-duplicate-global:team-1')).toBeNull();
  });
});
