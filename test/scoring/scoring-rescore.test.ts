/**
 * Every stored evaluation moves to the current engine (issue 34, point 9), on PostgreSQL and
 * Kafka: a call scored by words alone (SCORING_SENTENCE_MODEL=off) is scored again in the
 * background when scoring next starts with the sentence-embedding model. The stored transcript
 * comes from transcription over gRPC; the new evaluation replaces the old one, analytics' row
 * follows it, `scoring.activity-scored.v1` says `rescored`, nothing more is charged, and the log
 * shows the progress.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { EventEnvelope } from '@parlance/proto/parlance/events/v1/envelope';
import { ActivityScored, InsightTokensConsumed } from '@parlance/proto/parlance/scoring/v1/events';
import { Evaluation } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { activities } from '@parlance/analytics/db/schema';
import { evaluations, outbox as scoringOutbox } from '@parlance/scoring/db/schema';
import { startIdentityStack, type IdentityStack } from '../support/identity-stack.js';
import { waitFor } from '../support/wait-for.js';
import { finishedJob, uploadingCompany } from '../uploads/upload-fixtures.js';
import { callText } from './scoring-fixtures.js';

const stacks: IdentityStack[] = [];
afterAll(async () => {
  for (const stack of stacks) await stack.stop();
});

async function outboxOf(stack: IdentityStack, topic: string, companyId: string) {
  const rows = await stack
    .runtime('scoring')
    .database.db.select({ payload: scoringOutbox.payload })
    .from(scoringOutbox)
    .where(and(eq(scoringOutbox.topic, topic), eq(scoringOutbox.key, companyId)));
  return rows.map((row) => EventEnvelope.decode(row.payload).payload);
}

describe('re-scoring stored evaluations', () => {
  it('scores a call judged by words alone again with the model, replacing its evaluation everywhere, without charging again', async () => {
    const before = await startIdentityStack({ withIngest: true, env: { SCORING_SENTENCE_MODEL: 'off' } });
    stacks.push(before);
    const company = await uploadingCompany(before, { first_name: 'Grace' });
    const upload = await company.browser.post<{ jobId: string }>('/api/calls/transcribe/text', callText(company));
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    const { activityId } = await finishedJob(company.browser, `/api/queue/job/${upload.body.jobId}`);
    const [first] = await before.runtime('scoring').database.db.select().from(evaluations).where(eq(evaluations.activityId, activityId));
    expect(first?.engine).toBe('offline-evidence');
    await before.stop();
    stacks.pop();

    // Scoring starts again, now with the model: what it judged by words alone is scored again.
    const after = await startIdentityStack({ withIngest: true, env: { SCORING_RESCORE: 'on' } });
    stacks.push(after);
    const db = after.runtime('scoring').database.db;
    const rescored = await waitFor(
      'the call to be scored again',
      async () => {
        const [row] = await db.select().from(evaluations).where(eq(evaluations.activityId, activityId));
        return row?.engine === 'offline-evidence+minilm' ? row : undefined;
      },
      120_000,
    );
    expect(rescored.evaluatedAt.getTime()).toBeGreaterThan(first!.evaluatedAt.getTime());
    const evaluation = Evaluation.fromJSON(rescored.evaluation);
    expect(evaluation.verdicts.length).toBe(Evaluation.fromJSON(first!.evaluation).verdicts.length);

    // Announced as a re-score; charged once, at the first scoring.
    const scored = (await outboxOf(after, 'scoring.activity-scored.v1', company.companyId)).map((payload) => ActivityScored.decode(payload)).filter((event) => event.activityId === activityId);
    // The outbox keeps no order between events; the first scoring is the one not rescored.
    expect(scored.map((event) => [event.rescored, event.evaluation?.engine]).sort(([a], [b]) => Number(a) - Number(b))).toEqual([
      [false, 'offline-evidence'],
      [true, 'offline-evidence+minilm'],
    ]);
    const charged = (await outboxOf(after, 'scoring.insight-tokens-consumed.v1', company.companyId)).map((payload) => InsightTokensConsumed.decode(payload)).filter((event) => event.activityId === activityId);
    expect(charged).toHaveLength(1);

    // Analytics' row, which lists and rollups read, follows the newer evaluation.
    await waitFor(
      "analytics' row to follow",
      async () => {
        const [row] = await after.runtime('analytics').database.db.select().from(activities).where(eq(activities.id, activityId));
        return row?.evaluatedAt?.getTime() === rescored.evaluatedAt.getTime() ? row : undefined;
      },
      30_000,
    );
    await waitFor('the progress in the log', async () => /scored again \d+ of \d+/.exec(after.logs()) ?? undefined, 30_000);
  }, 240_000);
});
