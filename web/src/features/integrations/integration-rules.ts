// The integrations screen's rules, without React: the minimum call duration (spec part 2 §5, §9),
// the badge a connection shows (§2.12, §4), and how its people and times are written.
import type { CloseSettings, HubSpotSettings, Integration, ListGoogleDriveFoldersApiResponse, WorkspaceSettings } from '../../lib/api/gateway-api.generated';
import { formatDay } from '../../lib/format';

export type Connection = Integration['connection'];

/** A connection's settings, whichever integration's they are; null when not connected. */
type AnySettings = Connection['settings'];

/** Close's settings (the first CRM), told apart from HubSpot's by their fields; null for any other. */
export const closeSettingsOf = (settings: AnySettings): CloseSettings | null => (settings && 'autoSync' in settings ? settings : null);

/** HubSpot's settings (the second CRM), told apart from Close's by their fields; null for any other. */
export const hubSpotSettingsOf = (settings: AnySettings): HubSpotSettings | null => (settings && 'syncCalls' in settings ? settings : null);

/** Google Workspace's settings, told apart from the CRMs' by their fields; null for any other. */
export const workspaceSettingsOf = (settings: AnySettings): WorkspaceSettings | null => (settings && 'monitoringEnabled' in settings ? settings : null);

/** Spec part 2 §9: a whole number of seconds from 0 to 3600, 60 by default. */
export const MIN_CALL_DURATION = { min: 0, max: 3600, default: 60 } as const;

/**
 * What the minimum call duration field holds, as the seconds to store: non-numeric input becomes
 * 0 (§5), a fraction is rounded to whole seconds (the API takes whole seconds), and the result is
 * clamped to 0–3600.
 */
export function parseMinCallDuration(input: string): number {
  const value = Number(input.trim());
  if (!Number.isFinite(value)) return MIN_CALL_DURATION.min;
  return Math.min(MIN_CALL_DURATION.max, Math.max(MIN_CALL_DURATION.min, Math.round(value)));
}

/** The approximate minutes and seconds shown beside the field: '≈ 1 min 30 s', '≈ 1 min', '≈ 45 s'. */
export function formatApproxDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  if (minutes === 0) return `≈ ${rest} s`;
  return rest === 0 ? `≈ ${minutes} min` : `≈ ${minutes} min ${rest} s`;
}

export type Badge = { label: 'Connected' | 'Not Connected' | 'Expired'; tone: 'success' | 'warning' | 'neutral' };

/**
 * The card's badge (§2.12, §4): Expired when the vendor refused the stored credentials (still
 * connected; Reconnect repairs it), Connected while connected, Not Connected otherwise.
 */
export function badgeOf(connection: Pick<Connection, 'connected' | 'status'>): Badge {
  if (connection.status === 'expired') return { label: 'Expired', tone: 'warning' };
  if (connection.status === 'connected' || connection.connected) return { label: 'Connected', tone: 'success' };
  return { label: 'Not Connected', tone: 'neutral' };
}

/** Who connected it: their name, or their e-mail address when no name is known. */
export function connectedByName(by: NonNullable<Connection['by']>): string {
  const name = `${by.first_name} ${by.last_name}`.trim();
  return name || by.email;
}

const dayAndTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** 'Mar 3, 2025', in local time; null for a missing or unreadable date. */
export function formatConnectionDay(iso: string | null): string | null {
  const date = iso ? new Date(iso) : null;
  return date && !Number.isNaN(date.getTime()) ? formatDay(date) : null;
}

/** 'Mar 3, 2025, 9:05 AM', in local time; null for a missing or unreadable date. */
export function formatDateTime(iso: string | null): string | null {
  const date = iso ? new Date(iso) : null;
  return date && !Number.isNaN(date.getTime()) ? dayAndTime.format(date) : null;
}

/** The last sync date as the settings show it: 'Never' before the first sync (§2.12). */
export const formatLastSync = (iso: string | null): string => formatDateTime(iso) ?? 'Never';

/** What the last sync did, as the gateway reports it; null before the first sync. */
export type SyncRun = Connection['sync']['lastRun'];

/** What a sync imports: calls from a CRM, meetings from Google Workspace. */
export type SyncedItem = 'call' | 'meeting';

/**
 * The last sync's counts in words, shown under the last sync date: 'Last run: 3 calls imported,
 * 1 already imported, 2 skipped, 0 refused' ('meetings' for Google Workspace). Null before the
 * first sync, when nothing is shown.
 */
export function formatLastRun(run: SyncRun, item: SyncedItem = 'call'): string | null {
  if (!run) return null;
  const imported = `${run.imported} ${item}${run.imported === 1 ? '' : 's'} imported`;
  return `Last run: ${imported}, ${run.alreadyImported} already imported, ${run.skipped} skipped, ${run.refused} refused`;
}

/**
 * The write-back's state in words, under the write-back settings: 'Last written back: Nov 24,
 * 5:31 PM · 2 scores waiting'. 'Nothing written back yet' before the first write.
 */
export function formatWriteback(writeback: Connection['writeback']): string {
  const last = formatDateTime(writeback.lastWrittenAt);
  const written = last ? `Last written back: ${last}` : 'Nothing written back yet';
  if (writeback.pending === 0) return written;
  return `${written} · ${writeback.pending} ${writeback.pending === 1 ? 'score' : 'scores'} waiting`;
}

/** The integrations with a settings view in this version; any other says it is not available (§2.12, §8). */
export const INTEGRATIONS_WITH_SETTINGS: readonly string[] = ['close-crm', 'hubspot-crm', 'google-workspace'];

/** §8: what Settings shows for an integration without a settings view. */
export const settingsUnavailable = (name: string) => `Settings for ${name} are not yet available.`;

/** The integrations this version can connect; the others are listed, with their Connect disabled. */
export const CONNECTABLE_INTEGRATIONS: readonly string[] = ['close-crm', 'hubspot-crm', 'google-workspace'];

/** What a card says under its disabled Connect button. */
export const notAvailableYet = (name: string) => `Connecting ${name} is not available in this version of Parlance yet.`;

/** What Workspace's Connect (and Reconnect) says when the web config names no Google client id. */
export const WORKSPACE_NOT_SET_UP =
  'Google Workspace is not set up on this Parlance server yet: its administrator must set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET.';

/** Workspace's token status (§2.12, §3): expired when Google refuses the refresh token. */
export function workspaceTokenStatus(settings: Pick<WorkspaceSettings, 'tokenValid' | 'refreshTokenValid'>): string {
  if (!settings.refreshTokenValid) return 'Expired — reconnect';
  return settings.tokenValid ? 'Access valid' : 'Access refreshed when next used';
}

const GOOGLE_AUTH = 'https://www.googleapis.com/auth/';

/** Google's scopes in plain words; the same words for a scope's short and long names. */
const SCOPE_WORDS: Record<string, string> = {
  openid: 'Know who you are on Google',
  email: 'See your e-mail address',
  [`${GOOGLE_AUTH}userinfo.email`]: 'See your e-mail address',
  profile: 'See your name and profile picture',
  [`${GOOGLE_AUTH}userinfo.profile`]: 'See your name and profile picture',
  [`${GOOGLE_AUTH}calendar.readonly`]: 'See your Google Calendar events (read-only)',
  [`${GOOGLE_AUTH}drive.readonly`]: 'See and download your Google Drive files (read-only)',
  [`${GOOGLE_AUTH}documents.readonly`]: 'See your Google Docs documents (read-only)',
};

/** The scopes Workspace needs to read Meet transcripts: Drive (the folder) and Docs (the transcripts). */
export const WORKSPACE_REQUIRED_SCOPES: readonly string[] = [`${GOOGLE_AUTH}drive.readonly`, `${GOOGLE_AUTH}documents.readonly`];

/** A scope in plain words; an unknown scope as Google names it. */
export const describeScope = (scope: string): string => SCOPE_WORDS[scope] ?? scope;

/** The granted scopes in plain words, each once, in the order granted. */
export function describeScopes(scopes: readonly string[]): string[] {
  return [...new Set(scopes.map(describeScope))];
}

/** The scopes Workspace needs that Google did not grant (the user may untick some), in plain words. */
export function missingWorkspaceScopes(scopes: readonly string[]): string[] {
  return WORKSPACE_REQUIRED_SCOPES.filter((scope) => !scopes.includes(scope)).map(describeScope);
}

export type DriveFolder = ListGoogleDriveFoldersApiResponse['folders'][number];

/** A Drive folder's owners as the folder list shows them: 'You' for the user, else their name. */
export function formatFolderOwners(owners: DriveFolder['owners']): string | null {
  const names = owners.map((owner) => (owner.isMe ? 'You' : owner.displayName.trim())).filter((name) => name !== '');
  if (names.length === 0) return null;
  return `${names.length === 1 ? 'Owner' : 'Owners'}: ${names.join(', ')}`;
}

/** What Reconnect found of the selected Drive folder (§4). */
export type FolderStatus = { exists: boolean; accessible: boolean };

/**
 * The message after a Workspace reconnect, chosen by folderStatus (§4): fully restored, the folder
 * no longer exists, or it is no longer accessible. `pickFolder` is true when the user must choose
 * a new folder.
 */
export function reconnectOutcome(folderStatus: FolderStatus, folderName: string | null): { message: string; pickFolder: boolean } {
  const folder = folderName ? `the Drive folder “${folderName}”` : 'the selected Drive folder';
  if (!folderStatus.exists) {
    return { message: `Google Workspace is connected again, but ${folder} no longer exists. Choose a new folder so meetings are imported again.`, pickFolder: true };
  }
  if (!folderStatus.accessible) {
    return {
      message: `Google Workspace is connected again, but ${folder} is no longer accessible to this Google account. Choose a new folder so meetings are imported again.`,
      pickFolder: true,
    };
  }
  const kept = folderName ? 'your settings and Drive folder' : 'your settings';
  return { message: `Google Workspace is fully restored: it is connected again, with ${kept} kept.`, pickFolder: false };
}
