/**
 * Scoring in the pipeline end to end (issue 13): calls and meetings uploaded through the gateway
 * over real HTTP are transcribed and then evaluated by the offline engine against their team's
 * criteria, on PostgreSQL and Kafka. A job completes only once its activity is scored; the
 * summary shows the transcript, the verdicts with evidence taken from it, and the Areas for
 * Improvement; the insight tokens reach the company's usage; a redelivered transcript changes
 * nothing; a deleted activity keeps no evaluation, even when its transcript arrives late; and no
 * company reads another's.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busMessageFor } from '@parlance/platform/outbox/enqueue';
import { EventEnvelope } from '@parlance/proto/parlance/events/v1/envelope';
import { TeamChanged } from '@parlance/proto/parlance/identity/v1/events';
import { ActivityScored } from '@parlance/proto/parlance/scoring/v1/events';
import { TranscriptReady } from '@parlance/proto/parlance/transcription/v1/events';
import { outboxMessageFor } from '@parlance/platform/events/event-envelope';
import { evaluations, inbox as scoringInbox, outbox as scoringOutbox, pendingEvaluations, teamCriteria } from '@parlance/scoring/db/schema';
import { outbox as transcriptionOutbox } from '@parlance/transcription/db/schema';
import { startIdentityStack, type IdentityStack } from '../support/identity-stack.js';
import { waitFor } from '../support/wait-for.js';
import { finishedJob, uploadingCompany, type UploadingCompany } from '../uploads/upload-fixtures.js';
import { callText, type CallSummary } from './scoring-fixtures.js';

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

/** Uploads a call, waits for its job to end, and answers with the job and the activity. */
async function uploadCall(company: UploadingCompany, overrides: Record<string, unknown> = {}) {
  const upload = await company.browser.post<{ jobId: string }>('/api/calls/transcribe/text', callText(company, overrides));
  expect(upload.status, JSON.stringify(upload.body)).toBe(200);
  const job = await finishedJob(company.browser, `/api/queue/job/${upload.body.jobId}`);
  return { jobId: upload.body.jobId, job, activityId: job.activityId };
}

const scoringDb = () => stack.runtime('scoring').database.db;

async function evaluationRows(activityId: string) {
  return scoringDb().select().from(evaluations).where(eq(evaluations.activityId, activityId));
}

/** The `scoring.activity-scored.v1` events scoring wrote for the activity. */
async function scoredEvents(companyId: string, activityId: string): Promise<number> {
  const rows = await scoringDb()
    .select({ payload: scoringOutbox.payload })
    .from(scoringOutbox)
    .where(and(eq(scoringOutbox.topic, 'scoring.activity-scored.v1'), eq(scoringOutbox.key, companyId)));
  return rows.filter((row) => ActivityScored.decode(EventEnvelope.decode(row.payload).payload).activityId === activityId).length;
}

/** The `transcription.transcript-ready.v1` outbox row transcription wrote for the activity. */
async function transcriptReadyRow(companyId: string, activityId: string) {
  const rows = await stack
    .runtime('transcription')
    .database.db.select()
    .from(transcriptionOutbox)
    .where(and(eq(transcriptionOutbox.topic, 'transcription.transcript-ready.v1'), eq(transcriptionOutbox.key, companyId)));
  const row = rows.find((candidate) => TranscriptReady.decode(EventEnvelope.decode(candidate.payload).payload).activityId === activityId);
  if (!row) throw new Error(`no transcript-ready event for ${activityId}`);
  return row;
}

/** Puts the transcript-ready event on the bus again, as a redelivery does, and waits until scoring's consumer has seen it. */
async function redeliverTranscriptReady(companyId: string, activityId: string, eventId: string): Promise<void> {
  const row = await transcriptReadyRow(companyId, activityId);
  await stack.runtime('transcription').bus.publish([busMessageFor({ eventId, topic: row.topic, key: row.key, payload: row.payload, headers: row.headers })]);
  await waitFor('scoring to consume the redelivered transcript', async () => {
    const [seen] = await scoringDb()
      .select()
      .from(scoringInbox)
      .where(and(eq(scoringInbox.consumer, 'scoring.evaluate-transcripts'), eq(scoringInbox.eventId, eventId)));
    return seen;
  });
}

async function usageOf(company: UploadingCompany): Promise<number> {
  return (await company.browser.get<{ usage: { total_insight_tokens: number } }>('/api/billing/subscription')).body.usage.total_insight_tokens;
}

describe('a scored call', () => {
  let call: { jobId: string; activityId: string; job: { status: string } };
  let summary: CallSummary;
  let usageBefore: number;

  beforeAll(async () => {
    usageBefore = await usageOf(acme);
    call = await uploadCall(acme);
    summary = (await acme.browser.get<CallSummary>(`/api/calls/summary/${call.activityId}`)).body;
  }, 90_000);

  it('completes its job only once it is scored', async () => {
    expect(call.job).toEqual({ status: 'completed', isCompleted: true, isFailed: false, failedReason: '', activityId: expect.stringMatching(UUID) });
    expect(await evaluationRows(call.activityId)).toHaveLength(1);
  });

  it('shows the transcript, one line per segment with its time, and the segments with speakers and roles', () => {
    expect(summary.transcript.split('\n')).toEqual([
      '[0:02] Grace: Thank you for calling Parlance, my name is Grace. How can I help you today?',
      '[0:07] Morgan: Hi Grace, we are looking at call analytics for our support team.',
      '[0:12] Grace: Great. What tools do you use today, and what would you like to improve?',
      '[0:19] Morgan: We use spreadsheets, and reviewing calls takes our managers far too long.',
      '[0:26] Grace: Understood. Could I show you a demo on Thursday at 10am?',
      '[0:31] Morgan: Thursday at 10 works for us.',
    ]);
    expect(summary.segments[0]).toEqual({ index: 0, speaker: 'Grace', role: 'representative', startMs: 2_000, endMs: 7_000, text: 'Thank you for calling Parlance, my name is Grace. How can I help you today?' });
    expect(summary.segments[1]?.role).toBe('contact');
  });

  it('judges every criterion of the team, in the team’s order, each verdict with evidence quoted from the segment it names', async () => {
    const team = (await acme.browser.get<{ team: { criteria_group: Array<{ id: string; name: string; criteria: Array<{ id: string; weight: number }> }> } }>(`/api/teams/${acme.teamId}`)).body.team;
    const evaluation = summary.evaluation!;
    expect(evaluation.engine).toBe('offline-evidence+minilm');
    expect(evaluation.verdicts.map((verdict) => [verdict.groupId, verdict.criterionId])).toEqual(team.criteria_group.flatMap((group) => group.criteria.map((criterion) => [group.id, criterion.id])));
    expect(evaluation.verdicts.every((verdict) => verdict.reason.length > 0)).toBe(true);

    const evidence = [...evaluation.verdicts.flatMap((verdict) => verdict.evidence), ...evaluation.successEvidence];
    expect(evidence.length).toBeGreaterThan(0);
    for (const quoted of evidence) {
      const segment = summary.segments[quoted.segmentIndex]!;
      expect(segment.text).toContain(quoted.quote);
      expect(quoted.quote.length).toBeGreaterThan(0);
      expect([quoted.speaker, quoted.role, quoted.startMs]).toEqual([segment.speaker, segment.role, segment.startMs]);
    }
  });

  it('scores the weights of the passed criteria, and lists the failed ones by group as Areas for Improvement', () => {
    const evaluation = summary.evaluation!;
    const passedWeight = evaluation.verdicts.filter((verdict) => verdict.passed).reduce((sum, verdict) => sum + verdict.weight, 0);
    expect(evaluation.score).toBeCloseTo(passedWeight, 5);
    const failed = evaluation.verdicts.filter((verdict) => !verdict.passed);
    expect(summary.improvements.flatMap((group) => group.criteria.map((criterion) => [group.id, criterion.id]))).toEqual(failed.map((verdict) => [verdict.groupId, verdict.criterionId]));
    for (const group of summary.improvements) for (const criterion of group.criteria) expect(criterion.suggestion.length).toBeGreaterThan(0);
  });

  it('summarises the call, measures the script and the conversation, and judges success from the team’s prompt', () => {
    const evaluation = summary.evaluation!;
    expect(summary.summary.length).toBeGreaterThan(0);
    expect(summary.summary).toBe(summary.summary.trim());
    expect(evaluation.summaryDetails.participants.length).toBeGreaterThan(0);
    expect(evaluation.scriptMatch).toBeGreaterThan(0);
    expect(evaluation.scriptMatch).toBeLessThanOrEqual(100);
    expect(typeof evaluation.isSuccessful).toBe('boolean');
    expect(evaluation.statistics).toMatchObject({ timed: true });
    expect(evaluation.statistics!.speakers.map((speaker) => [speaker.speaker, speaker.role])).toEqual([
      ['Grace', 'representative'],
      ['Morgan', 'contact'],
    ]);
    expect(Date.parse(evaluation.evaluatedAt)).toBeGreaterThan(Date.now() - 120_000);
  });

  it('charges the insight tokens it used to the company’s usage', async () => {
    const tokens = summary.evaluation!.insightTokens;
    expect(tokens).toBeGreaterThan(0);
    await waitFor('the usage to move', async () => ((await usageOf(acme)) >= usageBefore + tokens ? true : undefined));
  });

  it('changes nothing when its transcript is delivered again, under the same event id or a new one', async () => {
    const row = await transcriptReadyRow(acme.companyId, call.activityId);
    await redeliverTranscriptReady(acme.companyId, call.activityId, randomUUID());
    await stack.runtime('transcription').bus.publish([busMessageFor({ eventId: row.eventId, topic: row.topic, key: row.key, payload: row.payload, headers: row.headers })]);
    // Give a second pass time to finish, were one running.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await evaluationRows(call.activityId)).toHaveLength(1);
    expect(await scoredEvents(acme.companyId, call.activityId)).toBe(1);
    expect(await scoringDb().select().from(pendingEvaluations).where(eq(pendingEvaluations.activityId, call.activityId))).toEqual([]);
    expect((await acme.browser.get<CallSummary>(`/api/calls/summary/${call.activityId}`)).body.evaluation?.evaluatedAt).toBe(summary.evaluation!.evaluatedAt);
  });

  it('is no other company’s to read, and no meeting', async () => {
    const foreign = await globex.browser.get(`/api/calls/summary/${call.activityId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: `Call ${call.activityId} not found.`, message: `Call ${call.activityId} not found.` });
    expect((await acme.browser.get(`/api/meetings/summary/${call.activityId}`)).status).toBe(404);
    expect((await acme.browser.get('/api/calls/summary/not-an-id')).status).toBe(404);
    expect((await acme.browser.get(`/api/calls/summary/${randomUUID()}`)).status).toBe(404);
  });
});

describe('a scored meeting', () => {
  it('completes once scored, and its summary has the same shape at its own route', async () => {
    const upload = await acme.browser.post<{ jobId: string }>('/api/meetings/upload', {
      meetingName: 'Quarterly review.vtt.txt',
      content:
        'WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v Grace>Welcome everyone, my name is Grace and thank you for joining the quarterly review.\n\n' +
        '00:00:04.500 --> 00:00:09.000\n<v Priya>Thanks, happy to be here. What are the goals for next quarter?\n\n' +
        '00:00:09.500 --> 00:00:14.000\n<v Grace>We agreed to send the proposal on Friday and meet again next week.\n',
      teamId: acme.teamId,
      repEmail: acme.representative.email,
    });
    expect(upload.status).toBe(202);
    const job = await finishedJob(acme.browser, `/api/meetings/upload-status/${upload.body.jobId}`);
    expect(job).toMatchObject({ status: 'completed', isCompleted: true });
    const activityId = job.activityId;

    const summary = (await acme.browser.get<CallSummary>(`/api/meetings/summary/${activityId}`)).body;
    expect(summary.transcript.split('\n')[0]).toBe('[0:01] Grace: Welcome everyone, my name is Grace and thank you for joining the quarterly review.');
    expect(summary.evaluation?.verdicts.length).toBeGreaterThan(0);
    expect(summary.summary.length).toBeGreaterThan(0);
    expect((await acme.browser.get(`/api/calls/summary/${activityId}`)).status).toBe(404);
  });
});

describe('transcripts scoring cannot evaluate', () => {
  it("fails the job of a transcript with no words: 'Processing failed for {file}: the transcript has no words to evaluate'", async () => {
    const { job, activityId } = await uploadCall(acme, { fileName: 'silence.txt', content: 'Grace: …\nMorgan: ?!' });
    expect(job).toEqual({ status: 'failed', isCompleted: false, isFailed: true, failedReason: 'Processing failed for silence.txt: the transcript has no words to evaluate', activityId: expect.stringMatching(UUID) });
    expect(await evaluationRows(activityId)).toEqual([]);
    // The transcript is there, unscored.
    const summary = (await acme.browser.get<CallSummary>(`/api/calls/summary/${activityId}`)).body;
    expect(summary).toMatchObject({ transcript: 'Grace: …\nMorgan: ?!', summary: '', improvements: [], evaluation: null });
  });

  it('scores a team that announced no criteria 0, with no verdicts and a warning saying so', async () => {
    const bare = await uploadingCompany(stack, { first_name: 'Ada' });
    await waitFor('scoring to hold the team', async () => (await teamVersionInScoring(bare)) ?? undefined);
    // A team-changed event with no criteria (identity never saves one; a partner system could announce one).
    const version = 1_000;
    await stack.runtime('identity').bus.publish([
      busMessageFor(
        outboxMessageFor({
          type: 'identity.team-changed.v1',
          companyId: bare.companyId,
          producer: 'identity',
          payload: TeamChanged.encode({
            team: { id: bare.teamId, name: 'Bare', department: 'sales', criteriaGroups: [], successPrompt: '', callScript: '', crmId: '', memberEmails: [bare.representative.email], version, createdAt: new Date(), updatedAt: new Date(), reviewThreshold: 0.7 },
            members: [],
            deleted: false,
          }).finish(),
        }),
      ),
    ]);
    await waitFor('scoring to hold the bare team', async () => ((await teamVersionInScoring(bare)) === version ? true : undefined));

    const { job, activityId } = await uploadCall(bare);
    expect(job.status).toBe('completed');
    const evaluation = (await bare.browser.get<CallSummary>(`/api/calls/summary/${activityId}`)).body.evaluation!;
    expect(evaluation).toMatchObject({ score: 0, verdicts: [], scriptMatch: null, isSuccessful: null });
    expect(evaluation.warnings.some((warning) => warning.includes('no evaluation criteria'))).toBe(true);
  });
});

describe('a deleted call', () => {
  it('keeps no evaluation, and its transcript arriving again afterwards is not evaluated', async () => {
    const { activityId } = await uploadCall(acme);
    expect(await evaluationRows(activityId)).toHaveLength(1);
    expect((await acme.browser.delete(`/api/calls/${activityId}`)).status).toBe(200);
    await waitFor('the evaluation to be deleted', async () => ((await evaluationRows(activityId)).length === 0 ? true : undefined));
    await waitFor('the summary to be gone', async () => ((await acme.browser.get(`/api/calls/summary/${activityId}`)).status === 404 ? true : undefined));

    // Transcript-ready and activity-deleted travel on different topics: a late one must store nothing.
    await redeliverTranscriptReady(acme.companyId, activityId, randomUUID());
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await scoringDb().select().from(pendingEvaluations).where(eq(pendingEvaluations.activityId, activityId))).toEqual([]);
    expect(await evaluationRows(activityId)).toEqual([]);
  });
});

async function teamVersionInScoring(company: UploadingCompany): Promise<number | undefined> {
  const [row] = await scoringDb()
    .select({ version: teamCriteria.version })
    .from(teamCriteria)
    .where(and(eq(teamCriteria.companyId, company.companyId), eq(teamCriteria.teamId, company.teamId)));
  return row?.version;
}
