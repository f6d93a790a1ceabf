/**
 * One sync of a company's Google Meet transcripts into Parlance (issue 16, point 3): the Google
 * Docs in the Drive folder the connection watches, sent to ingest as meetings like an upload,
 * keyed by the document's id here (`imports`) and in ingest.
 *
 * Each transcript's meeting is looked up first: its Calendar event (the one the Doc is attached
 * to: the Meet link, title, time and attendees) and, when the connection holds the Meet scope,
 * the Meet REST API's transcript entries, which then replace the Doc's text. Both are extras:
 * one Google refuses for good leaves the Doc's own facts (and is not asked again in that sync);
 * one failing for now stops the sync like Drive failing, so the transcript is imported whole by
 * a later one.
 *
 * The cursor is Drive's changes token with the folder it was taken for. The first sync of a
 * folder takes a token first, then lists the folder whole, and stores the token once all is in:
 * a document added meanwhile comes in the next sync's changes (and is passed over if it was
 * already listed). Later syncs read only the changes since the token, keeping the documents of
 * the folder. Choosing another folder starts over with a listing of the new one. A sync stopped
 * anywhere keeps the last token stored, and the next one reads the same changes again, passing
 * over what it finds imported.
 */
import type { ConnectionRow } from '../db/connections.repository.js';
import { importedExternalIds, saveSyncCursor } from '../db/sync.repository.js';
import { representativeFinder, type Representative } from '../domain/call-import.js';
import { storedWorkspaceSettings, workspaceGrant } from '../domain/integrations.js';
import { eventOfDocument, meetingSearchWindow, workspaceMeetingDecision, type WorkspaceTranscript } from '../domain/workspace-import.js';
import { GOOGLE_MEET_SCOPE, type CalendarClient, type CalendarEvent, type DriveClient, type DriveDocument, type MeetClient } from '../vendors/google-client.js';
import { refusesCredentials, VendorHttpError } from '../vendors/vendor-http.js';
import { importPlannedCall, type SyncCounts, type SyncDependencies } from './import-call.js';

/** The Google clients acting for one connection, sharing its access token (refreshed as needed). */
export interface WorkspaceClients {
  drive: Pick<DriveClient, 'documentsIn' | 'documentText' | 'startToken' | 'changesSince'>;
  calendar: Pick<CalendarClient, 'events'>;
  meet: MeetClient;
}

export interface WorkspaceSyncDependencies extends SyncDependencies {
  workspace: (connection: ConnectionRow) => WorkspaceClients;
}

/** What a sync still asks Google about each transcript's meeting: what the connection may read, and Google has not refused. */
interface MeetingLookups {
  calendar: boolean;
  meet: boolean;
}

/** Every Calendar scope starts so; calendar.readonly is the one asked for. */
const CALENDAR_SCOPES_PREFIX = 'https://www.googleapis.com/auth/calendar';

interface WorkspaceCursor {
  folderId: string;
  changesToken: string;
}

export async function syncWorkspaceMeetings(deps: WorkspaceSyncDependencies, connection: ConnectionRow, counts: SyncCounts): Promise<void> {
  const settings = storedWorkspaceSettings(connection.settings);
  const folder = settings.selectedFolder;
  if (!folder) return;
  const clients = deps.workspace(connection);
  const { drive } = clients;
  const { account, scopes } = workspaceGrant(connection.settings);
  const lookups: MeetingLookups = {
    // A connection whose scopes were not kept is asked anyway: Calendar says if it may not.
    calendar: scopes.length === 0 || scopes.some((scope) => scope.startsWith(CALENDAR_SCOPES_PREFIX)),
    meet: scopes.includes(GOOGLE_MEET_SCOPE),
  };
  const representative = account === '' ? undefined : representativeFinder(await deps.teams(connection.companyId))({ id: '', email: account });
  const cursor = cursorOf(connection.syncCursor);

  const importAll = async (documents: readonly DriveDocument[]) => {
    const already = await importedExternalIds(deps.db, connection.companyId, 'google-workspace', documents.map((document) => document.id));
    for (const document of documents) {
      deps.signal?.throwIfAborted();
      if (already.has(document.id)) {
        counts.alreadyImported += 1;
        continue;
      }
      await importDocument(deps, clients, lookups, connection, document, settings.minCallDuration, representative, counts);
    }
  };

  if (cursor?.folderId !== folder.id) {
    // Taken before the listing: what changes while it runs is in the next sync's changes.
    const changesToken = await drive.startToken();
    for await (const page of drive.documentsIn(folder.id)) await importAll(page);
    await saveSyncCursor(deps.db, connection, JSON.stringify({ folderId: folder.id, changesToken } satisfies WorkspaceCursor));
    return;
  }
  const changes = await drive.changesSince(cursor.changesToken);
  await importAll(changes.documents.filter((document) => document.parents.includes(folder.id) && !document.trashed));
  await saveSyncCursor(deps.db, connection, JSON.stringify({ folderId: folder.id, changesToken: changes.nextToken } satisfies WorkspaceCursor));
}

async function importDocument(
  deps: WorkspaceSyncDependencies,
  clients: WorkspaceClients,
  lookups: MeetingLookups,
  connection: ConnectionRow,
  document: DriveDocument,
  minDurationSeconds: number,
  representative: Representative | undefined,
  counts: SyncCounts,
): Promise<void> {
  // Who it belongs to is known before the text is read: a transcript of nobody's is not downloaded.
  if (!representative) {
    counts.skipped['no-representative'] += 1;
    return;
  }
  const event = lookups.calendar ? await unlessRefused(deps, lookups, connection, 'calendar', () => attachedEvent(clients.calendar, document)) : undefined;
  const entries = lookups.meet ? await unlessRefused(deps, lookups, connection, 'meet', () => meetTranscriptOf(clients.meet, document)) : undefined;
  // The Doc's text is read only when the Meet API's entries are not at hand.
  const transcript: WorkspaceTranscript = entries ?? { kind: 'document', text: await clients.drive.documentText(document.id) };
  const decision = workspaceMeetingDecision(document, transcript, minDurationSeconds, representative, event);
  if ('skip' in decision) {
    counts.skipped[decision.skip] += 1;
    return;
  }
  await importPlannedCall(
    deps,
    { source: 'google-workspace', companyId: connection.companyId, plan: decision.import },
    counts,
  );
}

/** The Calendar event the Doc is attached to, among those around the time it was made. */
async function attachedEvent(calendar: WorkspaceClients['calendar'], document: DriveDocument): Promise<CalendarEvent | undefined> {
  const { from, to } = meetingSearchWindow(document.createdAt);
  const events: CalendarEvent[] = [];
  for await (const page of calendar.events(from, to)) events.push(...page);
  return eventOfDocument(events, document);
}

/** The Meet API's transcript whose Doc this is, with its entries and participants; undefined when there is none, or it holds no words. */
async function meetTranscriptOf(meet: MeetClient, document: DriveDocument): Promise<Extract<WorkspaceTranscript, { kind: 'meet' }> | undefined> {
  const { from, to } = meetingSearchWindow(document.createdAt);
  for (const record of await meet.conferenceRecords(from, to)) {
    const transcript = (await meet.transcripts(record.name)).find((candidate) => candidate.documentId === document.id);
    if (!transcript) continue;
    const entries = await meet.transcriptEntries(transcript.name);
    if (!entries.some((entry) => entry.text.trim() !== '')) return undefined;
    return { kind: 'meet', entries, participants: await meet.participants(record.name), conferenceStartedAt: record.startAt, transcriptStartedAt: transcript.startAt };
  }
  return undefined;
}

/**
 * An extra lookup's answer. Once Google refuses it for good (a 4xx other than the credentials', or
 * an answer that cannot be read), it is undefined, and not asked again in this sync; a failure
 * that may pass, or credentials refused, stops the sync as Drive's would.
 */
async function unlessRefused<T>(
  deps: WorkspaceSyncDependencies,
  lookups: MeetingLookups,
  connection: ConnectionRow,
  lookup: keyof MeetingLookups,
  read: () => Promise<T | undefined>,
): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof VendorHttpError) || error.retryable || refusesCredentials(error)) throw error;
    lookups[lookup] = false;
    deps.logger.warn(
      { companyId: connection.companyId, source: 'google-workspace', lookup, status: error.status, kind: error.kind },
      lookup === 'calendar' ? 'Google Calendar refuses the meetings’ events; transcripts are imported without them' : 'the Meet API refuses the transcripts’ entries; the Docs’ text is imported',
    );
    return undefined;
  }
}

function cursorOf(text: string | null): WorkspaceCursor | undefined {
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<WorkspaceCursor>;
    return typeof parsed.folderId === 'string' && typeof parsed.changesToken === 'string' ? { folderId: parsed.folderId, changesToken: parsed.changesToken } : undefined;
  } catch {
    return undefined;
  }
}
