/**
 * What every sync shares (Close's, HubSpot's, Google Workspace's): its dependencies, its counts,
 * and sending a call or meeting it chose to ingest exactly as an upload is sent, recorded here by
 * the vendor's id. Imports are keyed by that id twice over: here (`imports`) and in ingest (the
 * upload's external id), so a crash between ingest's answer and the row here cannot import
 * anything twice.
 */
import type { Database } from '@parlance/platform/db/database';
import type { Logger } from '@parlance/platform/logger';
import { recordImport } from '../db/sync.repository.js';
import type { CallImport, SkipReason, TeamRoster } from '../domain/call-import.js';
import type { Keyring } from '../domain/credential-cipher.js';
import type { IntegrationId } from '../domain/integrations.js';

/** A vendor is read up to this long before now, so a call it is still saving falls in the next sync, not between two. */
export const SYNC_LAG_MS = 60_000;

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

/** What a sync needs besides its vendor's client. */
export interface SyncDependencies {
  db: Database<Record<string, unknown>>;
  keyring: Keyring;
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
  skipped: Record<SkipReason, number>;
  /** Calls ingest refused (a recording it cannot read, say): left out, with the reason logged. */
  refused: number;
}

export function emptyCounts(): SyncCounts {
  return { imported: 0, alreadyImported: 0, skipped: { 'too-short': 0, 'no-conversation': 0, 'no-representative': 0 }, refused: 0 };
}

/**
 * Sends a call the sync chose to ingest, like an upload, and records it by the vendor's id. A
 * call ingest refuses for good is counted and left out; anything else stops the sync.
 */
export async function importPlannedCall(
  deps: Pick<SyncDependencies, 'db' | 'ingest' | 'logger'>,
  /** `recording` fetches a planned recording; a source of transcripts only has none. */
  call: { source: IntegrationId; companyId: string; plan: CallImport; recording?: (url: string) => Promise<Buffer> },
  counts: SyncCounts,
): Promise<void> {
  const { source, companyId, plan } = call;
  try {
    let media: ActivityImport['media'];
    if (plan.media.kind === 'text') media = plan.media;
    else if (call.recording) media = { kind: 'audio', bytes: await call.recording(plan.media.recordingUrl) };
    else throw new Error(`${source} planned a recording it has no way to fetch`);
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
