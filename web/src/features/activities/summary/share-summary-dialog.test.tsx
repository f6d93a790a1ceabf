import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { jsonResponse } from '../../../testing/json-response';
import { deferred } from '../../../testing/deferred';
import { stubGateway } from '../../../testing/stub-gateway';
import { ShareSummaryDialog } from './share-summary-dialog';
import { renderSignedIn } from './summary-test-fixtures';

const sharePath = '/api/calls/share/call-1';

afterEach(() => {
  vi.restoreAllMocks();
});

const field = () => screen.getByRole('textbox', { name: 'Recipient e-mail' }) as HTMLInputElement;
const send = () => screen.getByRole('button', { name: /Send/ }) as HTMLButtonElement;
const type = (value: string) => fireEvent.change(field(), { target: { value } });

describe('share summary dialog', () => {
  it('keeps Send disabled while the address is empty or invalid, and marks an invalid one', () => {
    stubGateway(() => undefined);
    renderSignedIn(<ShareSummaryDialog kind="call" id="call-1" open onClose={() => {}} />);

    expect(send().disabled).toBe(true);
    type('grace@example');
    expect(send().disabled).toBe(true);
    // Marked once the field is left (or Enter pressed), not while typing the first letters.
    expect(screen.queryByText('Please enter a valid email address')).toBeNull();
    fireEvent.blur(field());
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(field().getAttribute('aria-invalid')).toBe('true');

    for (const invalid of ['grace example.com', 'grace@@example.com', '@example.com', 'grace@example.']) {
      type(invalid);
      expect(send().disabled).toBe(true);
    }
    type('grace@example.com');
    expect(send().disabled).toBe(false);
    expect(screen.queryByText('Please enter a valid email address')).toBeNull();
    expect(field().getAttribute('aria-invalid')).toBeNull();
  });

  it('sends on Enter, disables Send while in flight, then toasts the server message and closes', async () => {
    const answer = deferred<Response>();
    const api = stubGateway((request, url) => (request.method === 'POST' && url.pathname === sharePath ? answer.promise : undefined));
    const onClose = vi.fn();
    const { store } = renderSignedIn(<ShareSummaryDialog kind="call" id="call-1" open onClose={onClose} />);

    type(' grace@example.com ');
    fireEvent.keyDown(field(), { key: 'Enter' });
    await waitFor(() => expect(send().disabled).toBe(true));
    expect(send().textContent).toContain('Sending...');

    answer.resolve(jsonResponse({ success: true, message: 'Summary sent to grace@example.com' }));
    expect(await screen.findByText('Summary sent to grace@example.com')).toBeTruthy();
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(api.sent('POST', sharePath)).toHaveLength(1);
    expect(api.sent('POST', sharePath)[0]?.body).toEqual({ email: 'grace@example.com' });
    expect(store.getState().toasts).toEqual([expect.objectContaining({ kind: 'success', durationMs: 5000 })]);
  });

  it('marks an invalid address on Enter and sends nothing', () => {
    const api = stubGateway(() => undefined);
    renderSignedIn(<ShareSummaryDialog kind="call" id="call-1" open onClose={() => {}} />);
    type('not-an-address');
    fireEvent.keyDown(field(), { key: 'Enter' });
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(api.requests).toHaveLength(0);
  });

  it("shows the server's error, and stays open", async () => {
    stubGateway((request, url) => (request.method === 'POST' && url.pathname === sharePath ? jsonResponse({ error: 'Recipient is not allowed' }, 400) : undefined));
    const onClose = vi.fn();
    renderSignedIn(<ShareSummaryDialog kind="call" id="call-1" open onClose={onClose} />);
    type('grace@example.com');
    fireEvent.click(send());
    expect(await screen.findByText('Recipient is not allowed')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    expect(send().disabled).toBe(false);
  });

  it('falls back to a sentence naming calls or meetings', async () => {
    stubGateway((request) => (request.method === 'POST' ? new Response('oops', { status: 502 }) : undefined));
    const first = renderSignedIn(<ShareSummaryDialog kind="call" id="call-1" open onClose={() => {}} />);
    type('grace@example.com');
    fireEvent.click(send());
    expect(await screen.findByText('Failed to share call summary. Please try again.')).toBeTruthy();
    first.unmount();

    renderSignedIn(<ShareSummaryDialog kind="meeting" id="meeting-1" open onClose={() => {}} />);
    type('grace@example.com');
    fireEvent.click(send());
    expect(await screen.findByText('Failed to share meeting summary. Please try again.')).toBeTruthy();
  });
});
