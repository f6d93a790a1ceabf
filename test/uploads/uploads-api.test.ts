/**
 * Uploads of calls and meetings end to end (spec part 2 §3–§5, §7, §8): the gateway over real
 * HTTP, identity, ingest and transcription on PostgreSQL and Kafka. Text transcripts become stored
 * transcripts with speakers and roles; every refusal has the spec's sentence and stores nothing;
 * broken files end their job failed with a reason; jobs and deletions never cross companies.
 */
import { randomUUID } from 'node:crypto';
import { access, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities } from '@parlance/ingest/db/schema';
import { diskMediaStore } from '@parlance/ingest/media/media-store';
import { sweepOrphanedMedia } from '@parlance/ingest/media/sweep-orphaned-media';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import { createAudioWorkspace } from '../../services/transcription/test/support/audio-files.js';
import { startIdentityStack, type IdentityStack } from '../support/identity-stack.js';
import { waitFor } from '../support/wait-for.js';
import { activityOfJob, finishedJob, storedTranscript, uploadingCompany, type UploadingCompany } from './upload-fixtures.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let stack: IdentityStack;
let acme: UploadingCompany;
let globex: UploadingCompany;

beforeAll(async () => {
  stack = await startIdentityStack({ withIngest: true });
  [acme, globex] = await Promise.all([uploadingCompany(stack, { first_name: 'Grace' }), uploadingCompany(stack, { first_name: 'Linus' })]);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

interface Upload {
  jobId: string;
  message: string;
}

const callText = (company: UploadingCompany, overrides: Record<string, unknown> = {}) => ({
  fileName: 'renewal-call.txt',
  content: 'Grace: Thank you for calling Parlance, this is Grace. How can I help?\nMorgan: Hi, I would like to renew our plan.\nGrace: Of course, let me pull up your account.',
  date: '2026-11-20T09:30:00Z',
  teamId: company.teamId,
  representative: company.representative.email,
  repName: 'Grace',
  ...overrides,
});

const meeting = (company: UploadingCompany, overrides: Record<string, unknown> = {}) => ({
  meetingName: 'Quarterly review.vtt.txt',
  content: 'WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v Grace>Welcome everyone to the quarterly review.\n\n00:00:04.500 --> 00:00:08.000\n<v Priya>Thanks, happy to be here.\n',
  teamId: company.teamId,
  repEmail: company.representative.email,
  ...overrides,
});

async function activityCount(companyId: string): Promise<number> {
  const [row] = await stack.runtime('ingest').database.db.select({ value: count() }).from(activities).where(eq(activities.companyId, companyId));
  return row!.value;
}


describe('text uploads', () => {
  it('takes a call transcript, answers with a job id, and the job completes with the transcript stored with speakers and roles', async () => {
    const upload = await acme.browser.post<Upload>('/api/calls/transcribe/text', callText(acme));
    expect(upload.status).toBe(200);
    expect(upload.body).toEqual({ jobId: expect.any(String), message: 'File received. Processing has started.' });

    const job = await finishedJob(acme.browser, `/api/queue/job/${upload.body.jobId}`);
    expect(job).toEqual({ status: 'completed', isCompleted: true, isFailed: false, failedReason: '', activityId: expect.stringMatching(UUID) });

    expect(job.activityId).toBe(await activityOfJob(stack, acme.companyId, upload.body.jobId));
    const transcript = await storedTranscript(stack, acme.companyId, await activityOfJob(stack, acme.companyId, upload.body.jobId));
    expect(transcript).toMatchObject({ sourceFormat: 'speaker-lines', engine: 'text', warnings: [] });
    expect(transcript!.speakers).toEqual([
      { label: 'Grace', role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE },
      { label: 'Morgan', role: SpeakerRole.SPEAKER_ROLE_CONTACT },
    ]);
    expect(transcript!.segments.map((segment) => segment.speaker)).toEqual(['Grace', 'Morgan', 'Grace']);
  });

  it('takes a meeting with 202 and a job id; its status completes and the WebVTT voices become the speakers', async () => {
    const upload = await acme.browser.post<Upload>('/api/meetings/upload', meeting(acme));
    expect(upload.status).toBe(202);
    expect(upload.body).toEqual({ jobId: expect.any(String), message: 'Meeting received. Processing has started.' });

    const job = await finishedJob(acme.browser, `/api/meetings/upload-status/${upload.body.jobId}`);
    expect(job.isCompleted).toBe(true);
    expect(job.activityId).toBe(await activityOfJob(stack, acme.companyId, upload.body.jobId));
    const transcript = await storedTranscript(stack, acme.companyId, await activityOfJob(stack, acme.companyId, upload.body.jobId));
    expect(transcript).toMatchObject({ sourceFormat: 'webvtt', durationMs: 8_000 });
    expect(transcript!.segments[0]).toMatchObject({ speaker: 'Grace', startMs: 1_000, endMs: 4_000, text: 'Welcome everyone to the quarterly review.' });
  });

  it('reads text with no speakers as one speaker, with a warning, never a failure', async () => {
    const upload = await acme.browser.post<Upload>('/api/calls/transcribe/text', callText(acme, { fileName: 'notes.txt', content: 'we talked about the renewal and the price' }));
    const job = await finishedJob(acme.browser, `/api/queue/job/${upload.body.jobId}`);
    expect(job.isCompleted).toBe(true);
    expect(job.activityId).toBe(await activityOfJob(stack, acme.companyId, upload.body.jobId));
    const transcript = await storedTranscript(stack, acme.companyId, await activityOfJob(stack, acme.companyId, upload.body.jobId));
    expect(transcript!.speakers).toEqual([{ label: 'Speaker 1', role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE }]);
    expect(transcript!.warnings).toEqual(['No speakers found in notes.txt: the whole text is treated as one speaker.']);
  });

  it("ends the job of an empty transcript failed with 'Processing failed for {file}: {reason}'", async () => {
    const upload = await acme.browser.post<Upload>('/api/calls/transcribe/text', callText(acme, { fileName: 'blank.txt', content: '   \n\n' }));
    expect(upload.status).toBe(200);
    const job = await finishedJob(acme.browser, `/api/queue/job/${upload.body.jobId}`);
    expect(job).toEqual({ status: 'failed', isCompleted: false, isFailed: true, failedReason: 'Processing failed for blank.txt: the transcript has no text', activityId: expect.stringMatching(UUID) });
  });
});

describe('refused uploads', () => {
  const cases: Array<[string, string, (company: UploadingCompany) => Record<string, unknown>, string]> = [
    ['a call without a team', '/api/calls/transcribe/text', (c) => callText(c, { teamId: '' }), 'Please select a team.'],
    ['a call without a representative', '/api/calls/transcribe/text', (c) => callText(c, { representative: '  ' }), 'Please provide a Representative.'],
    ['a call without a file', '/api/calls/transcribe/text', (c) => callText(c, { fileName: '' }), 'Please select at least one file to upload.'],
    ['a meeting without a file', '/api/meetings/upload', (c) => meeting(c, { meetingName: undefined }), 'Please select at least one text file to upload.'],
    ['a meeting that is no text file', '/api/meetings/upload', (c) => meeting(c, { meetingName: 'slides.pdf' }), 'The following files are not text files (accepted: .txt, .md, .text): slides.pdf'],
    ['a meeting over 100 KB', '/api/meetings/upload', (c) => meeting(c, { meetingName: 'long.md', content: 'Grace: hello\n'.repeat(8_000) }), 'The following files are too large (max 100KB): long.md'],
    ['a call for a team of another company', '/api/calls/transcribe/text', (c) => callText(c, { teamId: globex.teamId }), 'The selected team was not found in your company. Please select a team.'],
    ['a call for someone not in the team', '/api/calls/transcribe/text', (c) => callText(c, { representative: 'stranger@example.com' }), 'stranger@example.com is not a representative of the selected team.'],
    ['a call with a date that is none', '/api/calls/transcribe/text', (c) => callText(c, { date: 'last Tuesday' }), 'date must be a date and time (ISO 8601), e.g. 2026-11-22T10:30:00Z.'],
  ];

  it.each(cases)('refuses %s with its sentence and stores nothing', async (_name, route, body, message) => {
    const before = await activityCount(acme.companyId);
    const response = await acme.browser.post(route, body(acme));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: message, message });
    expect(await activityCount(acme.companyId)).toBe(before);
  });

  it('refuses a file that is not audio by its content, whatever its name, naming the file', async () => {
    const form = audioForm(acme, new Blob(['ID3 is not enough: this is a text file'], { type: 'audio/mpeg' }), 'call.mp3');
    const response = await acme.browser.postForm('/api/calls/transcribe/audio', form);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'call.mp3 is not an audio file Parlance can read (accepted: WAV, MP3, M4A/AAC, OGG/Opus, FLAC or WebM).' });
  });

  it('refuses audio over 25 MB, naming the file', async () => {
    const header = wavHeader(30_000_000);
    const form = audioForm(acme, new Blob([header, new Uint8Array(26_214_400)]), 'huge.wav');
    const response = await acme.browser.postForm('/api/calls/transcribe/audio', form);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'The following audio files are too large (max 25MB): huge.wav' });
  });

  it('refuses an upload without a session, and a change without the CSRF token', async () => {
    const anonymous = stack.browser();
    expect((await anonymous.post('/api/calls/transcribe/text', callText(acme))).status).toBe(401);
    expect((await acme.browser.post('/api/calls/transcribe/text', callText(acme), { withoutCsrf: true })).status).toBe(403);
  });
});

describe('broken recordings', () => {
  it('ends the job of an empty audio file failed with a reason', async () => {
    const upload = await acme.browser.postForm<Upload>('/api/calls/transcribe/audio', audioForm(acme, new Blob([]), 'empty.wav'));
    expect(upload.status).toBe(200);
    const job = await finishedJob(acme.browser, `/api/queue/job/${upload.body.jobId}`);
    expect(job).toMatchObject({ isFailed: true, failedReason: 'Processing failed for empty.wav: the file is empty' });
  });

  it('ends the job of a WAV with a header and no sound failed with a reason', async () => {
    const upload = await acme.browser.postForm<Upload>('/api/calls/transcribe/audio', audioForm(acme, new Blob([wavHeader(1_000_000)]), 'cut-off.wav'));
    expect(upload.status).toBe(200);
    const job = await finishedJob(acme.browser, `/api/queue/job/${upload.body.jobId}`);
    expect(job.isFailed).toBe(true);
    expect(job.failedReason).toMatch(/^Processing failed for cut-off\.wav: \S.+/);
  });

  it('ends the job of a FLAC whose frames are garbage failed with a reason', async () => {
    const audio = await createAudioWorkspace();
    await audio.ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=300:duration=5', '-ar', '16000', audio.path('tone.flac'));
    const flac = await readFile(audio.path('tone.flac'));
    await audio.remove();
    // The stream header stays whole, so the upload is taken as FLAC; every frame after it is noise.
    for (let i = 200; i < flac.length; i++) flac[i] = (i * 7919) % 251;
    const upload = await acme.browser.postForm<Upload>('/api/calls/transcribe/audio', audioForm(acme, new Blob([flac]), 'scrambled.flac'));
    expect(upload.status).toBe(200);
    const job = await finishedJob(acme.browser, `/api/queue/job/${upload.body.jobId}`);
    expect(job).toMatchObject({ isFailed: true, failedReason: 'Processing failed for scrambled.flac: the file contains no audio' });
  });
});

describe('jobs belong to their company', () => {
  it('answers 404 for an unknown job, a malformed id, another company’s job, and a call job asked as a meeting', async () => {
    const upload = await acme.browser.post<Upload>('/api/calls/transcribe/text', callText(acme));
    await finishedJob(acme.browser, `/api/queue/job/${upload.body.jobId}`);

    expect((await acme.browser.get('/api/queue/job/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await acme.browser.get('/api/queue/job/not-a-job')).status).toBe(404);
    const foreign = await globex.browser.get(`/api/queue/job/${upload.body.jobId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: `Job ${upload.body.jobId} not found.`, message: `Job ${upload.body.jobId} not found.` });
    expect((await acme.browser.get(`/api/meetings/upload-status/${upload.body.jobId}`)).status).toBe(404);
  });
});

describe('deleting', () => {
  it('removes a call everywhere: its job, its media and (through ingest.activity-deleted) its transcript', async () => {
    const upload = await acme.browser.post<Upload>('/api/calls/transcribe/text', callText(acme));
    await finishedJob(acme.browser, `/api/queue/job/${upload.body.jobId}`);
    const activityId = await activityOfJob(stack, acme.companyId, upload.body.jobId);
    const media = path.join(stack.mediaDir, acme.companyId, activityId);
    await access(media);
    expect(await storedTranscript(stack, acme.companyId, activityId)).toBeDefined();

    // Another company cannot, nor can a meeting delete reach a call.
    expect((await globex.browser.delete(`/api/calls/${activityId}`)).status).toBe(404);
    expect((await acme.browser.delete(`/api/meetings/${activityId}`)).status).toBe(404);

    const deleted = await acme.browser.delete(`/api/calls/${activityId}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: 'Call deleted successfully.' });
    expect((await acme.browser.get(`/api/queue/job/${upload.body.jobId}`)).status).toBe(404);
    await expect(access(media)).rejects.toThrow(/ENOENT/);
    await waitFor('the transcript to be deleted', async () => ((await storedTranscript(stack, acme.companyId, activityId)) === undefined ? true : undefined));
    expect((await acme.browser.delete(`/api/calls/${activityId}`)).status).toBe(404);
  });

  it('removes a meeting, answering with its sentence', async () => {
    const upload = await acme.browser.post<Upload>('/api/meetings/upload', meeting(acme));
    await finishedJob(acme.browser, `/api/meetings/upload-status/${upload.body.jobId}`);
    const activityId = await activityOfJob(stack, acme.companyId, upload.body.jobId);
    const deleted = await acme.browser.delete(`/api/meetings/${activityId}`);
    expect(deleted.body).toEqual({ message: 'Meeting deleted successfully.' });
    await waitFor('the transcript to be deleted', async () => ((await storedTranscript(stack, acme.companyId, activityId)) === undefined ? true : undefined));
  });
});

describe('orphaned media', () => {
  it('removes, after an hour, files no activity names, and never the file of an activity', async () => {
    const upload = await acme.browser.post<Upload>('/api/calls/transcribe/text', callText(acme));
    await finishedJob(acme.browser, `/api/queue/job/${upload.body.jobId}`);
    const kept = path.join(stack.mediaDir, acme.companyId, await activityOfJob(stack, acme.companyId, upload.body.jobId));
    // As a process that died between storing a file and committing its activity leaves it.
    const orphan = path.join(stack.mediaDir, acme.companyId, randomUUID());
    const fresh = path.join(stack.mediaDir, acme.companyId, randomUUID());
    await writeFile(orphan, 'never committed');
    await writeFile(fresh, 'being committed right now');
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    await Promise.all([utimes(orphan, twoHoursAgo, twoHoursAgo), utimes(kept, twoHoursAgo, twoHoursAgo)]);

    await sweepOrphanedMedia(stack.runtime('ingest').database.db, diskMediaStore(stack.mediaDir));
    await expect(access(orphan)).rejects.toThrow(/ENOENT/);
    await access(kept);
    await access(fresh);
    await rm(fresh);
  });
});

function audioForm(company: UploadingCompany, file: Blob, fileName: string): FormData {
  // The web app sends the file first, then the fields.
  const form = new FormData();
  form.append('file', file, fileName);
  form.append('audioDate', '2026-11-20T09:30:00.000Z');
  form.append('teamId', company.teamId);
  form.append('representative', company.representative.email);
  form.append('repName', company.representative.first_name);
  return form;
}

/** A canonical 16 kHz mono 16-bit WAV header announcing `dataBytes` of samples. */
function wavHeader(dataBytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(dataBytes, 40);
  return header;
}
