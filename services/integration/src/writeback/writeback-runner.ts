/**
 * Makes the writes queued in `writeback_work` (events/writeback.consumer.ts queues them when a
 * call imported from a CRM is scored), on the platform's leased workers: one replica makes each,
 * and another takes it up if that replica dies.
 *
 * Each write is made once. A lead's status is set with a PUT, which may be sent again. A note (or
 * HubSpot's task) is created with a POST, which neither vendor takes an idempotency key for, so a
 * try after one that may have reached the vendor (a 5xx, a lost answer, a replica that died
 * mid-write) first looks for it by its marker (domain/writeback.ts) and makes it only when it is
 * not there.
 *
 * A failure Close may get over (a 5xx, a rate limit, the network) is tried again after a growing
 * wait (1 min, 2, 4… at most an hour), and given up after WRITE_MAX_FAILURES; one it will not (a
 * deleted lead, a status that no longer exists) is given up at once. A given-up write leaves its
 * reason on the connection, for the integrations screen. A refused key marks the connection
 * expired, and its writes wait until it is connected again (disconnecting drops them).
 */
import type { Database } from '@parlance/platform/db/database';
import type { Logger } from '@parlance/platform/logger';
import { recordLeasedOutcome } from '@parlance/platform/work/leased-work';
import { startLeasedWorkers } from '@parlance/platform/work/leased-workers';
import { findConnectionById, markExpired, type ConnectionRow } from '../db/connections.repository.js';
import { writebackQueue } from '../db/schema.js';
import { bringWritesForward, recordWriteDone, recordWriteFailure, retryWriteLater, type WritebackWork } from '../db/writeback.repository.js';
import { openCredential, type Keyring } from '../domain/credential-cipher.js';
import { credentialsRefused, INTEGRATION_MESSAGES, isIntegrationId } from '../domain/integrations.js';
import { WRITE_MAX_FAILURES, writeRetryDelayMs, type WriteRequest } from '../domain/writeback.js';
import type { CloseClient } from '../vendors/close-client.js';
import type { HubSpotClient } from '../vendors/hubspot-client.js';
import { refusesCredentials, VendorHttpError } from '../vendors/vendor-http.js';

/** A write's lease: it is one or two requests, so a dead replica's write is taken up within half a minute. */
const WRITE_LEASE_MS = 30_000;
/** Claims cut short (the replica died mid-write) before a write is given up. */
const WRITE_MAX_INTERRUPTIONS = 3;
/** How often a write waiting for an expired connection looks again. */
const EXPIRED_RECHECK_MS = 15 * 60_000;

export interface WritebackRunnerOptions {
  db: Database<Record<string, unknown>>;
  keyring: Keyring;
  close: (apiKey: string) => Pick<CloseClient, 'createNote' | 'findNote' | 'setLeadStatus'>;
  /** A HubSpot client acting for the connection (its access token refreshed as needed); undefined without a HubSpot app. */
  hubspot?: (connection: ConnectionRow) => Pick<HubSpotClient, 'createNote' | 'findNote' | 'associateNoteWithCall' | 'createTask' | 'findTask'>;
  logger: Logger;
  /** Writes made at once by this process; 0 makes none (a replica that only answers). */
  workers: number;
  /** How often an idle replica looks for a write another one queued. */
  pollMs: number;
}

export interface WritebackRunner {
  /** Look for writes now (some were just queued). */
  wake(): void;
  /** The connection works again (connected again): its waiting writes are made now. */
  resume(connection: Pick<ConnectionRow, 'id'>): Promise<void>;
  stop(): Promise<void>;
}

export function writebackRunner(options: WritebackRunnerOptions): WritebackRunner {
  const { db, logger } = options;

  async function write(connection: ConnectionRow, work: WritebackWork): Promise<void> {
    const request: WriteRequest = work.request;
    // A try before this one may have made the note or task and lost the answer.
    const triedBefore = work.failures > 0 || work.attempts > 1;
    switch (request.kind) {
      case 'close-note': {
        const close = options.close(openCredential(options.keyring, connection.credentials));
        if (triedBefore && (await close.findNote(request.leadId, request.marker))) return;
        await close.createNote({ leadId: request.leadId, note: request.note });
        return;
      }
      case 'close-lead-status':
        await options.close(openCredential(options.keyring, connection.credentials)).setLeadStatus(request.leadId, request.statusId);
        return;
      case 'hubspot-note': {
        const hubspot = hubspotFor(connection);
        const note = (triedBefore ? await hubspot.findNote(request.marker) : undefined) ?? (await hubspot.createNote({ body: request.body, at: new Date(request.at), contactIds: request.contactIds, ownerId: request.ownerId }));
        // A note made before a failure here is found by its marker next time, and put on the call then.
        if (request.callId && (await hubspot.associateNoteWithCall(note.id, request.callId)) === 'refused') {
          logger.warn({ companyId: connection.companyId, noteId: note.id, callId: request.callId }, 'HubSpot would not put the note on the call; it stays on the call’s contacts');
        }
        return;
      }
      case 'hubspot-task': {
        const hubspot = hubspotFor(connection);
        if (triedBefore && (await hubspot.findTask(request.marker))) return;
        await hubspot.createTask({ subject: request.subject, body: request.body, dueAt: new Date(request.dueAt), contactIds: request.contactIds, ownerId: request.ownerId });
        return;
      }
    }
  }

  function hubspotFor(connection: ConnectionRow) {
    if (!options.hubspot) throw new Error('no HubSpot app is configured on this server');
    return options.hubspot(connection);
  }

  async function run(work: WritebackWork): Promise<void> {
    const log = logger.child({ companyId: work.companyId, activityId: work.activityId, write: work.request.kind });
    const connection = await findConnectionById(db, work.companyId, work.connectionId);
    if (!connection) {
      await recordLeasedOutcome(db, writebackQueue, work);
      return;
    }
    if (connection.status !== 'connected') {
      await retryWriteLater(db, work, EXPIRED_RECHECK_MS, credentialsRefused(connection.integrationId), false);
      return;
    }
    try {
      await write(connection, work);
    } catch (error) {
      await failed(work, connection, error, log);
      return;
    }
    await recordLeasedOutcome(db, writebackQueue, work, (tx) => recordWriteDone(tx, connection.id));
    log.info({ failuresBefore: work.failures }, 'score written back');
  }

  async function failed(work: WritebackWork, connection: ConnectionRow, error: unknown, log: Logger): Promise<void> {
    const reason = error instanceof VendorHttpError ? error.message : 'an unexpected error';
    if (refusesCredentials(error)) {
      const refused = credentialsRefused(connection.integrationId);
      if (isIntegrationId(connection.integrationId)) await markExpired(db, connection.companyId, connection.integrationId, refused);
      await retryWriteLater(db, work, EXPIRED_RECHECK_MS, refused, false);
      log.warn('the vendor refused the credentials: the connection is expired, and its writes wait for it to be connected again');
      return;
    }
    const failures = work.failures + 1;
    const mayPass = !(error instanceof VendorHttpError) || error.retryable;
    if (mayPass && failures < WRITE_MAX_FAILURES) {
      const vendorWait = error instanceof VendorHttpError ? (error.retryAfterMs ?? 0) : 0;
      const delayMs = Math.max(vendorWait, writeRetryDelayMs(failures));
      await retryWriteLater(db, work, delayMs, reason);
      log.warn({ err: error, failures, delayMs }, 'write-back failed; it will be tried again');
      return;
    }
    await recordLeasedOutcome(db, writebackQueue, work, (tx) => recordWriteFailure(tx, connection.id, INTEGRATION_MESSAGES.writebackFailed(reason)));
    log.error({ err: error, failures }, 'write-back given up');
  }

  const workers =
    options.workers > 0
      ? startLeasedWorkers({
          name: 'write-back',
          db,
          queue: writebackQueue,
          logger,
          settings: { workers: options.workers, leaseMs: WRITE_LEASE_MS, pollMs: options.pollMs, maxAttempts: WRITE_MAX_INTERRUPTIONS },
          removedMessage: 'The integration was disconnected.',
          process: (work) => run(work),
          giveUp: (work, interruptions) =>
            recordLeasedOutcome(db, writebackQueue, work, (tx) => recordWriteFailure(tx, work.connectionId, INTEGRATION_MESSAGES.writebackFailed(`it was interrupted ${interruptions} times`))).then(
              () => undefined,
            ),
        })
      : undefined;

  return {
    wake: () => workers?.wake(),
    async resume(connection) {
      if ((await bringWritesForward(db, connection.id, WRITE_LEASE_MS)) > 0) workers?.wake();
    },
    stop: async () => workers?.stop(),
  };
}
