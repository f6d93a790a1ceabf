/**
 * Speakers, roles and warnings of uploaded transcripts end to end (issue 33): uploads through the
 * gateway over real HTTP, through ingest, transcription, scoring and analytics on PostgreSQL and
 * Kafka, read back from the lists, the summaries and the stored transcripts. A label that names a
 * role decides it, whatever anyone says in the call; the team's members are told by their names;
 * one person is one speaker however the file spells them; a meeting shows the representative the
 * upload chose; and what the transcript warns about reaches the evaluation.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import type { ApiClient } from '../support/api-client.js';
import { startIdentityStack, type IdentityStack } from '../support/identity-stack.js';
import { waitFor } from '../support/wait-for.js';
import type { CallSummary } from '../scoring/scoring-fixtures.js';
import { memberPayload, teamPayload, type MemberJson } from '../teams/team-fixtures.js';
import { finishedJob, storedTranscript } from './upload-fixtures.js';

interface Row {
  id: string;
  representativeName: string;
  status: string;
}

interface Company {
  browser: ApiClient;
  companyId: string;
  teamId: string;
  grace: MemberJson;
  linus: MemberJson;
}

let stack: IdentityStack;
let acme: Company;

/** A company whose team has two members, Grace Hopper (who uploads are for) and Linus Torvalds. */
async function companyWithTwoMembers(): Promise<Company> {
  const { browser, companyId } = await stack.signUpVerified();
  const tag = randomUUID().slice(0, 6);
  const grace = memberPayload({ first_name: 'Grace', last_name: 'Hopper', email: `grace.hopper.${tag}@example.com` });
  const linus = memberPayload({ first_name: 'Linus', last_name: 'Torvalds', email: `linus.${tag}@example.com` });
  const saved = await browser.put<{ team: { id: string } }>('/api/teams/save', { team: teamPayload({ members: [grace.email, linus.email] }), isNew: true, members: [grace, linus] });
  if (saved.status !== 200) throw new Error(`saving the team answered ${saved.status}: ${JSON.stringify(saved.body)}`);
  return { browser, companyId, teamId: saved.body.team.id, grace, linus };
}

beforeAll(async () => {
  stack = await startIdentityStack({ withIngest: true });
  acme = await companyWithTwoMembers();
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

/** Uploads a text call for Grace and waits until it is scored; answers its id. */
async function scoredCall(fileName: string, content: string, repName = 'Grace'): Promise<string> {
  const upload = await acme.browser.post<{ jobId: string }>('/api/calls/transcribe/text', {
    fileName,
    content,
    date: '2026-11-20T09:30:00Z',
    teamId: acme.teamId,
    representative: acme.grace.email,
    repName,
  });
  expect(upload.status, JSON.stringify(upload.body)).toBe(200);
  const job = await finishedJob(acme.browser, `/api/queue/job/${upload.body.jobId}`);
  expect(job, job.failedReason).toMatchObject({ isCompleted: true });
  return job.activityId;
}

/** Uploads a meeting as the web app does (the representative's e-mail only) and waits until it is scored. */
async function scoredMeeting(meetingName: string, content: string): Promise<string> {
  const upload = await acme.browser.post<{ jobId: string }>('/api/meetings/upload', { meetingName, content, teamId: acme.teamId, repEmail: acme.grace.email });
  expect(upload.status, JSON.stringify(upload.body)).toBe(202);
  const job = await finishedJob(acme.browser, `/api/meetings/upload-status/${upload.body.jobId}`);
  expect(job, job.failedReason).toMatchObject({ isCompleted: true });
  return job.activityId;
}

async function rolesOf(activityId: string): Promise<Record<string, string>> {
  const transcript = await storedTranscript(stack, acme.companyId, activityId);
  const names: Record<number, string> = { [SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE]: 'representative', [SpeakerRole.SPEAKER_ROLE_CONTACT]: 'contact' };
  return Object.fromEntries((transcript?.speakers ?? []).map((speaker) => [speaker.label, names[speaker.role] ?? 'unknown']));
}

const listed = (path: string) =>
  waitFor(`${path} to list the activity scored`, async () => {
    const row = (await acme.browser.get<{ data: Row[] }>(path)).body.data[0];
    return row?.status === 'scored' ? row : undefined;
  });

describe('roles from labels', () => {
  it('makes the labelled agent the representative although the customer introduces themselves', async () => {
    const callId = await scoredCall(
      'agent-customer.txt',
      [
        'Agent: Celestar Air, one moment please.',
        'Customer: Hi, my name is Zain Romano, thank you for calling me back. How can I help you find my booking?',
        'Agent: I have it here. What would you like to change?',
        'Customer: The date of my flight.',
      ].join('\n'),
    );
    expect(await rolesOf(callId)).toEqual({ Agent: 'representative', Customer: 'contact' });
    const summary = (await acme.browser.get<CallSummary>(`/api/calls/summary/${callId}`)).body;
    expect(summary.segments.map((segment) => [segment.speaker, segment.role])).toEqual([
      ['Agent', 'representative'],
      ['Customer', 'contact'],
      ['Agent', 'representative'],
      ['Customer', 'contact'],
    ]);
  });

  it('reads role labels in any case, with a number or a name', async () => {
    const callId = await scoredCall(
      'transfer.txt',
      ['CUSTOMER (Jane): Hello, I was told to call back.', 'Agent 1: Let me transfer you to billing.', 'Agent Smith: Billing, how can I help?', 'Customer (Jane): My invoice is wrong.'].join('\n'),
    );
    expect(await rolesOf(callId)).toEqual({ 'CUSTOMER (Jane)': 'contact', 'Agent 1': 'representative', 'Agent Smith': 'representative' });
  });
});

describe('one speaker per person', () => {
  it('takes "Alex (Sales Manager)", "Alex" and "ALEX" for one participant, and the team’s members for the company', async () => {
    const meetingId = await scoredMeeting(
      'pilot-review.txt',
      [
        'Grace Hopper: Good morning, thank you for joining the pilot review.',
        'Alex (Sales Manager): Thanks Grace. Linus, can you start with the numbers?',
        'Linus Torvalds: Sure. Reviews take half the time they did.',
        'Alex: That is what we hoped for.',
        'ALEX: We agree to extend the pilot until March.',
      ].join('\n'),
    );
    expect(await rolesOf(meetingId)).toEqual({ 'Grace Hopper': 'representative', 'Alex (Sales Manager)': 'contact', 'Linus Torvalds': 'representative' });
    const summary = (await acme.browser.get<CallSummary>(`/api/meetings/summary/${meetingId}`)).body;
    expect(summary.segments.map((segment) => segment.speaker)).toEqual(['Grace Hopper', 'Alex (Sales Manager)', 'Linus Torvalds', 'Alex (Sales Manager)']);
  });
});

describe('the representative the upload chose', () => {
  it('names the meeting’s representative in the list, though the meeting upload sends only their e-mail', async () => {
    const meetingId = await scoredMeeting('kick-off.txt', 'Grace: Welcome to the kick-off.\nPriya: Thanks, glad to be here.');
    const row = await listed(`/api/meetings?teamIds=${acme.teamId}&meetingIds=${meetingId}`);
    expect(row.representativeName).toBe('Grace');
    expect(await rolesOf(meetingId)).toEqual({ Grace: 'representative', Priya: 'contact' });
  });

  it('takes the name from the team for a call sent with N/A', async () => {
    const callId = await scoredCall('unnamed.txt', 'Rep: Hello, thanks for calling.\nCaller: Hi.', 'N/A');
    expect((await listed(`/api/calls/?teamId=${acme.teamId}&callIds=${callId}`)).representativeName).toBe('Grace');
  });
});

describe('warnings on the evaluation', () => {
  it('carries the transcript’s warnings into the evaluation, first', async () => {
    const callId = await scoredCall('memo.txt', 'we talked about the renewal and the price, and agreed on a demo next week');
    const transcript = await storedTranscript(stack, acme.companyId, callId);
    expect(transcript?.warnings).toEqual(['No speakers found in memo.txt: the whole text is treated as one speaker.']);
    const summary = (await acme.browser.get<CallSummary>(`/api/calls/summary/${callId}`)).body;
    expect(summary.evaluation?.warnings[0]).toBe('No speakers found in memo.txt: the whole text is treated as one speaker.');
  });
});
