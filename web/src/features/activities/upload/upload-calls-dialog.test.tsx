import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { jsonResponse } from '../../../testing/json-response';
import { renderWithStore } from '../../../testing/render-with-store';
import { signedInState } from '../../../testing/signed-in';
import { routeTable, stubGateway } from '../../../testing/stub-gateway';
import { UploadCallsDialog } from './upload-calls-dialog';
import { FakeXhr, sizedFile, stubXhr, teamRoutes, toasts } from './upload-test-fixtures';

let alertSpy: MockInstance<typeof window.alert>;

beforeEach(() => {
  alertSpy = vi.spyOn(window, 'alert').mockImplementation(() => {});
});

afterEach(() => {
  alertSpy.mockRestore();
  vi.useRealTimers();
});

type Routes = Parameters<typeof routeTable>[0];

function openDialog(routes: Routes = {}, state = signedInState()) {
  const gateway = stubGateway(routeTable({ ...teamRoutes, ...routes }));
  stubXhr();
  const onClose = vi.fn();
  const onUploadsFinished = vi.fn();
  const view = renderWithStore(<UploadCallsDialog open onClose={onClose} onUploadsFinished={onUploadsFinished} />, { ...state, csrf: { token: 'token-1' } });
  return { ...view, gateway, onClose, onUploadsFinished };
}

const upload = () => screen.getByRole('button', { name: 'Upload' });

async function chooseTeamAndRepresentative() {
  await screen.findByRole('option', { name: 'Inbound sales' });
  fireEvent.change(screen.getByLabelText('Team'), { target: { value: 'team-1' } });
  await screen.findByRole('option', { name: 'Ada Lovelace (ada@example.com)' });
  fireEvent.change(screen.getByLabelText('Representative'), { target: { value: 'ada@example.com' } });
}

const pick = (label: string, files: File[]) => fireEvent.change(screen.getByLabelText(label), { target: { files } });

const audio = (name: string, size = 1_000) => sizedFile(name, size, 'RIFF', 'audio/wav');
const text = (name: string, content = 'Ada: hello') => sizedFile(name, content.length, content, 'text/plain');

describe('Upload Audio/Text Files dialog', () => {
  it('offers the teams of the current department, then the representatives of the chosen team', async () => {
    const { gateway } = openDialog();
    expect(screen.getByRole('dialog', { name: 'Upload Audio/Text Files' })).toBeTruthy();
    await screen.findByRole('option', { name: 'Inbound sales' });
    const teamSelect = screen.getByLabelText('Team') as HTMLSelectElement;
    expect(Array.from(teamSelect.options).map((option) => option.textContent)).toEqual(['Select a team', 'Inbound sales', 'Outbound sales']);
    expect(gateway.requests.find((request) => request.path === '/api/teams/fetch/')).toBeTruthy();
    expect(screen.queryByLabelText('Representative')).toBeNull();

    fireEvent.change(teamSelect, { target: { value: 'team-1' } });
    await screen.findByRole('option', { name: 'Ada Lovelace (ada@example.com)' });
    const reps = screen.getByLabelText('Representative') as HTMLSelectElement;
    expect(Array.from(reps.options).map((option) => option.textContent)).toEqual(['Select a representative', 'Ada Lovelace (ada@example.com)', 'alan@example.com']);

    const audioInput = screen.getByLabelText('Audio files') as HTMLInputElement;
    const textInput = screen.getByLabelText('Text files') as HTMLInputElement;
    expect([audioInput.type, audioInput.accept, audioInput.multiple]).toEqual(['file', 'audio/*', true]);
    expect([textInput.type, textInput.accept, textInput.multiple]).toEqual(['file', '.txt', true]);
  });

  it('shows no representatives when they cannot be fetched', async () => {
    openDialog();
    await screen.findByRole('option', { name: 'Outbound sales' });
    fireEvent.change(screen.getByLabelText('Team'), { target: { value: 'team-2' } });
    await waitFor(() => expect((screen.getByLabelText('Representative') as HTMLSelectElement).getAttribute('aria-busy')).toBeNull());
    expect(Array.from((screen.getByLabelText('Representative') as HTMLSelectElement).options).map((option) => option.textContent)).toEqual([
      'Select a representative',
    ]);
  });

  it('says the company id is missing before anything else', async () => {
    openDialog({}, signedInState({ company: { id: '' } }));
    fireEvent.click(upload());
    expect(toasts()).toEqual(['error: Upload failed: Company ID is missing.']);
  });

  it('checks team, representative, files and audio size in that order, as errors', async () => {
    openDialog();
    await screen.findByRole('option', { name: 'Inbound sales' });
    fireEvent.click(upload());
    expect(toasts().at(-1)).toBe('error: Please select a team.');

    fireEvent.change(screen.getByLabelText('Team'), { target: { value: 'team-1' } });
    fireEvent.click(upload());
    expect(toasts().at(-1)).toBe('error: Please provide a Representative.');

    await screen.findByRole('option', { name: 'Ada Lovelace (ada@example.com)' });
    fireEvent.change(screen.getByLabelText('Representative'), { target: { value: 'ada@example.com' } });
    fireEvent.click(upload());
    expect(toasts().at(-1)).toBe('error: Please select at least one file to upload.');

    pick('Audio files', [audio('big.mp3', 26_214_401), audio('ok.mp3', 26_214_400), audio('huge.wav', 40_000_000)]);
    fireEvent.click(upload());
    expect(toasts().at(-1)).toBe('error: The following audio files are too large (max 25MB): big.mp3, huge.wav');
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it('uploads files one by one with real progress, waits for the jobs, then reports and closes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let processed = false;
    const { gateway, onClose, onUploadsFinished } = openDialog({
      'POST /api/calls/transcribe/text': () => jsonResponse({ jobId: 'job-b', message: 'File received. Processing has started.' }),
      'GET /api/queue/job/*': () => jsonResponse({ status: processed ? 'completed' : 'active', isCompleted: processed, isFailed: false, failedReason: '', activityId: 'x' }),
    });
    await chooseTeamAndRepresentative();
    pick('Audio files', [audio('a.mp3')]);
    pick('Text files', [text('b.txt', 'Ada: hi there')]);
    fireEvent.click(upload());

    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const xhr = FakeXhr.sent[0] as FakeXhr;
    expect(xhr.headers['X-CSRF-Token']).toBe('token-1');
    expect(xhr.fields()).toEqual({ audioDate: '2025-03-04T10:30:00.000Z', teamId: 'team-1', representative: 'ada@example.com', repName: 'Ada', file: 'a.mp3' });
    const status = screen.getByRole('status');
    expect(within(status).getByText('Uploading 2 files...')).toBeTruthy();
    expect(within(status).getByText('Uploading file 1/2')).toBeTruthy();
    expect((screen.getByRole('button', { name: /Uploading/ }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);

    act(() => xhr.progress(40, 100));
    expect((screen.getByLabelText('a.mp3 upload progress') as HTMLProgressElement).value).toBe(40);
    act(() => xhr.answer(200, { jobId: 'job-a', message: 'File received. Processing has started.' }));

    await screen.findByText('All files uploaded! Processing 2 files...');
    expect(gateway.sent('POST', '/api/calls/transcribe/text').map((request) => [request.body, request.headers.get('X-CSRF-Token')])).toEqual([
      [{ fileName: 'b.txt', content: 'Ada: hi there', date: '2025-03-04T10:30:00.000Z', teamId: 'team-1', representative: 'ada@example.com', repName: 'Ada' }, 'token-1'],
    ]);
    expect((screen.getByLabelText('b.txt upload progress') as HTMLProgressElement).value).toBe(100);

    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(screen.getByText('5s elapsed')).toBeTruthy();
    const polled = gateway.requests.filter((request) => request.path.startsWith('/api/queue/job/')).map((request) => request.path);
    expect(polled).toContain('/api/queue/job/job-a');
    expect(polled).toContain('/api/queue/job/job-b');
    expect(onUploadsFinished).not.toHaveBeenCalled();

    processed = true;
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    await waitFor(() => expect(onUploadsFinished).toHaveBeenCalledWith('team-1'));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(toasts()).toEqual(['success: Processed 2/2 files successfully.']);
  });

  it('warns with the failures when some jobs fail or are not found', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { onUploadsFinished } = openDialog({
      'GET /api/queue/job/job-1': () => jsonResponse({ status: 'completed', isCompleted: true, isFailed: false, failedReason: '', activityId: 'x' }),
      'GET /api/queue/job/job-2': () =>
        jsonResponse({ status: 'failed', isCompleted: false, isFailed: true, failedReason: 'Processing failed for b.mp3: no speech', activityId: 'y' }),
    });
    let next = 0;
    FakeXhr.autoAnswer = (xhr) => queueMicrotask(() => xhr.answer(200, { jobId: `job-${++next}` }));
    await chooseTeamAndRepresentative();
    pick('Audio files', [audio('a.mp3'), audio('b.mp3'), audio('c.mp3')]);
    fireEvent.click(upload());

    await screen.findByText('All files uploaded! Processing 3 files...');
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    await waitFor(() => expect(onUploadsFinished).toHaveBeenCalledWith('team-1'));
    expect(toasts()).toEqual(['warning: Processed 1/3 files successfully. 2 failed. Errors: Job job-2 failed: Processing failed for b.mp3: no speech; Job job-3 not found']);
  });

  it('alerts a refused audio file and stays open when nothing was queued', async () => {
    const { onClose, onUploadsFinished } = openDialog();
    FakeXhr.autoAnswer = (xhr) => queueMicrotask(() => xhr.answer(500, { error: 'Internal Server Error' }));
    await chooseTeamAndRepresentative();
    pick('Audio files', [audio('a.mp3')]);
    fireEvent.click(upload());

    await waitFor(() => expect(alertSpy).toHaveBeenCalledWith('Error uploading a.mp3: Unexpected status code 500'));
    await waitFor(() => expect((upload() as HTMLButtonElement).disabled).toBe(false));
    expect(onClose).not.toHaveBeenCalled();
    expect(onUploadsFinished).not.toHaveBeenCalled();
    expect(toasts()).toEqual([]);
  });

  it("alerts 'Error uploading text: ...' with the gateway's reason", async () => {
    openDialog({ 'POST /api/calls/transcribe/text': () => jsonResponse({ error: 'ada@example.com is not a representative of the selected team.' }, 400) });
    await chooseTeamAndRepresentative();
    pick('Text files', [text('b.txt')]);
    fireEvent.click(upload());
    await waitFor(() => expect(alertSpy).toHaveBeenCalledWith('Error uploading text: b.txt: ada@example.com is not a representative of the selected team.'));
  });

  it('Cancel closes the dialog', async () => {
    const { onClose } = openDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
