/**
 * One sync of a company's HubSpot calls into Parlance (issue 16, point 3). HubSpot's CRM search is
 * read by last modification from the connection's checkpoint (thirty days back the first time) to
 * a minute before the sync started, oldest first; the client moves past HubSpot's 10,000-result
 * cap by searching again from where it got to. Every call worth scoring goes to ingest like an
 * upload, keyed by HubSpot's call id here (`imports`) and in ingest, and the checkpoint moves to
 * each page's last modification once the page is in. A call modified again after its import is
 * found already imported and passed over. A sync stopped anywhere resumes from the checkpoint.
 * A call goes as its transcript when HubSpot has one and lets it be read, else as its recording;
 * a transcript is read only for a call that would be imported.
 */
import type { ConnectionRow } from '../db/connections.repository.js';
import { importedExternalIds, saveSyncCursor } from '../db/sync.repository.js';
import { representativeFinder } from '../domain/call-import.js';
import { hubspotCallDecision, hubspotSyncStart, hubspotTranscriptToRead } from '../domain/hubspot-import.js';
import { storedHubSpotSettings } from '../domain/integrations.js';
import type { HubSpotClient, HubSpotUtterance } from '../vendors/hubspot-client.js';
import { importPlannedCall, SYNC_LAG_MS, type SyncCounts, type SyncDependencies } from './import-call.js';

export interface HubSpotSyncDependencies extends SyncDependencies {
  /** A HubSpot client acting for the connection (its access token refreshed as needed). */
  hubspot: (connection: ConnectionRow) => Pick<HubSpotClient, 'calls' | 'owners' | 'callContacts' | 'recording' | 'transcript'>;
}

/** Syncs the connection to a minute ago, or throws where it stopped; the counts so far are in `counts` either way. */
export async function syncHubSpotCalls(deps: HubSpotSyncDependencies, connection: ConnectionRow, counts: SyncCounts): Promise<void> {
  const now = deps.now ?? (() => new Date());
  const { companyId } = connection;
  const settings = storedHubSpotSettings(connection.settings);
  const hubspot = deps.hubspot(connection);
  const findRepresentative = representativeFinder(await deps.teams(companyId));
  const owners = new Map((await hubspot.owners()).map((owner) => [owner.id, owner]));
  // Cleared once HubSpot refuses a transcript for want of the optional scope: every other one would be refused too.
  let transcriptsGranted = true;
  const readTranscript = async (transcriptId: string | undefined): Promise<HubSpotUtterance[]> => {
    if (transcriptId === undefined || !transcriptsGranted) return [];
    const transcript = await hubspot.transcript(transcriptId);
    if ('utterances' in transcript) return transcript.utterances;
    if (transcript.unreadable === 'not-granted') {
      transcriptsGranted = false;
      deps.logger.warn({ companyId, source: 'hubspot-crm' }, 'HubSpot refuses call transcripts to this connection (optional scope not granted); calls are imported from their recordings');
    }
    return [];
  };

  // Fixed when the sync starts: calls changed while it runs are the next sync's, so it always ends.
  const until = new Date(now().getTime() - SYNC_LAG_MS);
  const from = hubspotSyncStart(connection.syncCursor, until);
  if (from.getTime() >= until.getTime()) return;
  for await (const page of hubspot.calls({ modifiedFrom: from, modifiedBefore: until })) {
    deps.signal?.throwIfAborted();
    const already = await importedExternalIds(deps.db, companyId, 'hubspot-crm', page.map((call) => call.id));
    const fresh = page.filter((call) => !already.has(call.id));
    counts.alreadyImported += page.length - fresh.length;
    const contacts = fresh.length > 0 ? await hubspot.callContacts(fresh.map((call) => call.id)) : new Map<string, string[]>();
    for (const call of fresh) {
      const owner = call.ownerId ? owners.get(call.ownerId) : undefined;
      const utterances = await readTranscript(hubspotTranscriptToRead(call, settings.minCallDuration, owner, findRepresentative));
      const decision = hubspotCallDecision(call, settings.minCallDuration, owner, contacts.get(call.id) ?? [], findRepresentative, utterances);
      if ('skip' in decision) {
        counts.skipped[decision.skip] += 1;
        continue;
      }
      await importPlannedCall(deps, { source: 'hubspot-crm', companyId, plan: decision.import, recording: (url) => hubspot.recording(url) }, counts);
    }
    // Oldest first: every call modified before the page's last one is in. The search starts at
    // the checkpoint inclusively, so one modified at that very instant is read again and passed over.
    await saveSyncCursor(deps.db, connection, page.at(-1)!.modifiedAt.toISOString());
  }
  await saveSyncCursor(deps.db, connection, until.toISOString());
}
