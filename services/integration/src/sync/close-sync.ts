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
import type { ConnectionRow } from '../db/connections.repository.js';
import { importedExternalIds, saveSyncCursor } from '../db/sync.repository.js';
import { openCredential } from '../domain/credential-cipher.js';
import { representativeFinder } from '../domain/call-import.js';
import { closeCallDecision, closeCursorOf, closeCursorText, closeUpdatesSpan, nextCloseWindow } from '../domain/close-import.js';
import { closeRosterChanges, type RosterChange, type RosterTeam } from '../domain/close-roster.js';
import { storedCloseSettings } from '../domain/integrations.js';
import type { CloseCall, CloseClient, CloseUser } from '../vendors/close-client.js';
import { importPlannedCall, SYNC_LAG_MS, type SyncCounts, type SyncDependencies } from './import-call.js';

/** The company's teams as syncUsersAndTeams reads and changes them (identity's, over gRPC). */
export interface RosterKeeper {
  /** Every team with its members in full, oldest first. */
  read(companyId: string): Promise<RosterTeam[]>;
  /** Makes the change on the team as it is now; a change identity refuses (or a team gone) is answered with the reason. */
  apply(companyId: string, change: RosterChange): Promise<{ saved: true } | { refused: string }>;
}

export interface CloseSyncDependencies extends SyncDependencies {
  close: (apiKey: string) => Pick<CloseClient, 'users' | 'calls' | 'recording' | 'contactName' | 'updatedCallIds' | 'call'>;
  /** Where syncUsersAndTeams brings Close's users in as team members. */
  rosters?: RosterKeeper;
}

/**
 * Syncs the connection to the end of Close's history (less the lag), or throws where it stopped;
 * the counts so far are in `counts` either way. The signal (deps.signal) stops it between pages.
 */
export async function syncCloseCalls(deps: CloseSyncDependencies, connection: ConnectionRow, counts: SyncCounts): Promise<void> {
  const now = deps.now ?? (() => new Date());
  const settings = storedCloseSettings(connection.settings);
  const close = deps.close(openCredential(deps.keyring, connection.credentials));
  const closeUsers = await close.users();
  const cursor = closeCursorOf(connection.syncCursor);
  // Before the teams are read, so a user who joins one has their calls imported in this same sync.
  if (settings.syncUsersAndTeams && deps.rosters && (await bringInCloseUsers(deps, deps.rosters, connection.companyId, closeUsers))) {
    // Earlier syncs passed over the newcomers' calls (nobody's): the history is read again, passing over what is imported.
    cursor.windowEnd = null;
  }
  const findRepresentative = representativeFinder(await deps.teams(connection.companyId));
  const users = new Map(closeUsers.map((user) => [user.id, user]));
  // Each contact's name is read once a sync, when one of its calls is imported.
  const names = new Map<string, Promise<string>>();
  const contactNames = (contactId: string): Promise<string> => {
    if (contactId === '') return Promise.resolve('');
    if (!names.has(contactId)) names.set(contactId, close.contactName(contactId).then((name) => name ?? ''));
    return names.get(contactId)!;
  };

  // Fixed when the sync starts: calls made while it runs are the next sync's, so it always ends.
  const until = new Date(now().getTime() - SYNC_LAG_MS);
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
 * syncUsersAndTeams: Close's users become members of the company's teams (domain/close-roster.ts).
 * A user or team identity refuses is logged with the reason and left out; the sync goes on, as
 * the calls of everyone else are still worth importing. True when someone joined a team.
 */
async function bringInCloseUsers(deps: Pick<SyncDependencies, 'logger'>, rosters: RosterKeeper, companyId: string, users: readonly CloseUser[]): Promise<boolean> {
  const { changes, passedOver } = closeRosterChanges(await rosters.read(companyId), users);
  let joined = false;
  for (const user of passedOver) deps.logger.warn({ companyId, closeUserId: user.userId, reason: user.reason }, 'a Close user was not added to a team');
  for (const change of changes) {
    const outcome = await rosters.apply(companyId, change);
    const who = { companyId, teamId: change.teamId, added: change.added.map((member) => member.crmId), linked: change.linked.map((link) => link.crmId) };
    if ('refused' in outcome) deps.logger.warn({ ...who, reason: outcome.refused }, 'identity refused the Close users for a team; they were not added');
    else {
      deps.logger.info(who, 'Close users brought into a team');
      joined ||= change.added.length > 0;
    }
  }
  return joined;
}
