import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { jsonResponse } from '../../../testing/json-response';
import { renderWithStore } from '../../../testing/render-with-store';
import { signedInState } from '../../../testing/signed-in';
import { routeTable, stubGateway } from '../../../testing/stub-gateway';
import { UploadMeetingsDialog } from './upload-meetings-dialog';
import { sizedFile, teamRoutes, toasts } from './upload-test-fixtures';

afterEach(() => {
  vi.useRealTimers();
});

type Routes = Parameters<typeof routeTable>[0];

function openDialog(routes: Routes = {}, state = signedInState()) {
  const gateway = stubGateway(routeTable({ 'GET /api/csrf-token': () => jsonResponse({ csrfToken: 'token-1' }), ...teamRoutes, ...routes }));
  const onClose = vi.fn();
  const onUploadsFinished = vi.fn();
  const view = renderWithStore(<UploadMeetingsDialog open onClose={onClose} onUploadsFinished={onUploadsFinished} />, state);
  return { ...view, gateway, onClose, onUploadsFinished };
}

const upload = () => screen.getByRole('button', { name: 'Upload' }) as HTMLButtonElement;
const transcript = (name: string, content = 'Ada: hello', size = content.length) => sizedFile(name, size, content, 'text/plain');
const pick = (files: File[]) => fireEvent.change(screen.getByLabelText('Transcript files'), { target: { files } });
const listed = () => within(screen.getByRole('list', { name: 'Selected files' })).getAllByRole('listitem').map((item) => item.firstChild?.textContent);

async function chooseTeamAndRepresentative() {
  await screen.findByRole('option', { name: 'Inbound sales' });
  fireEvent.change(screen.getByLabelText('Team'), { target: { value: 'team-1' } });
  await screen.findByRole('option', { name: 'Ada Lovelace (ada@example.com)' });
  fireEvent.change(screen.getByLabelText('Representative'), { target: { value: 'ada@example.com' } });
}

const jobStatus = (status: 'active' | 'completed' | 'failed', failedReason = '') =>
  jsonResponse({ status, isCompleted: status === 'completed', isFailed: status === 'failed', failedReason, activityId: 'm-1' });

describe('Upload Meetings dialog', () => {
  it('has a team select, a representative select, a .txt/.md/.text picker and notes', async () => {
    openDialog();
    expect(screen.getByRole('dialog', { name: 'Upload Meetings' })).toBeTruthy();
    await screen.findByRole('option', { name: 'Inbound sales' });
    expect((screen.getByLabelText('Representative') as HTMLSelectElement).disabled).toBe(true);
    const picker = screen.getByLabelText('Transcript files') as HTMLInputElement;
    expect([picker.type, picker.accept, picker.multiple]).toEqual(['file', '.txt,.md,.text', true]);
    expect(screen.getByLabelText('Notes').tagName).toBe('TEXTAREA');
  });

  it('keeps Upload disabled until a file is chosen, lists the files with Remove and drops other extensions', async () => {
    openDialog();
    expect(upload().disabled).toBe(true);

    pick([transcript('Weekly sync.md'), transcript('notes.txt'), transcript('deck.pdf')]);
    expect(listed()).toEqual(['Weekly sync.md', 'notes.txt']);
    expect(upload().disabled).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Remove Weekly sync.md' }));
    expect(listed()).toEqual(['notes.txt']);
    pick([transcript('more.text')]);
    expect(listed()).toEqual(['notes.txt', 'more.text']);

    fireEvent.click(screen.getByRole('button', { name: 'Remove notes.txt' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove more.text' }));
    expect(screen.queryByRole('list', { name: 'Selected files' })).toBeNull();
    expect(upload().disabled).toBe(true);
  });

  it('says the company id is missing first, as a warning', async () => {
    openDialog({}, signedInState({ company: { id: '' } }));
    pick([transcript('a.txt')]);
    fireEvent.click(upload());
    expect(toasts()).toEqual(['warning: Upload failed: Company ID is missing.']);
  });

  it('checks team, representative and file size in that order, as warnings', async () => {
    const { gateway } = openDialog();
    await screen.findByRole('option', { name: 'Inbound sales' });
    pick([transcript('big.txt', 'x', 102_401), transcript('ok.md', 'x', 102_400)]);

    fireEvent.click(upload());
    expect(toasts().at(-1)).toBe('warning: Please select a team.');
    fireEvent.change(screen.getByLabelText('Team'), { target: { value: 'team-1' } });
    fireEvent.click(upload());
    expect(toasts().at(-1)).toBe('warning: Please provide a Representative.');
    await screen.findByRole('option', { name: 'Ada Lovelace (ada@example.com)' });
    fireEvent.change(screen.getByLabelText('Representative'), { target: { value: 'ada@example.com' } });
    fireEvent.click(upload());
    expect(toasts().at(-1)).toBe('warning: The following files are too large (max 100KB): big.txt');
    expect(gateway.sent('POST', '/api/meetings/upload')).toHaveLength(0);
  });

  it('sends each file with the notes, polls every 2 s until done, then reports and closes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let done = false;
    const { gateway, onClose, onUploadsFinished } = openDialog({
      'POST /api/meetings/upload': async (request) => {
        const body = (await request.json()) as { meetingName: string };
        return jsonResponse({ jobId: `job-${body.meetingName}`, message: 'Meeting received. Processing has started.' }, 202);
      },
      'GET /api/meetings/upload-status/*': () => jobStatus(done ? 'completed' : 'active'),
    });
    await chooseTeamAndRepresentative();
    pick([transcript('Weekly sync.md', 'Ada: hello'), transcript('Retro.txt', 'Alan: hi')]);
    fireEvent.change(screen.getByLabelText('Notes'), { target: { value: '  Follow up on pricing  ' } });
    fireEvent.click(upload());

    await screen.findByText('All files uploaded! Processing 2 files...');
    expect(screen.getByRole('button', { name: /Uploading/ }).hasAttribute('disabled')).toBe(true);
    const posts = gateway.sent('POST', '/api/meetings/upload');
    expect(posts.map((request) => request.body)).toEqual([
      { meetingName: 'Weekly sync.md', content: 'Ada: hello', teamId: 'team-1', repEmail: 'ada@example.com', notes: 'Follow up on pricing' },
      { meetingName: 'Retro.txt', content: 'Alan: hi', teamId: 'team-1', repEmail: 'ada@example.com', notes: 'Follow up on pricing' },
    ]);
    expect(posts.every((request) => request.headers.get('X-CSRF-Token') === 'token-1')).toBe(true);

    await act(() => vi.advanceTimersByTimeAsync(2_000));
    const polls = () => gateway.requests.filter((request) => request.path.startsWith('/api/meetings/upload-status/')).map((request) => request.path);
    expect(polls()).toEqual(['/api/meetings/upload-status/job-Weekly%20sync.md', '/api/meetings/upload-status/job-Retro.txt']);
    expect(onUploadsFinished).not.toHaveBeenCalled();

    done = true;
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    await waitFor(() => expect(onUploadsFinished).toHaveBeenCalledWith('team-1'));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(toasts()).toEqual(['success: Successfully uploaded and processed all 2/2 meeting(s)!']);
  });

  it('warns with the errors when some meetings fail', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { onUploadsFinished } = openDialog({
      'POST /api/meetings/upload': async (request) => {
        const body = (await request.json()) as { meetingName: string };
        if (body.meetingName === 'refused.txt') return jsonResponse({ error: 'Please select a team.' }, 400);
        return jsonResponse({ jobId: body.meetingName === 'ok.txt' ? 'job-ok' : 'job-bad' }, 202);
      },
      'GET /api/meetings/upload-status/job-ok': () => jobStatus('completed'),
      'GET /api/meetings/upload-status/job-bad': () => jobStatus('failed', 'Processing failed for bad.md: no speakers'),
    });
    await chooseTeamAndRepresentative();
    pick([transcript('ok.txt'), transcript('refused.txt'), transcript('bad.md')]);
    fireEvent.click(upload());

    await screen.findByText('All files uploaded! Processing 2 files...');
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    await waitFor(() => expect(onUploadsFinished).toHaveBeenCalledWith('team-1'));
    expect(toasts()).toEqual([
      'warning: Processed 1/3 meeting(s) successfully. 2 failed. Errors: refused.txt: Failed to upload meeting: Unexpected status code: 400; Processing failed for bad.md: no speakers',
    ]);
  });

  it('shows an error and stays open when no meeting is accepted', async () => {
    const { onClose, onUploadsFinished } = openDialog({ 'POST /api/meetings/upload': () => jsonResponse({ error: 'boom' }, 500) });
    await chooseTeamAndRepresentative();
    pick([transcript('a.txt')]);
    fireEvent.click(upload());
    await waitFor(() =>
      expect(toasts()).toEqual(['error: Processed 0/1 meeting(s) successfully. 1 failed. Errors: a.txt: Failed to upload meeting: Unexpected status code: 500']),
    );
    expect(upload().disabled).toBe(false);
    expect(listed()).toEqual(['a.txt']);
    expect(onClose).not.toHaveBeenCalled();
    expect(onUploadsFinished).not.toHaveBeenCalled();
  });
});
