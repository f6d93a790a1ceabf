import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jobIdOf, uploadAudio, type AudioUploadRequest, type UploadSession } from './audio-upload';
import { isAbortError } from './job-poller';
import { FakeXhr, stubXhr } from './upload-test-fixtures';

const fields = { audioDate: '2025-03-04T10:30:00.000Z', teamId: 'team-1', representative: 'ada@example.com', repName: 'Ada' };
const request = (overrides: Partial<AudioUploadRequest> = {}): AudioUploadRequest => ({
  file: new File(['RIFF'], 'call.wav', { type: 'audio/wav' }),
  fields,
  ...overrides,
});

function tokens(current: string | null, fresh: (string | null)[] = []) {
  let held = current;
  const refresh = vi.fn(async () => {
    held = fresh.shift() ?? null;
    return held;
  });
  const onSessionEnded = vi.fn();
  const csrf: UploadSession = { current: () => held, refresh, onSessionEnded };
  return { csrf, refresh, onSessionEnded };
}

/** Lets the promise chain reach the next XMLHttpRequest. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  stubXhr();
});

describe('uploadAudio', () => {
  it('posts the multipart form with cookies and the CSRF token, reporting upload progress', async () => {
    const progress: number[] = [];
    const { csrf, refresh } = tokens('token-1');
    const answer = uploadAudio(request({ onProgress: (fraction) => progress.push(fraction) }), csrf);
    await flush();

    const [xhr] = FakeXhr.sent;
    expect(xhr?.method).toBe('POST');
    expect(xhr?.url).toBe('/api/calls/transcribe/audio');
    expect(xhr?.withCredentials).toBe(true);
    expect(xhr?.headers).toEqual({ 'X-CSRF-Token': 'token-1' });
    expect(xhr?.fields()).toEqual({ ...fields, file: 'call.wav' });
    expect([...(xhr?.body?.keys() ?? [])]).toEqual(['audioDate', 'teamId', 'representative', 'repName', 'file']);

    xhr?.progress(25, 100);
    xhr?.progress(100, 100);
    xhr?.answer(200, { jobId: 'job-1', message: 'File received. Processing has started.' });
    const result = await answer;
    expect(progress).toEqual([0.25, 1]);
    expect(result).toEqual({ status: 200, body: { jobId: 'job-1', message: 'File received. Processing has started.' } });
    expect(jobIdOf(result)).toBe('job-1');
    expect(refresh).not.toHaveBeenCalled();
  });

  it('fetches a token first when none is held', async () => {
    const { csrf, refresh } = tokens(null, ['fresh']);
    const answer = uploadAudio(request(), csrf);
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
    FakeXhr.sent[0]?.answer(200, { jobId: 'job-1' });
    await answer;
    expect(FakeXhr.sent[0]?.headers['X-CSRF-Token']).toBe('fresh');
  });

  it("fetches a new token and sends once more when the gateway answers 'CSRF validation failed'", async () => {
    const { csrf, refresh } = tokens('stale', ['fresh']);
    const answer = uploadAudio(request(), csrf);
    await flush();
    FakeXhr.sent[0]?.answer(403, { error: 'CSRF validation failed' });
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(FakeXhr.sent[1]?.headers['X-CSRF-Token']).toBe('fresh');
    FakeXhr.sent[1]?.answer(200, { jobId: 'job-2' });
    expect(jobIdOf(await answer)).toBe('job-2');
  });

  it("rejects with 'Failed to obtain CSRF token' when no token can be had", async () => {
    const { csrf } = tokens(null, [null]);
    await expect(uploadAudio(request(), csrf)).rejects.toThrow('Failed to obtain CSRF token');
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it('hands back any other status with its body, and ends the session on an expired one', async () => {
    const { csrf, onSessionEnded } = tokens('token-1');
    const refused = uploadAudio(request(), csrf);
    await flush();
    FakeXhr.sent[0]?.answer(400, { error: 'call.wav is not an audio file Parlance can read.' });
    const result = await refused;
    expect(result.status).toBe(400);
    expect(jobIdOf(result)).toBeUndefined();

    const expired = uploadAudio(request(), csrf);
    await flush();
    FakeXhr.sent[1]?.answer(401, { error: 'Please sign in to continue.' });
    expect((await expired).status).toBe(401);
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
  });

  it('rejects on a network failure, and with an AbortError when abandoned', async () => {
    const { csrf } = tokens('token-1');
    const lost = uploadAudio(request(), csrf);
    await flush();
    FakeXhr.sent[0]?.fail();
    await expect(lost).rejects.toThrow('Network error');

    const controller = new AbortController();
    const abandoned = uploadAudio(request({ signal: controller.signal }), csrf);
    await flush();
    controller.abort();
    await expect(abandoned).rejects.toSatisfy(isAbortError);
  });
});
