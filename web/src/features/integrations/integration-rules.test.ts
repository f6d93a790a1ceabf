import { describe, expect, it } from 'vitest';
import {
  badgeOf,
  closeSettingsOf,
  connectedByName,
  formatApproxDuration,
  formatConnectionDay,
  formatDateTime,
  formatLastRun,
  formatLastSync,
  hubSpotSettingsOf,
  parseMinCallDuration,
  describeScopes,
  formatFolderOwners,
  missingWorkspaceScopes,
  reconnectOutcome,
  settingsUnavailable,
  workspaceSettingsOf,
  workspaceTokenStatus,
} from './integration-rules';

describe('minimum call duration (spec part 2 §5, §9)', () => {
  it('reads whole seconds as typed', () => {
    expect(parseMinCallDuration('90')).toBe(90);
    expect(parseMinCallDuration(' 60 ')).toBe(60);
    expect(parseMinCallDuration('0')).toBe(0);
    expect(parseMinCallDuration('3600')).toBe(3600);
  });

  it('turns non-numeric input, empty input included, into 0', () => {
    expect(parseMinCallDuration('abc')).toBe(0);
    expect(parseMinCallDuration('12abc')).toBe(0);
    expect(parseMinCallDuration('')).toBe(0);
    expect(parseMinCallDuration('Infinity')).toBe(0);
  });

  it('clamps to 0–3600 and rounds to whole seconds', () => {
    expect(parseMinCallDuration('-5')).toBe(0);
    expect(parseMinCallDuration('3601')).toBe(3600);
    expect(parseMinCallDuration('1e6')).toBe(3600);
    expect(parseMinCallDuration('90.6')).toBe(91);
    expect(parseMinCallDuration('90.4')).toBe(90);
  });

  it('shows the approximate minutes and seconds, leaving out a zero part', () => {
    expect(formatApproxDuration(90)).toBe('≈ 1 min 30 s');
    expect(formatApproxDuration(60)).toBe('≈ 1 min');
    expect(formatApproxDuration(45)).toBe('≈ 45 s');
    expect(formatApproxDuration(0)).toBe('≈ 0 s');
    expect(formatApproxDuration(3600)).toBe('≈ 60 min');
    expect(formatApproxDuration(3599)).toBe('≈ 59 min 59 s');
  });
});

describe('badge of a connection (spec part 2 §2.12, §4)', () => {
  it('says Connected, Not Connected or Expired from the status', () => {
    expect(badgeOf({ connected: true, status: 'connected' })).toEqual({ label: 'Connected', tone: 'success' });
    expect(badgeOf({ connected: false, status: 'not_connected' })).toEqual({ label: 'Not Connected', tone: 'neutral' });
    expect(badgeOf({ connected: true, status: 'expired' })).toEqual({ label: 'Expired', tone: 'warning' });
  });
});

describe('who and when', () => {
  it('names the person who connected, or their e-mail address when no name is known', () => {
    expect(connectedByName({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' })).toBe('Ada Lovelace');
    expect(connectedByName({ first_name: 'Ada', last_name: '', email: 'ada@example.com' })).toBe('Ada');
    expect(connectedByName({ first_name: '', last_name: '', email: 'ada@example.com' })).toBe('ada@example.com');
  });

  it('writes days and times in local time, and nothing for a missing or unreadable date', () => {
    const local = new Date(2025, 2, 3, 9, 5).toISOString();
    expect(formatConnectionDay(local)).toBe('Mar 3, 2025');
    expect(formatDateTime(local)).toBe('Mar 3, 2025, 9:05 AM');
    expect(formatConnectionDay(null)).toBeNull();
    expect(formatDateTime('not a date')).toBeNull();
  });

  it('shows the last sync date, or Never before the first sync', () => {
    expect(formatLastSync(null)).toBe('Never');
    expect(formatLastSync(new Date(2025, 2, 3, 14, 30).toISOString())).toBe('Mar 3, 2025, 2:30 PM');
  });

  it('writes the last sync run in words, one call in the singular, and nothing before the first run', () => {
    expect(formatLastRun({ imported: 3, alreadyImported: 1, skipped: 2, refused: 0 })).toBe('Last run: 3 calls imported, 1 already imported, 2 skipped, 0 refused');
    expect(formatLastRun({ imported: 1, alreadyImported: 0, skipped: 0, refused: 1 })).toBe('Last run: 1 call imported, 0 already imported, 0 skipped, 1 refused');
    expect(formatLastRun({ imported: 0, alreadyImported: 5, skipped: 1, refused: 0 })).toBe('Last run: 0 calls imported, 5 already imported, 1 skipped, 0 refused');
    expect(formatLastRun(null)).toBeNull();
  });

  it('counts meetings for Google Workspace', () => {
    expect(formatLastRun({ imported: 1, alreadyImported: 0, skipped: 2, refused: 0 }, 'meeting')).toBe('Last run: 1 meeting imported, 0 already imported, 2 skipped, 0 refused');
    expect(formatLastRun({ imported: 4, alreadyImported: 0, skipped: 0, refused: 0 }, 'meeting')).toBe('Last run: 4 meetings imported, 0 already imported, 0 skipped, 0 refused');
  });

  it('says which settings are not available yet (spec part 2 §8)', () => {
    expect(settingsUnavailable('HubSpot')).toBe('Settings for HubSpot are not yet available.');
  });
});

describe('a connection’s settings, told apart by integration', () => {
  const close = {
    syncUsersAndTeams: false,
    autoSync: true,
    createActivities: false,
    updateLeadStatus: false,
    minCallDuration: 60,
    successfulCallStatus: '',
    unsuccessfulCallStatus: '',
    lastSyncDate: null,
  };
  const hubspot = { syncCalls: true, createTasks: false, minCallDuration: 60, lastSyncDate: null, account: '' };

  const workspace = {
    monitoringEnabled: true,
    minCallDuration: 60,
    lastSyncDate: null,
    selectedFolder: null,
    tokenValid: true,
    refreshTokenValid: true,
    scopes: [],
    account: 'ada@example.com',
  };

  it('reads Google Workspace’s settings as its own, and no CRM’s', () => {
    expect(workspaceSettingsOf(workspace)).toBe(workspace);
    expect(workspaceSettingsOf(close)).toBeNull();
    expect(workspaceSettingsOf(hubspot)).toBeNull();
    expect(workspaceSettingsOf(null)).toBeNull();
    expect(closeSettingsOf(workspace)).toBeNull();
    expect(hubSpotSettingsOf(workspace)).toBeNull();
  });

  it('reads Close’s settings as Close’s and HubSpot’s as HubSpot’s, and nothing from no settings', () => {
    expect(closeSettingsOf(close)).toBe(close);
    expect(closeSettingsOf(hubspot)).toBeNull();
    expect(hubSpotSettingsOf(hubspot)).toBe(hubspot);
    expect(hubSpotSettingsOf(close)).toBeNull();
    expect(closeSettingsOf(null)).toBeNull();
    expect(hubSpotSettingsOf(null)).toBeNull();
  });
});

describe('Google Workspace (spec part 2 §2.12, §3, §4)', () => {
  const AUTH = 'https://www.googleapis.com/auth/';

  it('writes the token status: valid, refreshed when next used, or expired', () => {
    expect(workspaceTokenStatus({ tokenValid: true, refreshTokenValid: true })).toBe('Access valid');
    expect(workspaceTokenStatus({ tokenValid: false, refreshTokenValid: true })).toBe('Access refreshed when next used');
    expect(workspaceTokenStatus({ tokenValid: false, refreshTokenValid: false })).toBe('Expired — reconnect');
    expect(workspaceTokenStatus({ tokenValid: true, refreshTokenValid: false })).toBe('Expired — reconnect');
  });

  it('writes the granted scopes in plain words, each once, an unknown one as Google names it', () => {
    expect(describeScopes(['openid', 'email', `${AUTH}userinfo.email`, `${AUTH}drive.readonly`, `${AUTH}gmail.readonly`])).toEqual([
      'Know who you are on Google',
      'See your e-mail address',
      'See and download your Google Drive files (read-only)',
      `${AUTH}gmail.readonly`,
    ]);
    expect(describeScopes([])).toEqual([]);
  });

  it('names the access meetings need that Google did not grant', () => {
    expect(missingWorkspaceScopes([`${AUTH}drive.readonly`, `${AUTH}documents.readonly`])).toEqual([]);
    expect(missingWorkspaceScopes(['openid'])).toEqual(['See and download your Google Drive files (read-only)', 'See your Google Docs documents (read-only)']);
  });

  it('names a folder’s owners, You for the user', () => {
    expect(formatFolderOwners([{ displayName: 'Ada Lovelace', isMe: true }])).toBe('Owner: You');
    expect(formatFolderOwners([{ displayName: 'Grace Hopper', isMe: false }, { displayName: 'Ada', isMe: true }])).toBe('Owners: Grace Hopper, You');
    expect(formatFolderOwners([])).toBeNull();
    expect(formatFolderOwners([{ displayName: ' ', isMe: false }])).toBeNull();
  });

  it('chooses the reconnect message by folderStatus: fully restored, gone, or no longer accessible', () => {
    expect(reconnectOutcome({ exists: true, accessible: true }, 'Calls')).toEqual({
      message: 'Google Workspace is fully restored: it is connected again, with your settings and Drive folder kept.',
      pickFolder: false,
    });
    expect(reconnectOutcome({ exists: true, accessible: true }, null).message).toBe('Google Workspace is fully restored: it is connected again, with your settings kept.');
    const gone = reconnectOutcome({ exists: false, accessible: false }, 'Calls');
    expect(gone.pickFolder).toBe(true);
    expect(gone.message).toContain('the Drive folder “Calls” no longer exists');
    const closed = reconnectOutcome({ exists: true, accessible: false }, null);
    expect(closed.pickFolder).toBe(true);
    expect(closed.message).toContain('the selected Drive folder is no longer accessible to this Google account');
  });
});
