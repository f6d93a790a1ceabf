/**
 * Scoring in standalone mode (PGlite and the in-memory bus, one process): the same code path as on
 * PostgreSQL and Kafka, so an uploaded call is transcribed, scored, its job completed, its summary
 * shown with evidence, its insight tokens charged, and its evaluation gone once it is deleted.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startIdentityStack, type IdentityStack } from '../support/identity-stack.js';
import { waitFor } from '../support/wait-for.js';
import { finishedJob, uploadingCompany, type UploadingCompany } from '../uploads/upload-fixtures.js';
import type { CallSummary } from './scoring-fixtures.js';

let stack: IdentityStack;
let company: UploadingCompany;

beforeAll(async () => {
  stack = await startIdentityStack({ infrastructure: 'pglite-memory', withIngest: true });
  company = await uploadingCompany(stack, { first_name: 'Grace' });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const usage = async () => (await company.browser.get<{ usage: { total_insight_tokens: number } }>('/api/billing/subscription')).body.usage.total_insight_tokens;

it('transcribes, scores and completes an uploaded call, charges its tokens, and forgets its evaluation when it is deleted', async () => {
  const before = await usage();
  const upload = await company.browser.post<{ jobId: string }>('/api/calls/transcribe/text', {
    fileName: 'renewal.txt',
    content: 'Grace: Good morning, this is Grace from Parlance. How can I help?\nMorgan: I would like to renew our plan for another year.\nGrace: Happy to help. I will send the renewal quote today.',
    teamId: company.teamId,
    representative: company.representative.email,
    repName: 'Grace',
  });
  expect(upload.status).toBe(200);
  const job = await finishedJob(company.browser, `/api/queue/job/${upload.body.jobId}`);
  expect(job).toMatchObject({ status: 'completed' });
  const activityId = job.activityId;

  const summary = (await company.browser.get<CallSummary>(`/api/calls/summary/${activityId}`)).body;
  expect(summary.transcript.split('\n')[0]).toBe('Grace: Good morning, this is Grace from Parlance. How can I help?');
  expect(summary.summary.length).toBeGreaterThan(0);
  expect(summary.evaluation?.engine).toBe('offline-evidence+minilm');
  for (const evidence of summary.evaluation!.verdicts.flatMap((verdict) => verdict.evidence)) expect(summary.segments[evidence.segmentIndex]!.text).toContain(evidence.quote);

  const tokens = summary.evaluation!.insightTokens;
  expect(tokens).toBeGreaterThan(0);
  await waitFor('the usage to move', async () => ((await usage()) === before + tokens ? true : undefined));

  expect((await company.browser.delete(`/api/calls/${activityId}`)).status).toBe(200);
  await waitFor('the summary to be gone', async () => ((await company.browser.get(`/api/calls/summary/${activityId}`)).status === 404 ? true : undefined));
});
