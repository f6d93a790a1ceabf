import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { jsonResponse } from '../../../testing/json-response';
import { deferred } from '../../../testing/deferred';
import { stubGateway } from '../../../testing/stub-gateway';
import { makeMeeting } from '../activity-test-fixtures';
import { MeetingSummaryDialog } from './meeting-summary-dialog';
import { makeEvaluation, makeSummary, renderSignedIn } from './summary-test-fixtures';

const summaryPath = '/api/meetings/summary/meeting-1';

afterEach(() => {
  vi.restoreAllMocks();
});

const transcriptLines = () =>
  within(screen.getByRole('region', { name: 'Transcript' }))
    .getAllByRole('listitem')
    .map((item) => item.querySelector('.summary-segment__text')?.textContent);

describe('meeting summary dialog', () => {
  it("shows the meeting's own transcript and summary at once, then the analysed segments and verdicts", async () => {
    const answer = deferred<Response>();
    const api = stubGateway((_request, url) => (url.pathname === summaryPath ? answer.promise : undefined));
    renderSignedIn(<MeetingSummaryDialog meeting={makeMeeting()} onClose={() => {}} />);

    expect(screen.getByRole('dialog', { name: 'Meeting Summary & Analysis' })).toBeTruthy();
    expect(transcriptLines()).toEqual(['Thanks for joining today.', 'Happy to be here.']);
    expect(screen.getByText('Ada walked Charles through the roadmap.')).toBeTruthy();
    expect(screen.getByText('Agree on a follow-up date.')).toBeTruthy();
    expect(screen.getByText('1 improvement suggested')).toBeTruthy();
    expect(screen.getByText('Loading the detailed analysis…')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Criteria' })).toBeNull();

    answer.resolve(jsonResponse(makeSummary()));
    expect(await screen.findByRole('region', { name: 'Criteria' })).toBeTruthy();
    expect(transcriptLines()).toEqual(['Good morning, this is Ada.', 'Hello Ada.', 'I would like to book a demo.', 'Great, talk soon.']);
    expect(screen.getByText('Ada introduced the product and Charles asked for a demo.')).toBeTruthy();
    expect(screen.queryByText('Loading the detailed analysis…')).toBeNull();
    expect(api.sent('GET', summaryPath)).toHaveLength(1);
    // A meeting has no recording.
    expect(document.querySelector('audio')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /book a demo/ }));
    expect(document.querySelector('[data-segment-index="2"]')?.getAttribute('aria-current')).toBe('true');
  });

  it('shows the evaluation’s warnings above the analysis once it arrives', async () => {
    const warning = 'No speakers found in notes.txt: the whole text is treated as one speaker.';
    stubGateway((_request, url) => (url.pathname === summaryPath ? jsonResponse(makeSummary({ evaluation: makeEvaluation({ warnings: [warning] }) })) : undefined));
    renderSignedIn(<MeetingSummaryDialog meeting={makeMeeting()} onClose={() => {}} />);

    const note = await screen.findByRole('note', { name: 'Before you rely on this analysis' });
    expect(note.textContent).toContain(warning);
    expect(within(screen.getByRole('region', { name: 'Analysis' })).getByRole('note')).toBe(note);
  });

  it('says No Transcript Available and No Summary Available for an empty meeting', async () => {
    const api = stubGateway((_request, url) => (url.pathname === summaryPath ? jsonResponse({ error: 'boom' }, 500) : undefined));
    renderSignedIn(
      <MeetingSummaryDialog meeting={makeMeeting({ transcript: '', summary: { summary: '', improvements: [] } })} onClose={() => {}} />,
    );
    expect(screen.getByText('No Transcript Available')).toBeTruthy();
    expect(screen.getByText('No Summary Available')).toBeTruthy();
    await waitFor(() => expect(api.sent('GET', summaryPath)).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('Loading the detailed analysis…')).toBeNull());
    // A failed analysis request is silent: the row's content stays.
    expect(screen.getByText('No Summary Available')).toBeTruthy();
    expect(document.querySelector('.toast')).toBeNull();
  });

  it('says Excellent Performance! when nothing needs improving', () => {
    stubGateway(() => undefined);
    renderSignedIn(<MeetingSummaryDialog meeting={makeMeeting({ summary: { summary: 'All good.', improvements: [] } })} onClose={() => {}} />);
    const improvements = screen.getByRole('region', { name: 'Areas for Improvement' });
    expect(within(improvements).getByText('Excellent Performance!')).toBeTruthy();
    expect(screen.getByText('0 improvements suggested')).toBeTruthy();
  });

  it('exports meeting-summary-{id}-{date}.csv and shares through the meeting route', async () => {
    const api = stubGateway((request, url) => {
      if (url.pathname === summaryPath) return jsonResponse(makeSummary());
      if (request.method === 'POST' && url.pathname === '/api/meetings/share/meeting-1') return jsonResponse({ success: true, message: 'Meeting summary sent.' });
      return undefined;
    });
    const createObjectURL = vi.fn(() => 'blob:meeting');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    renderSignedIn(<MeetingSummaryDialog meeting={makeMeeting()} onClose={() => {}} />);
    await screen.findByRole('region', { name: 'Criteria' });

    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^meeting-summary-meeting-1-\d{4}-\d{2}-\d{2}\.csv$/);
    delete (URL as Partial<typeof URL>).createObjectURL;
    delete (URL as Partial<typeof URL>).revokeObjectURL;

    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    const share = screen.getByRole('dialog', { name: 'Share Summary' });
    fireEvent.change(within(share).getByRole('textbox', { name: 'Recipient e-mail' }), { target: { value: 'grace@example.com' } });
    fireEvent.click(within(share).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Meeting summary sent.')).toBeTruthy();
    expect(api.sent('POST', '/api/meetings/share/meeting-1')[0]?.body).toEqual({ email: 'grace@example.com' });
  });
});
