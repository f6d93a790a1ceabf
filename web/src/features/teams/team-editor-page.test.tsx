import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../testing/render-app';
import { jsonResponse } from '../../testing/json-response';
import { departmentChosen } from '../../lib/auth/department-slice';
import { ada, deferred, makeTeam, signedInState, stubApi, type Route } from './team-test-fixtures';
import { gatewayApi, type SaveTeamApiArg, type Team } from '../../lib/api/gateway-api.generated';

let alertSpy: MockInstance<typeof window.alert>;

beforeEach(() => {
  alertSpy = vi.spyOn(window, 'alert').mockImplementation(() => {});
});

afterEach(() => {
  alertSpy.mockRestore();
});

const company = { id: 'c1', name: 'Acme', departments: ['sales', 'hr'], teams: [] };

/** team-1 with Ada; saves answer `save` (success by default); the company answers `company`. */
function stubEditor(options: { team?: Team; save?: Route; extra?: Route } = {}) {
  const team = options.team ?? makeTeam();
  return stubApi(async (request, url) => {
    const extra = await options.extra?.(request, url);
    if (extra) return extra;
    if (request.method === 'GET' && url.pathname === `/api/teams/${team.id}`) return jsonResponse({ team, members: [ada] });
    if (request.method === 'GET' && url.pathname === '/api/company') return jsonResponse(company);
    if (request.method === 'GET' && url.pathname === '/api/teams/fetch/') return jsonResponse([]);
    if (request.method === 'PUT' && url.pathname === '/api/teams/save') {
      return (await options.save?.(request, url)) ?? jsonResponse({ success: true, team, members: [ada], created: false });
    }
    return undefined;
  });
}

const saveBody = (api: ReturnType<typeof stubApi>) => api.sent('PUT', '/api/teams/save')[0]?.body as SaveTeamApiArg['body'];
const saveButton = () => screen.getByRole('button', { name: 'Save Team' }) as HTMLButtonElement;
const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const targetsText = () => document.querySelector('.teams-panel__targets')?.textContent;

async function openEditor(path = '/teams/team-1', options?: Parameters<typeof stubEditor>[0]) {
  const api = stubEditor(options);
  const view = renderApp(path, signedInState('sales'));
  await screen.findByLabelText('Team name');
  return { api, ...view };
}

function showCriteria() {
  fireEvent.click(screen.getByRole('tab', { name: /Evaluation Criteria/ }));
}

describe('team editor: loading and saving', () => {
  it('loads the team into the left panel and the tabs', async () => {
    await openEditor();
    expect(input('Team name').value).toBe('Inbound sales');
    expect(screen.getByRole('progressbar', { name: 'Criteria weight' }).getAttribute('aria-valuenow')).toBe('10');
    expect(screen.getByText('10/10')).toBeTruthy();
    expect(targetsText()).toBe('Daily target (all members): 5');
    expect(screen.getByRole('tab', { name: 'Team Members 1' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'Evaluation Criteria 3' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Call Script (not done)' })).toBeTruthy();
    expect(input('First name, member 1').value).toBe('Ada');
    expect(input('Daily target, member 1').value).toBe('5');

    const checklist = within(screen.getByRole('list', { name: 'Status' }))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(checklist).toEqual([
      '✓Team name provided (done)',
      '✓No duplicate members (done)',
      '✓Weight balanced (done)',
      '✓1 member (done)',
      '○Call script (optional) (optional)',
    ]);
  });

  it('keeps what is being edited when the team is fetched again (another change invalidated the teams)', async () => {
    const { api, store } = await openEditor();
    fireEvent.change(input('Team name'), { target: { value: 'Renamed, not saved' } });
    act(() => {
      store.dispatch(gatewayApi.util.invalidateTags(['teams']));
    });
    await waitFor(() => expect(api.sent('GET', '/api/teams/team-1')).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(input('Team name').value).toBe('Renamed, not saved');
  });

  it('saves the team with its members, refreshes the company and returns to /teams', async () => {
    const { api, router, store } = await openEditor();
    fireEvent.change(input('Team name'), { target: { value: 'Inbound sales EU' } });
    fireEvent.click(saveButton());

    await waitFor(() => expect(router.state.location.pathname).toBe('/teams'));
    const body = saveBody(api);
    expect(body.isNew).toBe(false);
    expect(body.members).toEqual([ada]);
    const { version: _version, created_at: _created, updated_at: _updated, ...team } = makeTeam();
    expect(body.team).toEqual({ ...team, name: 'Inbound sales EU' });
    expect(api.sent('GET', '/api/company')).toHaveLength(1);
    expect(store.getState().auth.company).toEqual({ id: 'c1', name: 'Acme', departments: ['sales', 'hr'] });
  });

  it('creates a new team from the first group up, for the active department', async () => {
    const { api, router } = await openEditor('/teams/new');
    expect(api.requests.filter((r) => r.path.startsWith('/api/teams/'))).toHaveLength(0);
    expect(input('Team name').value).toBe('');
    expect(saveButton().disabled).toBe(true);

    showCriteria();
    fireEvent.click(screen.getByRole('button', { name: 'Add Your First Group' }));
    expect(screen.queryByRole('button', { name: 'Add Your First Group' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add Group' })).toBeTruthy();

    fireEvent.change(input('Team name'), { target: { value: 'Support tier 1' } });
    fireEvent.change(input('Group name (group 1)'), { target: { value: 'Empathy' } });
    fireEvent.change(input('Criterion name (group 1, criterion 1)'), { target: { value: 'Tone' } });
    fireEvent.change(input('Description (group 1, criterion 1)'), { target: { value: 'The agent stays calm.' } });
    const weight = input('Weight (group 1, criterion 1)');
    fireEvent.change(weight, { target: { value: '10' } });
    fireEvent.keyDown(weight, { key: 'Enter' });
    expect(saveButton().disabled).toBe(false);

    fireEvent.click(saveButton());
    await waitFor(() => expect(router.state.location.pathname).toBe('/teams'));
    const body = saveBody(api);
    expect(body.isNew).toBe(true);
    expect(body.members).toEqual([]);
    expect(body.team).toMatchObject({
      id: 'new',
      name: 'Support tier 1',
      department: 'sales',
      success_criteria: { prompt: '' },
      members: [],
      call_script: '',
      crm_id: '',
      criteria_group: [{ name: 'Empathy', criteria: [{ name: 'Tone', prompt: 'The agent stays calm.', weight: 10 }] }],
    });
  });

  it('alerts the first problem found before saving and sends nothing', async () => {
    const { api } = await openEditor();
    fireEvent.change(input('First name, member 1'), { target: { value: 'A' } });
    fireEvent.click(saveButton());
    expect(alertSpy).toHaveBeenCalledWith('Each team member name must be between 2 and 100 characters.');
    expect(api.sent('PUT', '/api/teams/save')).toHaveLength(0);
  });

  it("alerts the server's refusal as 'Error saving team. …' and stays", async () => {
    const { api, router } = await openEditor('/teams/team-1', {
      save: () => jsonResponse({ error: 'Please enter a name for criterion #1 in criteria group #2' }, 400),
    });
    fireEvent.click(saveButton());
    await waitFor(() => expect(alertSpy).toHaveBeenCalledWith('Error saving team. Please enter a name for criterion #1 in criteria group #2'));
    expect(router.state.location.pathname).toBe('/teams/team-1');
    expect(api.sent('GET', '/api/company')).toHaveLength(0);
  });

  it("alerts 'Please try again.' when the server gave no reason", async () => {
    await openEditor('/teams/team-1', { save: () => new Response('', { status: 502 }) });
    fireEvent.click(saveButton());
    await waitFor(() => expect(alertSpy).toHaveBeenCalledWith('Error saving team. Please try again.'));
  });

  it('disables Save while the name is blank or member names repeat', async () => {
    await openEditor();
    fireEvent.change(input('Team name'), { target: { value: '  ' } });
    expect(saveButton().disabled).toBe(true);
    fireEvent.change(input('Team name'), { target: { value: 'Inbound' } });
    expect(saveButton().disabled).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Add Member' }));
    fireEvent.change(input('First name, member 2'), { target: { value: 'ada' } });
    fireEvent.change(input('Last name, member 2'), { target: { value: 'LOVELACE ' } });
    expect(saveButton().disabled).toBe(true);
    expect(screen.getByText('No duplicate members').closest('li')?.className).toContain('teams-checklist__item--missing');
    fireEvent.click(screen.getByRole('button', { name: 'Remove member 2' }));
    expect(saveButton().disabled).toBe(false);
  });

  it('cancels back to /teams without saving', async () => {
    const { api, router } = await openEditor();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/teams'));
    expect(api.sent('PUT', '/api/teams/save')).toHaveLength(0);
  });

  it('returns to /teams when the active department changes', async () => {
    const { router, store } = await openEditor();
    act(() => {
      store.dispatch(departmentChosen('hr'));
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/teams'));
  });

  it('shows an error when the team cannot be loaded', async () => {
    stubApi(() => jsonResponse({ error: 'Team not found' }, 404));
    renderApp('/teams/missing', signedInState('sales'));
    expect((await screen.findByRole('alert')).textContent).toBe('Error fetching teams. Please try again.');
  });
});

describe('team editor: members', () => {
  it("keeps the team's member e-mails in step with the table", async () => {
    const { api } = await openEditor();
    fireEvent.change(input('Email, member 1'), { target: { value: 'ada.l@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Member' }));
    fireEvent.change(input('First name, member 2'), { target: { value: 'Alan' } });
    fireEvent.change(input('Last name, member 2'), { target: { value: 'Turing' } });
    fireEvent.change(input('Email, member 2'), { target: { value: 'alan@example.com' } });
    fireEvent.change(input('Daily target, member 2'), { target: { value: '7' } });
    fireEvent.change(input('CRM ID, member 2'), { target: { value: 'crm-alan' } });
    expect(targetsText()).toBe('Daily target (all members): 12');
    expect(screen.getByRole('tab', { name: 'Team Members 2' })).toBeTruthy();

    fireEvent.click(saveButton());
    await waitFor(() => expect(api.sent('PUT', '/api/teams/save')).toHaveLength(1));
    const body = saveBody(api);
    expect(body.team?.members).toEqual(['ada.l@example.com', 'alan@example.com']);
    expect(body.members).toEqual([
      { ...ada, email: 'ada.l@example.com' },
      { first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com', crm_id: 'crm-alan', target: 7 },
    ]);
  });

  it('refuses a target that is not a whole number', async () => {
    await openEditor();
    const target = input('Daily target, member 1');
    fireEvent.change(target, { target: { value: '2.5' } });
    expect(screen.getByText('Enter a whole number (0 or more)')).toBeTruthy();
    expect(targetsText()).toBe('Daily target (all members): 5');
    fireEvent.blur(target);
    expect(target.value).toBe('5');
  });
});

describe('team editor: criteria', () => {
  it('commits a weight typed with a comma on blur, and enables Save only at a total of 10', async () => {
    await openEditor();
    showCriteria();
    const weight = input('Weight (group 2, criterion 1)');
    fireEvent.change(weight, { target: { value: '2,5' } });
    // Still typing: nothing committed, but Save already judges the typed weight (a click on a
    // disabled Save would not blur the field to commit it).
    expect(screen.getByText('10/10')).toBeTruthy();
    expect(saveButton().disabled).toBe(true);

    fireEvent.blur(weight);
    expect(weight.value).toBe('2.5');
    expect(screen.getByText('8/10').className).toContain('under');
    expect(saveButton().disabled).toBe(true);

    fireEvent.change(weight, { target: { value: '5' } });
    fireEvent.keyDown(weight, { key: 'Tab' });
    expect(screen.getByRole('alert').textContent).toBe('Maximum 4.5 points remaining');
    expect(weight.getAttribute('aria-invalid')).toBe('true');
    expect(saveButton().disabled).toBe(true);

    fireEvent.change(weight, { target: { value: '4,5' } });
    fireEvent.blur(weight);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('10/10').className).toContain('balanced');
    expect(saveButton().disabled).toBe(false);
  });

  it('saves a weight still being typed when Save is clicked straight away, as a blur would', async () => {
    const { api, router } = await openEditor();
    showCriteria();
    const first = input('Weight (group 1, criterion 1)');
    const before = Number(first.value);
    const second = input('Weight (group 2, criterion 1)');
    fireEvent.change(first, { target: { value: '0' } });
    fireEvent.blur(first);
    expect(saveButton().disabled).toBe(true);
    fireEvent.change(second, { target: { value: String(Number(second.value) + before) } });
    // Typed, not blurred: the total is back to 10 and Save can be clicked.
    expect(saveButton().disabled).toBe(false);
    fireEvent.click(saveButton());

    await waitFor(() => expect(router.state.location.pathname).toBe('/teams'));
    const groups = (saveBody(api).team?.criteria_group ?? []) as Array<{ criteria: Array<{ weight: number }> }>;
    const weights = groups.flatMap((group) => group.criteria.map((criterion) => criterion.weight));
    expect(weights[0]).toBe(0);
    expect(weights.reduce((sum, weight) => sum + weight, 0)).toBe(10);
  });

  it('shows a per-field error for a weight that is not a number', async () => {
    await openEditor();
    showCriteria();
    const weight = input('Weight (group 1, criterion 1)');
    fireEvent.change(weight, { target: { value: 'abc' } });
    fireEvent.keyDown(weight, { key: 'Enter' });
    expect(screen.getByRole('alert').textContent).toBe('Enter a number from 0 to 10');
    expect(weight.value).toBe('abc');
  });

  it('alerts the total weight rule when a group is incomplete first, in spec order', async () => {
    await openEditor();
    showCriteria();
    fireEvent.change(input('Group name (group 2)'), { target: { value: '' } });
    fireEvent.click(saveButton());
    expect(alertSpy).toHaveBeenCalledWith('Each criteria group must have a name and at least one criterion.');
  });

  it('marks empty required fields and shows the banner', async () => {
    await openEditor();
    showCriteria();
    expect(screen.queryByText(/Some fields require attention/)).toBeNull();
    const name = input('Criterion name (group 1, criterion 2)');
    fireEvent.change(name, { target: { value: ' ' } });
    expect(screen.getByText('Some fields require attention. Please fill in all required fields (highlighted in orange).')).toBeTruthy();
    expect(name.className).toContain('teams-input--required');
    expect(input('Description (group 1, criterion 2)').className).not.toContain('teams-input--required');
  });

  it('turns the counters to warning near the limit and danger above it', async () => {
    await openEditor();
    showCriteria();
    const counterOf = (field: HTMLElement) => field.parentElement?.querySelector('.teams-counter') as HTMLElement;
    const name = input('Criterion name (group 1, criterion 1)');
    expect(counterOf(name).textContent).toBe('8/100');
    expect(counterOf(name).dataset.level).toBe('normal');
    fireEvent.change(name, { target: { value: 'n'.repeat(91) } });
    expect(counterOf(name).textContent).toBe('91/100');
    expect(counterOf(name).className).toContain('teams-counter--warning');
    fireEvent.change(name, { target: { value: 'n'.repeat(101) } });
    expect(counterOf(name).className).toContain('teams-counter--danger');

    const prompt = input('Description (group 1, criterion 1)');
    fireEvent.change(prompt, { target: { value: 'p'.repeat(450) } });
    expect(counterOf(prompt).dataset.level).toBe('normal');
    fireEvent.change(prompt, { target: { value: 'p'.repeat(451) } });
    expect(counterOf(prompt).dataset.level).toBe('warning');
    fireEvent.change(prompt, { target: { value: 'p'.repeat(501) } });
    expect(counterOf(prompt).dataset.level).toBe('danger');

    const success = input('Determine the success of the activity');
    expect(success.value).toBe('The customer books a meeting.');
    fireEvent.change(success, { target: { value: 's'.repeat(460) } });
    expect(counterOf(success).textContent).toBe('460/500');
    expect(counterOf(success).dataset.level).toBe('warning');
  });

  it('adds and removes criteria and groups', async () => {
    await openEditor();
    showCriteria();
    fireEvent.click(screen.getByRole('button', { name: 'Add Criterion to group 2' }));
    expect(input('Criterion name (group 2, criterion 2)').value).toBe('');
    expect(screen.getByRole('tab', { name: 'Evaluation Criteria 4' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Criterion (group 1, criterion 1)' }));
    expect(input('Criterion name (group 1, criterion 1)').value).toBe('Introduction');
    expect(screen.getByText('7/10')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Group 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Group 1' }));
    expect(screen.getByRole('button', { name: 'Add Your First Group' })).toBeTruthy();
    expect(screen.getByText('0/10')).toBeTruthy();
  });

  it('drops a pending weight error when its criterion is removed', async () => {
    await openEditor();
    showCriteria();
    const weight = input('Weight (group 1, criterion 2)');
    fireEvent.change(weight, { target: { value: '9' } });
    fireEvent.blur(weight);
    expect(screen.getByRole('alert').textContent).toBe('Maximum 2.5 points remaining');
    fireEvent.click(screen.getByRole('button', { name: 'Remove Criterion (group 1, criterion 2)' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('team editor: review threshold', () => {
  const threshold = () => screen.getByRole('combobox', { name: 'Needs review below' }) as HTMLSelectElement;

  it("shows the team's threshold near the success prompt, with the choices and a hint", async () => {
    await openEditor('/teams/team-1', { team: makeTeam({ review_threshold: 0.85 }) });
    showCriteria();
    const select = screen.getByRole('combobox', {
      name: 'Needs review below',
      description: 'Verdicts the evaluator is less sure of than this are marked Needs review instead of Passed or Failed.',
    }) as HTMLSelectElement;
    expect(select.value).toBe('0.85');
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(['50%', '55%', '60%', '65%', '70%', '75%', '80%', '85%', '90%', '95%']);
    expect(within(select).getByRole('option', { selected: true }).textContent).toBe('85%');
    // It sits with the success prompt.
    expect(select.closest('.teams-success')?.querySelector('textarea')).toBe(input('Determine the success of the activity'));
  });

  it('saves the threshold chosen', async () => {
    const { api, router } = await openEditor();
    showCriteria();
    expect(threshold().value).toBe('0.7');
    fireEvent.change(threshold(), { target: { value: '0.6' } });
    expect(threshold().value).toBe('0.6');
    fireEvent.click(saveButton());
    await waitFor(() => expect(router.state.location.pathname).toBe('/teams'));
    expect(saveBody(api).team).toMatchObject({ name: 'Inbound sales', review_threshold: 0.6 });
  });

  it('keeps a threshold chosen while another tab is shown', async () => {
    await openEditor();
    showCriteria();
    fireEvent.change(threshold(), { target: { value: '0.9' } });
    fireEvent.click(screen.getByRole('tab', { name: /Team Members/ }));
    showCriteria();
    expect(threshold().value).toBe('0.9');
  });

  it('gives a new team 70%', async () => {
    await openEditor('/teams/new');
    showCriteria();
    expect(threshold().value).toBe('0.7');
    expect(within(threshold()).getByRole('option', { selected: true }).textContent).toBe('70%');
  });

  it('offers and keeps a threshold set outside the steps', async () => {
    const { api, router } = await openEditor('/teams/team-1', { team: makeTeam({ review_threshold: 0.72 }) });
    showCriteria();
    expect(within(threshold()).getByRole('option', { selected: true }).textContent).toBe('72%');
    fireEvent.click(saveButton());
    await waitFor(() => expect(router.state.location.pathname).toBe('/teams'));
    expect(saveBody(api).team?.review_threshold).toBe(0.72);
  });
});

describe('team editor: AI suggestion', () => {
  const original = 'The representative greets the customer.';
  const suggestion = 'Score whether the representative greets the customer by name within the first 10 seconds.';

  it('replaces the prompt with a suggestion, which Decline undoes and Approve keeps', async () => {
    let answer = deferred<Response>();
    const { api } = await openEditor('/teams/team-1', {
      extra: (request, url) => (request.method === 'POST' && url.pathname === '/api/teams/ai-suggestion' ? answer.promise : undefined),
    });
    showCriteria();
    const prompt = input('Description (group 1, criterion 1)');
    const [suggest] = screen.getAllByRole('button', { name: 'AI Suggestion' });
    fireEvent.click(suggest!);

    const generating = await screen.findByRole('button', { name: 'Generating...' });
    expect((generating as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(api.sent('POST', '/api/teams/ai-suggestion')).toHaveLength(1));
    expect(api.sent('POST', '/api/teams/ai-suggestion')[0]?.body).toEqual({ criterionName: 'Greeting', criterionDescription: original });

    answer.resolve(jsonResponse({ success: true, suggestion, source: 'offline' }));
    expect(await screen.findByText('AI Suggestion - Approve or Decline')).toBeTruthy();
    expect(prompt.value).toBe(suggestion);
    expect(screen.queryByRole('button', { name: 'Generating...' })).toBeNull();
    // A suggestion changes no team, so the team is not fetched again.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.sent('GET', '/api/teams/team-1')).toHaveLength(1);
    expect(input('Description (group 1, criterion 1)').value).toBe(suggestion);

    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    expect(prompt.value).toBe(original);
    expect(screen.queryByText('AI Suggestion - Approve or Decline')).toBeNull();

    answer = deferred<Response>();
    answer.resolve(jsonResponse({ success: true, suggestion, source: 'offline' }));
    fireEvent.click(screen.getAllByRole('button', { name: 'AI Suggestion' })[0]!);
    await screen.findByText('AI Suggestion - Approve or Decline');
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect(prompt.value).toBe(suggestion);
    expect(screen.queryByText('AI Suggestion - Approve or Decline')).toBeNull();
  });

  it('needs a criterion name', async () => {
    await openEditor();
    showCriteria();
    fireEvent.change(input('Criterion name (group 1, criterion 1)'), { target: { value: '  ' } });
    const [suggest] = screen.getAllByRole('button', { name: 'AI Suggestion' });
    expect((suggest as HTMLButtonElement).disabled).toBe(true);
  });

  it('alerts when no suggestion could be made and keeps the prompt', async () => {
    await openEditor('/teams/team-1', {
      extra: (request) => (request.method === 'POST' ? jsonResponse({ error: 'busy' }, 429) : undefined),
    });
    showCriteria();
    fireEvent.click(screen.getAllByRole('button', { name: 'AI Suggestion' })[0]!);
    await waitFor(() => expect(alertSpy).toHaveBeenCalledWith('Error generating AI suggestion. Please try again.'));
    expect(input('Description (group 1, criterion 1)').value).toBe(original);
    expect(screen.getAllByRole('button', { name: 'AI Suggestion' })).toHaveLength(3);
  });
});

describe('team editor: call script', () => {
  it('shows the length, the word count and the read time at 150 words a minute', async () => {
    const { api } = await openEditor();
    fireEvent.click(screen.getByRole('tab', { name: /Call Script/ }));
    const script = input('Call script template');
    const stats = () =>
      Array.from(screen.getByLabelText('Call script statistics').querySelectorAll('dd')).map((value) => value.textContent);

    expect(stats()).toEqual(['0 / 10,000 characters', '0', '0 min']);
    const text = Array.from({ length: 151 }, () => 'word').join(' ');
    fireEvent.change(script, { target: { value: text } });
    expect(stats()).toEqual([`${text.length} / 10,000 characters`, '151', '2 min']);
    expect(screen.getByRole('tab', { name: 'Call Script (done)' })).toBeTruthy();
    expect(screen.getByText('Call script provided')).toBeTruthy();

    fireEvent.click(saveButton());
    await waitFor(() => expect(api.sent('PUT', '/api/teams/save')).toHaveLength(1));
    expect(saveBody(api).team?.call_script).toBe(text);
  });
});
