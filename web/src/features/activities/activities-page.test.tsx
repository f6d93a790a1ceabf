import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../testing/render-app';
import { jsonResponse } from '../../testing/json-response';
import { stubGateway, type Route } from '../../testing/stub-gateway';
import type { Team } from '../../lib/api/gateway-api.generated';
import type { ActivityCall, ActivityMeeting } from './activity-types';
import { activitiesState, makeCall, makeMeeting, makeTeam, members, page } from './activity-test-fixtures';
import { presetRange } from '../../components/date-range/date-range-logic';

// The dialogs belong to the upload and summary parts of the screen and have their own tests; here
// they only show what the page hands them.
vi.mock('./upload/upload-calls-dialog', () => ({
  UploadCallsDialog: ({ open, onUploadsFinished }: { open: boolean; onUploadsFinished: (teamId: string) => void }) =>
    open ? (
      <div role="dialog" aria-label="Upload calls">
        <button type="button" onClick={() => onUploadsFinished('team-1')}>
          finish team-1
        </button>
        <button type="button" onClick={() => onUploadsFinished('team-2')}>
          finish team-2
        </button>
      </div>
    ) : null,
}));
vi.mock('./upload/upload-meetings-dialog', () => ({
  UploadMeetingsDialog: ({ open }: { open: boolean }) => (open ? <div role="dialog" aria-label="Upload meetings" /> : null),
}));
vi.mock('./summary/call-summary-dialog', () => ({
  CallSummaryDialog: ({ call }: { call: ActivityCall | null }) => (call ? <p>{`summary of ${call.id}`}</p> : null),
}));
vi.mock('./summary/meeting-summary-dialog', () => ({
  MeetingSummaryDialog: ({ meeting }: { meeting: ActivityMeeting | null }) => (meeting ? <p>{`summary of ${meeting.id}`}</p> : null),
}));

const sales = makeTeam();
const salesToo = makeTeam({
  id: 'team-2',
  name: 'Outbound sales',
  criteria_group: [{ id: 'g9', name: 'Discovery', criteria: [{ id: 'c9', name: 'Budget asked', prompt: 'Asks.', weight: 10 }] }],
});
const recruiting = makeTeam({ id: 'team-3', name: 'Recruiting', department: 'hr' });

type Answers = {
  teams?: Team[];
  calls?: (url: URL) => Response | Promise<Response>;
  meetings?: (url: URL) => Response | Promise<Response>;
  extra?: Route;
};

function stubActivities({ teams = [sales, salesToo, recruiting], calls, meetings, extra }: Answers = {}) {
  return stubGateway(async (request, url) => {
    const answer = await extra?.(request, url);
    if (answer) return answer;
    if (request.method !== 'GET') return undefined;
    if (url.pathname === '/api/teams/fetch/') return jsonResponse(teams);
    if (/^\/api\/teams\/[^/]+\/members$/.test(url.pathname)) return jsonResponse(members);
    if (url.pathname === '/api/calls/') return calls ? calls(url) : jsonResponse(page([makeCall()]));
    if (url.pathname === '/api/meetings') return meetings ? meetings(url) : jsonResponse(page([makeMeeting()]));
    return undefined;
  });
}

const headers = () => Array.from(document.querySelectorAll('.activity-table thead th')).map((th) => th.textContent?.trim());
const lastSearch = (api: ReturnType<typeof stubGateway>, path: string) => api.sent('GET', path).at(-1)!.search;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('activities page', () => {
  it('opens Calls for callId and pre-filters the list with the trimmed, de-duplicated ids, this quarter and the first team', async () => {
    const api = stubActivities();
    renderApp('/activities?callId=%20a1%20,,b2,a1,', activitiesState('sales'));

    await waitFor(() => expect(api.sent('GET', '/api/calls/')).toHaveLength(1));
    const search = lastSearch(api, '/api/calls/');
    const quarter = presetRange('thisQuarter', new Date());
    expect(Object.fromEntries(search)).toEqual({
      department: 'sales',
      teamId: 'team-1',
      startDate: quarter.start.toISOString(),
      endDate: quarter.end.toISOString(),
      callIds: 'a1,b2',
      page: '1',
      limit: '20',
    });
    expect(screen.getByRole('tab', { name: 'Calls' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'Meetings' }).getAttribute('aria-selected')).toBe('false');
    expect(api.sent('GET', '/api/meetings')).toHaveLength(0);
    expect(api.sent('GET', '/api/teams/fetch/')[0]!.search.get('department')).toBe('sales');
    expect(screen.getByRole('button', { name: 'Upload Calls' })).toBeTruthy();
  });

  it('opens Meetings for meetingId and filters on those meetings', async () => {
    const api = stubActivities();
    renderApp('/activities?meetingId=m1,%20m2%20,m1', activitiesState('sales'));

    await waitFor(() => expect(api.sent('GET', '/api/meetings')).toHaveLength(1));
    expect(lastSearch(api, '/api/meetings').get('meetingIds')).toBe('m1,m2');
    expect(screen.getByRole('tab', { name: 'Meetings' }).getAttribute('aria-selected')).toBe('true');
    expect(api.sent('GET', '/api/calls/')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Upload Meetings' })).toBeTruthy();
  });

  it('lists the teams of the current department and reloads for the chosen one, with its criteria as columns', async () => {
    const api = stubActivities();
    renderApp('/activities', activitiesState('sales'));

    const select = (await screen.findByLabelText('Team')) as HTMLSelectElement;
    await waitFor(() => expect(Array.from(select.options).map((option) => option.textContent)).toEqual(['Inbound sales', 'Outbound sales']));
    await screen.findByText('Charles Babbage');
    expect(headers()).toContain('Greeting');
    expect(headers()).toContain('Next steps');

    fireEvent.change(select, { target: { value: 'team-2' } });
    await waitFor(() => expect(lastSearch(api, '/api/calls/').get('teamId')).toBe('team-2'));
    await waitFor(() => expect(headers()).toContain('Budget asked'));
    expect(headers()).not.toContain('Greeting');
  });

  it('says so when the department has no team, and reads no list', async () => {
    const api = stubActivities({ teams: [recruiting] });
    renderApp('/activities', activitiesState('sales'));
    expect(await screen.findByText('No team selected. Please create a team to view activities.')).toBeTruthy();
    expect(api.sent('GET', '/api/calls/')).toHaveLength(0);
  });

  it('shows the call columns and values, a status for rows still processing or failed', async () => {
    stubActivities({
      calls: () =>
        jsonResponse(
          page([
            makeCall(),
            makeCall({ id: 'call-2', status: 'processing', score: null, script_match: null, is_successful: null, evaluation: [] }),
            makeCall({ id: 'call-3', status: 'failed', score: null }),
          ]),
        ),
    });
    renderApp('/activities', activitiesState('sales'));
    await screen.findByText('call-3');

    expect(headers()).toEqual(['Id', 'Date', 'Time', 'Representative', 'Contact', 'Duration', 'Score', 'Script Match', 'Successful', 'Needs review', 'Greeting', 'Next steps', 'Summary', 'Delete']);
    const [scored, processing, failed] = screen.getAllByRole('row').slice(1);
    const cells = within(scored!).getAllByRole('cell');
    expect(cells[3]!.textContent).toBe('Ada Lovelace');
    expect(cells[5]!.textContent).toBe('2:05');
    expect(cells[6]!.textContent).toBe('7.5');
    expect(cells[7]!.textContent).toBe('82%');
    expect(within(cells[8]!).getByRole('img').getAttribute('aria-label')).toBe('Yes');
    expect(cells[9]!.textContent).toBe('');
    expect(within(cells[10]!).getByRole('img').getAttribute('aria-label')).toBe('Yes');
    expect(within(cells[11]!).getByRole('img').getAttribute('aria-label')).toBe('No');

    const pending = within(processing!).getAllByRole('cell');
    expect(pending[6]!.textContent).toContain('—');
    expect(pending[6]!.textContent).toContain('Processing');
    expect(pending[8]!.textContent).toBe('N/A');
    expect(within(failed!).getAllByRole('cell')[6]!.textContent).toBe('Failed');
  });

  it('reads the list again every 5 s while a row shown is processing, and stops once it is scored', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    let scored = false;
    const api = stubActivities({
      calls: () => jsonResponse(page([scored ? makeCall() : makeCall({ status: 'processing', score: null, script_match: null, is_successful: null, evaluation: [] })])),
    });
    renderApp('/activities', activitiesState('sales'));
    await screen.findByText('Processing');
    const reads = () => api.sent('GET', '/api/calls/').length;
    const before = reads();

    await act(() => vi.advanceTimersByTimeAsync(4900));
    expect(reads()).toBe(before);
    await act(() => vi.advanceTimersByTimeAsync(200));
    await waitFor(() => expect(reads()).toBe(before + 1));

    scored = true;
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await screen.findByText('7.5');
    expect(screen.queryByText('Processing')).toBeNull();
    const settled = reads();
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(reads()).toBe(settled);
  });

  it('names the meetings outcome and the role or company column by department', async () => {
    const cases: [string, Team, string, string][] = [
      ['sales', sales, 'Meeting result', 'Company'],
      ['hr', recruiting, 'Ready to proceed to next round?', 'Role'],
      ['support', makeTeam({ id: 'team-4', department: 'support' }), 'Outcome', 'Company'],
    ];
    for (const [department, team, outcome, contactColumn] of cases) {
      stubActivities({ teams: [team] });
      const { unmount } = renderApp('/activities?meetingId=meeting-1', activitiesState(department));
      await screen.findByText('Mary Somerville');
      expect(headers()).toEqual([
        'Id',
        'Date',
        'Time',
        'Representative',
        'Contact',
        contactColumn,
        'Duration',
        'Score',
        'Script Match',
        outcome,
        'Needs review',
        'Greeting',
        'Next steps',
        'Link',
        'Summary & Recommendations',
        'Delete',
      ]);
      const cells = within(screen.getAllByRole('row')[1]!).getAllByRole('cell');
      expect(cells[5]!.textContent).toBe(contactColumn === 'Role' ? 'Analyst' : 'Royal Society');
      expect(cells[6]!.textContent).toBe('1h 2m 5s');
      expect(screen.getByRole('button', { name: `Filter ${outcome}` })).toBeTruthy();
      const link = screen.getByRole('link', { name: 'Open the link of meeting meeting-1 in a new tab' });
      expect(link.getAttribute('href')).toBe('https://meet.example.com/abc');
      expect(link.getAttribute('target')).toBe('_blank');
      unmount();
    }
  });

  it('marks each row with criteria to review with a warning badge that says how many', async () => {
    stubActivities({
      calls: () => jsonResponse(page([makeCall({ criteriaNeedingReview: 2 }), makeCall({ id: 'call-2', criteriaNeedingReview: 1 }), makeCall({ id: 'call-3' })])),
      meetings: () => jsonResponse(page([makeMeeting({ criteriaNeedingReview: 3 })])),
    });
    renderApp('/activities', activitiesState('sales'));
    await screen.findByText('call-3');

    const reviewCell = (row: HTMLElement) => within(row).getAllByRole('cell')[headers().indexOf('Needs review')]!;
    const [two, one, none] = screen.getAllByRole('row').slice(1);
    const badge = within(reviewCell(two!)).getByRole('img', { name: '2 criteria need review' });
    expect(badge.textContent).toBe('2 to review');
    expect(badge.className).toContain('badge--warning');
    expect(within(reviewCell(one!)).getByRole('img', { name: '1 criterion needs review' }).textContent).toBe('1 to review');
    expect(reviewCell(none!).textContent).toBe('');
    expect(within(none!).queryByText(/to review/)).toBeNull();

    fireEvent.click(screen.getByRole('tab', { name: 'Meetings' }));
    expect((await screen.findByRole('img', { name: '3 criteria need review' })).textContent).toBe('3 to review');
  });

  it('filters on rows with criteria to review, from page 1, and stops when the box is unticked', async () => {
    const api = stubActivities({ calls: (url) => jsonResponse(page([makeCall({ id: `call-p${url.searchParams.get('page')}` })], 3, Number(url.searchParams.get('page')))) });
    renderApp('/activities', activitiesState('sales'));
    await screen.findByText('call-p1');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('call-p2');
    expect(lastSearch(api, '/api/calls/').has('needsReview')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Filter Needs review' }));
    const dialog = screen.getByRole('dialog', { name: 'Needs review filter' });
    fireEvent.click(within(dialog).getByLabelText('Only calls with criteria to review'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(lastSearch(api, '/api/calls/').get('needsReview')).toBe('true'));
    expect(lastSearch(api, '/api/calls/').get('page')).toBe('1');
    expect(screen.getByRole('button', { name: 'Filter Needs review (filtered)' })).toBeTruthy();

    // Kept with the other filters: a score filter added later still asks for rows to review.
    fireEvent.click(screen.getByRole('button', { name: 'Filter Score' }));
    fireEvent.change(within(screen.getByRole('dialog', { name: 'Score filter' })).getByLabelText('Score'), { target: { value: '7' } });
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Score filter' })).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(lastSearch(api, '/api/calls/').get('score')).toBe('{"value":7,"operator":"gte"}'));
    expect(lastSearch(api, '/api/calls/').get('needsReview')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Filter Needs review (filtered)' }));
    const again = screen.getByRole('dialog', { name: 'Needs review filter' });
    expect((within(again).getByLabelText('Only calls with criteria to review') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(again).getByRole('button', { name: 'Reset' }));
    fireEvent.keyDown(again, { key: 'Escape' });
    await waitFor(() => expect(lastSearch(api, '/api/calls/').has('needsReview')).toBe(false));
    expect(screen.getByRole('button', { name: 'Filter Needs review' })).toBeTruthy();
  });

  it('filters the meetings on rows with criteria to review too', async () => {
    const api = stubActivities();
    renderApp('/activities?meetingId=', activitiesState('sales'));
    await screen.findByText('Mary Somerville');
    fireEvent.click(screen.getByRole('button', { name: 'Filter Needs review' }));
    const dialog = screen.getByRole('dialog', { name: 'Needs review filter' });
    fireEvent.click(within(dialog).getByLabelText('Only meetings with criteria to review'));
    fireEvent.mouseDown(document.body);
    await waitFor(() => expect(lastSearch(api, '/api/meetings').get('needsReview')).toBe('true'));
  });

  it('pages with Previous and Next, and goes back to page 1 when the page size changes', async () => {
    const api = stubActivities({ calls: (url) => jsonResponse(page([makeCall({ id: `call-p${url.searchParams.get('page')}` })], 3, Number(url.searchParams.get('page')))) });
    renderApp('/activities', activitiesState('sales'));

    expect(await screen.findByText('Page 1 of 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 3')).toBeTruthy();
    expect(lastSearch(api, '/api/calls/').get('page')).toBe('2');
    await screen.findByText('call-p2');

    fireEvent.change(screen.getByLabelText('Display'), { target: { value: '50' } });
    await waitFor(() => expect(lastSearch(api, '/api/calls/').get('limit')).toBe('50'));
    expect(lastSearch(api, '/api/calls/').get('page')).toBe('1');
    expect(await screen.findByText('Page 1 of 3')).toBeTruthy();
    expect(Array.from((screen.getByLabelText('Display') as HTMLSelectElement).options).map((option) => option.value)).toEqual(['10', '20', '50', '100']);
  });

  it('reloads the list when a filter dropdown closes with changed values, and only then', async () => {
    const api = stubActivities();
    renderApp('/activities', activitiesState('sales'));
    await screen.findByText('Charles Babbage');
    const reads = () => api.sent('GET', '/api/calls/').length;
    expect(reads()).toBe(1);

    fireEvent.click(screen.getByRole('button', { name: 'Filter Duration' }));
    const duration = screen.getByRole('dialog', { name: 'Duration filter' });
    fireEvent.change(within(duration).getByLabelText('Operator'), { target: { value: 'lte' } });
    fireEvent.change(within(duration).getByLabelText('Minutes'), { target: { value: '2.4' } });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(reads()).toBe(1);

    fireEvent.click(within(duration).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(reads()).toBe(2));
    expect(JSON.parse(lastSearch(api, '/api/calls/').get('duration')!)).toEqual({ value: 120, operator: 'lte' });
    expect(screen.getByRole('button', { name: 'Filter Duration (filtered)' })).toBeTruthy();

    // Opened and closed again without a change: no reload.
    fireEvent.click(screen.getByRole('button', { name: 'Filter Duration (filtered)' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Duration filter' })).getByRole('button', { name: 'Done' }));
    // Changed and changed back: no reload either.
    fireEvent.click(screen.getByRole('button', { name: 'Filter Successful' }));
    const success = screen.getByRole('dialog', { name: 'Successful filter' });
    fireEvent.click(within(success).getByLabelText('No'));
    fireEvent.click(within(success).getByLabelText('No'));
    fireEvent.mouseDown(document.body);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(reads()).toBe(2);

    // One of the pair unticked, closed by a click outside: reloads with success=true.
    fireEvent.click(screen.getByRole('button', { name: 'Filter Successful' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Successful filter' })).getByLabelText('No'));
    fireEvent.mouseDown(document.body);
    await waitFor(() => expect(reads()).toBe(3));
    expect(lastSearch(api, '/api/calls/').get('success')).toBe('true');
    expect(screen.queryByRole('dialog', { name: 'Successful filter' })).toBeNull();

    // A criterion: only No ticked.
    fireEvent.click(screen.getByRole('button', { name: 'Filter Next steps' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Next steps filter' })).getByLabelText('Yes'));
    fireEvent.keyDown(screen.getByRole('dialog', { name: 'Next steps filter' }), { key: 'Escape' });
    await waitFor(() => expect(reads()).toBe(4));
    expect(JSON.parse(lastSearch(api, '/api/calls/').get('criterion')!)).toEqual([{ criterionGroupId: 'g2', criterionId: 'c2', result: false }]);
  });

  it('filters on the team’s representatives and on contact ids', async () => {
    const api = stubActivities();
    renderApp('/activities?meetingId=', activitiesState('sales'));
    await screen.findByText('Mary Somerville');

    fireEvent.click(screen.getByRole('button', { name: 'Filter Representative' }));
    const reps = screen.getByRole('dialog', { name: 'Representative filter' });
    expect(within(reps).getAllByRole('checkbox').map((box) => box.parentElement?.textContent)).toEqual(['Ada Lovelace', 'Alan Turing']);
    fireEvent.click(within(reps).getByLabelText('Alan Turing'));
    fireEvent.click(within(reps).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(lastSearch(api, '/api/meetings').get('rep_emails')).toBe('alan@example.com'));

    fireEvent.click(screen.getByRole('button', { name: 'Filter Contact' }));
    const contacts = screen.getByRole('dialog', { name: 'Contact filter' });
    fireEvent.change(within(contacts).getByLabelText('Contact ids'), { target: { value: ' k1, k2,,k1 ' } });
    fireEvent.click(within(contacts).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(lastSearch(api, '/api/meetings').get('contactIds')).toBe('k1,k2'));
    expect(lastSearch(api, '/api/meetings').get('rep_emails')).toBe('alan@example.com');
  });

  it('writes the Id filter into the URL and reloads with those ids', async () => {
    const api = stubActivities();
    const { router } = renderApp('/activities', activitiesState('sales'));
    await screen.findByText('Charles Babbage');

    fireEvent.click(screen.getByRole('button', { name: 'Filter Id' }));
    fireEvent.change(within(screen.getByRole('dialog', { name: 'Id filter' })).getByLabelText('Call ids'), { target: { value: 'x1, x2' } });
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Id filter' })).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(lastSearch(api, '/api/calls/').get('callIds')).toBe('x1,x2'));
    expect(router.state.location.search).toBe('?callId=x1%2Cx2');
    expect(screen.getByRole('tab', { name: 'Calls' }).getAttribute('aria-selected')).toBe('true');
  });

  it('shows the empty states, each with its way to the integrations', async () => {
    stubActivities({ calls: () => jsonResponse(page([], 0)), meetings: () => jsonResponse(page([], 0)) });
    const { router } = renderApp('/activities', activitiesState('sales'));
    expect(await screen.findByText('No transcripts found with current filters.')).toBeTruthy();
    expect(screen.getByText('Page 1 of 1')).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: 'Meetings' }));
    expect(await screen.findByText('No meetings found with current filters.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Connect Google Workspace' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/integrations'));
  });

  it('goes to the integrations from the calls empty state', async () => {
    stubActivities({ calls: () => jsonResponse(page([], 0)) });
    const { router } = renderApp('/activities', activitiesState('sales'));
    fireEvent.click(await screen.findByRole('button', { name: 'Connect CRM' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/integrations'));
  });

  it('shows a loading state while the list is read, and an empty list when the read fails', async () => {
    let answer: (response: Response) => void = () => undefined;
    stubActivities({ calls: () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderApp('/activities', activitiesState('sales'));

    expect(await screen.findByText('Loading…')).toBeTruthy();
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByText('No transcripts found with current filters.')).toBeNull();

    act(() => answer(jsonResponse({ error: 'boom' }, 500)));
    expect(await screen.findByText('No transcripts found with current filters.')).toBeTruthy();
    expect(screen.queryByText('Loading…')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('asks before deleting a call, then deletes it, says so and reads the list again', async () => {
    let rows = [makeCall(), makeCall({ id: 'call-2', contactName: 'Ada Byron' })];
    const api = stubActivities({
      calls: () => jsonResponse(page(rows)),
      extra: (request, url) => {
        if (request.method === 'DELETE' && url.pathname === '/api/calls/call-1') {
          rows = rows.filter((row) => row.id !== 'call-1');
          return jsonResponse({ message: 'deleted' });
        }
        return undefined;
      },
    });
    renderApp('/activities', activitiesState('sales'));
    await screen.findByText('Charles Babbage');

    fireEvent.click(screen.getByRole('button', { name: 'Delete call call-1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete call' });
    expect(dialog.textContent).toContain('Are you sure you want to delete this call?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete call' })).toBeNull());
    expect(api.sent('DELETE', '/api/calls/call-1')).toHaveLength(0);

    const readsBefore = api.sent('GET', '/api/calls/').length;
    fireEvent.click(screen.getByRole('button', { name: 'Delete call call-1' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete call' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Call deleted successfully.')).toBeTruthy();
    expect(api.sent('DELETE', '/api/calls/call-1')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText('Charles Babbage')).toBeNull());
    expect(api.sent('GET', '/api/calls/').length).toBeGreaterThan(readsBefore);
    expect(screen.getByText('Ada Byron')).toBeTruthy();
  });

  it('says so when a meeting cannot be deleted', async () => {
    stubActivities({
      extra: (request, url) => (request.method === 'DELETE' && url.pathname === '/api/meetings/meeting-1' ? jsonResponse({ error: 'boom' }, 500) : undefined),
    });
    renderApp('/activities?meetingId=meeting-1', activitiesState('sales'));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete meeting meeting-1' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete meeting' })).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to delete meeting.');
  });

  it('copies a link carrying the call id, and says nothing when copying fails', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    stubActivities();
    renderApp('/activities', activitiesState('sales'));

    fireEvent.click(await screen.findByRole('button', { name: 'Copy link to call call-1' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/activities?callId=call-1`);
    expect(await screen.findByText('Copied url to this call.')).toBeTruthy();

    writeText.mockRejectedValue(new Error('denied'));
    fireEvent.click(screen.getByRole('button', { name: 'Copy link to call call-1' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getAllByText('Copied url to this call.')).toHaveLength(1);
  });

  it('copies a link carrying the meeting id', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    stubActivities();
    renderApp('/activities?meetingId=', activitiesState('sales'));
    fireEvent.click(await screen.findByRole('button', { name: 'Copy link to meeting meeting-1' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/activities?meetingId=meeting-1`);
    expect(await screen.findByText('Copied url to this meeting.')).toBeTruthy();
  });

  it('opens the summary of a row', async () => {
    stubActivities();
    renderApp('/activities', activitiesState('sales'));
    fireEvent.click(await screen.findByRole('button', { name: 'Summary of call call-1' }));
    expect(screen.getByText('summary of call-1')).toBeTruthy();
  });

  it('reads the list again 3 s after an upload for the page’s team, not for another team', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    const api = stubActivities();
    renderApp('/activities', activitiesState('sales'));
    await screen.findByText('Charles Babbage');
    const reads = () => api.sent('GET', '/api/calls/').length;
    const before = reads();

    fireEvent.click(screen.getByRole('button', { name: 'Upload Calls' }));
    fireEvent.click(screen.getByRole('button', { name: 'finish team-2' }));
    await act(() => vi.advanceTimersByTimeAsync(3500));
    expect(reads()).toBe(before);

    fireEvent.click(screen.getByRole('button', { name: 'finish team-1' }));
    await act(() => vi.advanceTimersByTimeAsync(2900));
    expect(reads()).toBe(before);
    await act(() => vi.advanceTimersByTimeAsync(200));
    await waitFor(() => expect(reads()).toBe(before + 1));
  });
});
