/**
 * One sync of a company's Google Meet transcripts into Parlance (issue 16, point 3): the Google
 * Docs in the Drive folder the connection watches, sent to ingest as meetings like an upload,
 * keyed by the document's id here (`imports`) and in ingest.
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
import { representativeFinder, type Representative } from '../domain/close-import.js';
import { storedWorkspaceSettings } from '../domain/integrations.js';
import { workspaceMeetingDecision } from '../domain/workspace-import.js';
import type { DriveClient, DriveDocument } from '../vendors/google-client.js';
import { importPlannedCall, type SyncCounts, type SyncDependencies } from './import-call.js';

export interface WorkspaceSyncDependencies extends SyncDependencies {
  /** A Drive client acting for the connection (its access token refreshed as needed). */
  drive: (connection: ConnectionRow) => Pick<DriveClient, 'documentsIn' | 'documentText' | 'startToken' | 'changesSince'>;
}

interface WorkspaceCursor {
  folderId: string;
  changesToken: string;
}

export async function syncWorkspaceMeetings(deps: WorkspaceSyncDependencies, connection: ConnectionRow, counts: SyncCounts): Promise<void> {
  const settings = storedWorkspaceSettings(connection.settings);
  const folder = settings.selectedFolder;
  if (!folder) return;
  const drive = deps.drive(connection);
  const account = typeof connection.settings.account === 'string' ? connection.settings.account : '';
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
      await importDocument(deps, drive, connection, document, settings.minCallDuration, representative, counts);
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
  drive: Pick<DriveClient, 'documentText'>,
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
  const text = await drive.documentText(document.id);
  const decision = workspaceMeetingDecision(document, text, minDurationSeconds, representative);
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

function cursorOf(text: string | null): WorkspaceCursor | undefined {
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<WorkspaceCursor>;
    return typeof parsed.folderId === 'string' && typeof parsed.changesToken === 'string' ? { folderId: parsed.folderId, changesToken: parsed.changesToken } : undefined;
  } catch {
    return undefined;
  }
}
