/**
 * One sync of a company's Close calls into Parlance (issue 16, point 3). It reads Close's history
 * window by window from the connection's cursor (close-import.ts), sends every call worth scoring
 * to ingest exactly as an upload is sent (so it is transcribed, scored and listed like one), and
 * moves the cursor past a window only once the whole window is in. A sync stopped anywhere (a
 * crash, Close failing, ingest out of reach) leaves the cursor where the last whole window ended;
 * the next one reads from there, passing over what it finds already imported. Imports are keyed
 * by Close's call id twice over: here (`imports`) and in ingest (the upload's external id), so a
 * crash between ingest's answer and the row here cannot import a call twice either.
 */
import type { Database } from '@parlance/platform/db/database';
import type { Logger } from '@parlance/platform/logger';
import type { ConnectionRow } from '../db/connections.repository.js';
import { importedExternalIds, recordImport, saveSyncCursor } from '../db/sync.repository.js';
import { openCredential, type Keyring } from '../domain/credential-cipher.js';
import {
  closeCallDecision,
  closeCursorOf,
  closeCursorText,
  closeUpdatesSpan,
  nextCloseWindow,
  representativeFinder,
  type CallImport,
  type CloseSkipReason,
  type TeamRoster,
} from '../domain/close-import.js';
import { storedCloseSettings, type IntegrationId } from '../domain/integrations.js';
import type { CloseCall, CloseClient } from '../vendors/close-client.js';

/** Close's calls are read up to this long before now, so a call Close is still saving falls in the next sync, not between two. */
export const CLOSE_SYNC_LAG_MS = 60_000;

/** What a call is sent to ingest with; ingest answers once it is stored. */
export interface ImportedActivity {
  activityId: string;
  jobId: string;
}

export interface ActivityImport {
  source: IntegrationId;
  /** A meeting (with its title, link and the person met) or, without it, a call. */
  meeting?: { title: string; link: string };
  externalId: string;
  teamId: string;
  representativeEmail: string;
  representativeName: string;
  occurredAt: Date;
  fileName: string;
  notes: string;
  contactId: string;
  /** The contact's name when the vendor gives it, '' otherwise. */
  contactName: string;
  media: { kind: 'text'; text: string } | { kind: 'audio'; bytes: Buffer };
}

/** Ingest, as the sync uses it. An upload ingest refuses for good is an ImportRefused. */
export interface ActivityImporter {
  importCall(companyId: string, activity: ActivityImport): Promise<ImportedActivity>;
}

export class ImportRefused extends Error {}

export interface CloseSyncDependencies {
  db: Database<Record<string, unknown>>;
  keyring: Keyring;
  close: (apiKey: string) => Pick<CloseClient, 'users' | 'calls' | 'recording' | 'contactName' | 'updatedCallIds' | 'call'>;
  /** The company's teams with their members, from identity. */
  teams: (companyId: string) => Promise<TeamRoster[]>;
  ingest: ActivityImporter;
  logger: Pick<Logger, 'info' | 'warn'>;
  now?: () => Date;
  signal?: AbortSignal;
}

export interface SyncCounts {
  imported: number;
  /** Already imported by an earlier sync (read again after a stop, or in the overlap of two windows). */
  alreadyImported: number;
  skipped: Record<CloseSkipReason, number>;
  /** Calls ingest refused (a recording it cannot read, say): left out, with the reason logged. */
  refused: number;
}

export function emptyCounts(): SyncCounts {
  return { imported: 0, alreadyImported: 0, skipped: { 'too-short': 0, 'no-conversation': 0, 'no-representative': 0 }, refused: 0 };
}

/**
 * Syncs the connection to the end of Close's history (less the lag), or throws where it stopped;
 * the counts so far are in `counts` either way. The signal (deps.signal) stops it between pages.
 */
export async function syncCloseCalls(deps: CloseSyncDependencies, connection: ConnectionRow, counts: SyncCounts): Promise<void> {
  const now = deps.now ?? (() => new Date());
  const settings = storedCloseSettings(connection.settings);
  const close = deps.close(openCredential(deps.keyring, connection.credentials));
  const findRepresentative = representativeFinder(await deps.teams(connection.companyId));
  const users = new Map((await close.users()).map((user) => [user.id, user]));
  // Each contact's name is read once a sync, when one of its calls is imported.
  const names = new Map<string, Promise<string>>();
  const contactNames = (contactId: string): Promise<string> => {
    if (contactId === '') return Promise.resolve('');
    if (!names.has(contactId)) names.set(contactId, close.contactName(contactId).then((name) => name ?? ''));
    return names.get(contactId)!;
  };

  // Fixed when the sync starts: calls made while it runs are the next sync's, so it always ends.
  const until = new Date(now().getTime() - CLOSE_SYNC_LAG_MS);
  const cursor = closeCursorOf(connection.syncCursor);
  const consider = async (calls: readonly CloseCall[]) => {
    const already = await importedExternalIds(deps.db, connection.companyId, 'close-crm', calls.map((call) => call.id));
    for (const call of calls) {
      deps.signal?.throwIfAborted();
      if (already.has(call.id)) {
        counts.alreadyImported += 1;
        continue;
      }
      const decision = closeCallDecision(call, settings.minCallDuration, call.userId ? users.get(call.userId) : undefined, findRepresentative);
      if ('skip' in decision) {
        counts.skipped[decision.skip] += 1;
        continue;
      }
      const plan = { ...decision.import, contactName: await contactNames(decision.import.contactId) };
      await importPlannedCall(deps, { source: 'close-crm', companyId: connection.companyId, plan, recording: (url) => close.recording(url) }, counts);
    }
  };

  // Calls changed since the last sync, first: one passed over then (no recording yet) may be worth importing now.
  const updates = closeUpdatesSpan(cursor, until);
  if (updates) {
    const changed = [];
    for (const callId of await close.updatedCallIds(updates)) {
      const call = await close.call(callId);
      if (call && call.createdAt.getTime() <= (cursor.windowEnd ?? until).getTime()) changed.push(call);
    }
    await consider(changed);
  }
  cursor.updatesUntil = until;
  await saveSyncCursor(deps.db, connection, closeCursorText(cursor));

  for (let window = nextCloseWindow(cursor.windowEnd, until); window; window = nextCloseWindow(cursor.windowEnd, until)) {
    for await (const page of close.calls(window)) await consider(page);
    cursor.windowEnd = window.createdBefore;
    await saveSyncCursor(deps.db, connection, closeCursorText(cursor));
  }
}

/**
 * Sends a call the sync chose to ingest, like an upload, and records it by the vendor's id. A
 * call ingest refuses for good is counted and left out; anything else stops the sync.
 */
export async function importPlannedCall(
  deps: Pick<CloseSyncDependencies, 'db' | 'ingest' | 'logger'>,
  call: { source: IntegrationId; companyId: string; plan: CallImport; recording: (url: string) => Promise<Buffer> },
  counts: SyncCounts,
): Promise<void> {
  const { source, companyId, plan } = call;
  try {
    const media = plan.media.kind === 'text' ? plan.media : { kind: 'audio' as const, bytes: await call.recording(plan.media.recordingUrl) };
    const imported = await deps.ingest.importCall(companyId, {
      source,
      externalId: plan.externalId,
      teamId: plan.representative.teamId,
      representativeEmail: plan.representative.email,
      representativeName: plan.representative.firstName,
      occurredAt: plan.occurredAt,
      fileName: plan.fileName,
      notes: plan.notes,
      contactId: plan.contactId,
      contactName: plan.contactName,
      media,
      ...(plan.meeting ? { meeting: plan.meeting } : {}),
    });
    await recordImport(deps.db, {
      companyId,
      integrationId: source,
      externalId: plan.externalId,
      activityId: imported.activityId,
      jobId: imported.jobId,
      leadId: plan.leadId,
      vendorRefs: plan.vendorRefs ?? {},
    });
    counts.imported += 1;
  } catch (error) {
    if (!(error instanceof ImportRefused)) throw error;
    // Refused for good (ingest's rules): asking again would be refused again, so the call is left out and the sync goes on.
    counts.refused += 1;
    deps.logger.warn({ companyId, source, externalId: plan.externalId, reason: error.message }, 'a call was refused by ingest; left out');
  }
}
