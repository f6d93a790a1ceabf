import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { jsonResponse } from '../../../testing/json-response';
import { stubGateway } from '../../../testing/stub-gateway';
import { ReportIssueDialog } from './report-issue-dialog';
import { renderSignedIn } from './summary-test-fixtures';

const feedbackPath = '/api/calls/feedback/call-1';

afterEach(() => {
  vi.restoreAllMocks();
});

const field = () => screen.getByRole('textbox', { name: 'Describe the issue' }) as HTMLTextAreaElement;
const submit = () => screen.getByRole('button', { name: /Submit/ }) as HTMLButtonElement;
const counter = () => document.querySelector('.summary-report__counter') as HTMLElement;
const type = (value: string) => fireEvent.change(field(), { target: { value } });

describe('report issue dialog', () => {
  it('counts up to 1000 characters and warns above 900', () => {
    stubGateway(() => undefined);
    renderSignedIn(<ReportIssueDialog kind="call" id="call-1" open onClose={() => {}} />);

    expect(field().maxLength).toBe(1000);
    expect(counter().textContent).toBe('0/1000');
    type('a'.repeat(900));
    expect(counter().textContent).toBe('900/1000');
    expect(counter().classList.contains('summary-report__counter--warn')).toBe(false);
    type('a'.repeat(901));
    expect(counter().textContent).toBe('901/1000');
    expect(counter().classList.contains('summary-report__counter--warn')).toBe(true);
    // More than the limit (a paste the browser let through) is cut at 1000.
    type('b'.repeat(1200));
    expect(field().value).toHaveLength(1000);
    expect(counter().textContent).toBe('1000/1000');
    expect(submit().disabled).toBe(false);
  });

  it('keeps Submit disabled until the description has more than spaces', () => {
    stubGateway(() => undefined);
    renderSignedIn(<ReportIssueDialog kind="call" id="call-1" open onClose={() => {}} />);
    expect(submit().disabled).toBe(true);
    type('   \n ');
    expect(submit().disabled).toBe(true);
    type(' The speakers are swapped. ');
    expect(submit().disabled).toBe(false);
  });

  it('sends the description and toasts the server message, or the default', async () => {
    const api = stubGateway((request, url) => (request.method === 'POST' && url.pathname === feedbackPath ? jsonResponse({ success: true, message: '' }) : undefined));
    const onClose = vi.fn();
    const { store } = renderSignedIn(<ReportIssueDialog kind="call" id="call-1" open onClose={onClose} />);
    type(' The speakers are swapped. ');
    fireEvent.click(submit());
    expect(await screen.findByText('Feedback submitted successfully')).toBeTruthy();
    expect(api.sent('POST', feedbackPath)[0]?.body).toEqual({ description: 'The speakers are swapped.' });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(store.getState().toasts).toEqual([expect.objectContaining({ kind: 'success', durationMs: 5000 })]);
  });

  it('says Failed to submit feedback when the answer is not a success', async () => {
    stubGateway((request) => (request.method === 'POST' ? jsonResponse({ success: false, message: 'Not stored' }) : undefined));
    const onClose = vi.fn();
    renderSignedIn(<ReportIssueDialog kind="meeting" id="meeting-1" open onClose={onClose} />);
    type('Wrong outcome');
    fireEvent.click(submit());
    expect(await screen.findByText('Failed to submit feedback')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it("shows the server's error, else a sentence naming the kind", async () => {
    let answer = jsonResponse({ error: 'Description is too long' }, 400);
    const api = stubGateway((request) => (request.method === 'POST' ? answer : undefined));
    const first = renderSignedIn(<ReportIssueDialog kind="meeting" id="meeting-1" open onClose={() => {}} />);
    type('Wrong outcome');
    fireEvent.click(submit());
    expect(await screen.findByText('Description is too long')).toBeTruthy();
    expect(api.sent('POST', '/api/meetings/feedback/meeting-1')).toHaveLength(1);
    first.unmount();

    answer = new Response('', { status: 500 });
    renderSignedIn(<ReportIssueDialog kind="call" id="call-1" open onClose={() => {}} />);
    type('Wrong outcome');
    fireEvent.click(submit());
    expect(await screen.findByText('Failed to submit call feedback. Please try again.')).toBeTruthy();
  });
});
