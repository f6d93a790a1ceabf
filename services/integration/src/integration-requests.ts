/**
 * E-mails the operators the requests for other integrations ('Need another integration?'): each
 * request is stored first, sent right after, and sent again on the next round while its e-mail
 * has not gone out. Without an operators' address (INTEGRATION_REQUESTS_TO) requests are kept,
 * not sent.
 */
import type { Executor } from '@parlance/platform/db/database';
import type { Logger } from '@parlance/platform/logger';
import type { Mailer } from '@parlance/platform/mail/mailer';
import { markIntegrationRequestEmailed, unsentIntegrationRequests } from './db/connections.repository.js';
import { integrationRequestMail } from './domain/integrations.js';

const BATCH = 50;

export function integrationRequestSender(options: { db: Executor; mailer: Mailer | undefined; to: string | undefined; logger: Pick<Logger, 'warn'>; now?: () => Date }): () => Promise<void> {
  const { db, mailer, to, logger, now = () => new Date() } = options;
  let round: Promise<void> | undefined;
  const send = async () => {
    if (!mailer || !to) return;
    for (const request of await unsentIntegrationRequests(db, BATCH)) {
      try {
        await mailer.send(integrationRequestMail(to, request));
        await markIntegrationRequestEmailed(db, request.id, now());
      } catch (error) {
        logger.warn({ err: error, requestId: request.id }, 'could not e-mail an integration request; it is sent again on the next round');
        return;
      }
    }
  };
  // One round at a time: two at once would e-mail the same request twice.
  return () => {
    round = (round ?? Promise.resolve()).then(send, send);
    return round;
  };
}
