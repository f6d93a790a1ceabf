/**
 * Charges insight tokens to the company's usage ledger: one row per
 * `scoring.insight-tokens-consumed.v1` event, applied once (the runtime's inbox, and the ledger is
 * keyed by the event id as well).
 */
import type { EventEnvelope } from '@parlance/proto/parlance/events/v1/envelope';
import { InsightTokensConsumed } from '@parlance/proto/parlance/scoring/v1/events';
import type { Executor } from '@parlance/platform/db/database';
import { isUuid } from '@parlance/platform/db/uuid';
import type { EventConsumer } from '@parlance/platform/service/service-runtime';
import { recordUsage } from '../db/billing.repository.js';

export const INSIGHT_TOKENS_CONSUMED = 'scoring.insight-tokens-consumed.v1';

/** Throws (so the bus retries, then dead-letters with this reason) on an event that cannot be charged. */
export async function chargeInsightTokens(event: EventEnvelope, tx: Executor): Promise<void> {
  if (!isUuid(event.companyId)) throw new Error(`event ${event.id} names no company (company id ${JSON.stringify(event.companyId)})`);
  const consumed = InsightTokensConsumed.decode(event.payload);
  if (!Number.isInteger(consumed.tokens) || consumed.tokens < 0) throw new Error(`event ${event.id} carries ${consumed.tokens} tokens; expected a whole number ≥ 0`);
  await recordUsage(tx, {
    eventId: event.id,
    companyId: event.companyId,
    activityId: consumed.activityId,
    teamId: consumed.teamId,
    model: consumed.model,
    tokens: consumed.tokens,
    occurredAt: consumed.consumedAt ?? event.occurredAt ?? new Date(),
  });
}

export const insightTokensConsumer: EventConsumer = {
  consumer: 'insight-tokens-consumed',
  eventTypes: [INSIGHT_TOKENS_CONSUMED],
  handle: (event, tx) => chargeInsightTokens(event, tx),
};
