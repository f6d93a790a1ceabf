import { describe, expect, it } from 'vitest';
import {
  changedCloseSettings,
  changedWorkspaceSettings,
  checkedIntegrationRequest,
  credentialsRefused,
  CLOSE_DEFAULTS,
  INTEGRATION_MESSAGES,
  integrationRequestMail,
  INTEGRATIONS,
  isIntegrationId,
  SettingsError,
  storedCloseSettings,
  syncsOnSchedule,
  WORKSPACE_DEFAULTS,
} from './integrations.js';

describe('the integrations catalogue', () => {
  it('lists the spec’s three ids in the screen’s order', () => {
    expect(INTEGRATIONS.map((entry) => entry.id)).toEqual(['close-crm', 'hubspot-crm', 'google-workspace']);
    expect(isIntegrationId('hubspot-crm')).toBe(true);
    expect(isIntegrationId('salesforce')).toBe(false);
  });
});

describe('a Close settings change', () => {
  it('starts from a minimum call duration of 60 seconds with every write-back off', () => {
    expect(CLOSE_DEFAULTS).toMatchObject({ minCallDuration: 60, createActivities: false, updateLeadStatus: false, autoSync: false });
  });

  it('sets only the fields it names', () => {
    const next = changedCloseSettings(CLOSE_DEFAULTS, { autoSync: true, successfulCallStatus: ' stat_won ' });
    expect(next).toEqual({ ...CLOSE_DEFAULTS, autoSync: true, successfulCallStatus: 'stat_won' });
  });

  it.each([0, 1, 3600])('accepts a minimum call duration of %i seconds', (seconds) => {
    expect(changedCloseSettings(CLOSE_DEFAULTS, { minCallDuration: seconds }).minCallDuration).toBe(seconds);
  });

  it.each([-1, 3601, 1.5, Number.NaN])('refuses a minimum call duration of %d seconds, naming the range', (seconds) => {
    expect(() => changedCloseSettings(CLOSE_DEFAULTS, { minCallDuration: seconds })).toThrow(new SettingsError(INTEGRATION_MESSAGES.minCallDuration));
  });

  it('refuses a lead status id too long to be Close’s', () => {
    expect(() => changedCloseSettings(CLOSE_DEFAULTS, { unsuccessfulCallStatus: 'x'.repeat(201) })).toThrow(/unsuccessfulCallStatus/);
  });

  it('completes stored settings with the defaults of settings added since', () => {
    expect(storedCloseSettings({ autoSync: true })).toEqual({ ...CLOSE_DEFAULTS, autoSync: true });
  });
});

describe('a request for another integration', () => {
  it('is trimmed, and needs a name', () => {
    expect(checkedIntegrationRequest({ integrationName: ' Salesforce ', details: ' calls and tasks ' })).toEqual({ integrationName: 'Salesforce', details: 'calls and tasks' });
    expect(() => checkedIntegrationRequest({ integrationName: '  ', details: '' })).toThrow(new SettingsError(INTEGRATION_MESSAGES.requestNameMissing));
    expect(() => checkedIntegrationRequest({ integrationName: 'x'.repeat(201), details: '' })).toThrow(new SettingsError(INTEGRATION_MESSAGES.requestNameMissing));
  });

  it('refuses details past 2,000 characters', () => {
    expect(checkedIntegrationRequest({ integrationName: 'Pipedrive', details: 'é'.repeat(2000) }).details).toHaveLength(2000);
    expect(() => checkedIntegrationRequest({ integrationName: 'Pipedrive', details: 'x'.repeat(2001) })).toThrow(new SettingsError(INTEGRATION_MESSAGES.requestDetailsTooLong));
  });

  it('is e-mailed saying who asked, from which company, for what', () => {
    const mail = integrationRequestMail('ops@parlance.test', {
      integrationName: 'Salesforce',
      details: '',
      companyId: 'company-1',
      requestedBy: { firstName: 'Anna', lastName: 'Lee', email: 'anna@acme.test' },
      requestedAt: new Date('2026-11-24T10:00:00Z'),
    });
    expect(mail).toEqual({
      to: 'ops@parlance.test',
      subject: 'Integration request: Salesforce',
      text: 'Anna Lee <anna@acme.test> asked for an integration with Salesforce.\n\nCompany: company-1\nAsked at: 2026-11-24T10:00:00.000Z\n\n(No details given.)',
    });
  });
});

describe('a Google Workspace settings change', () => {
  it('starts with monitoring off, no folder and a minute’s minimum', () => {
    expect(WORKSPACE_DEFAULTS).toEqual({ monitoringEnabled: false, minCallDuration: 60, selectedFolder: null });
    expect(syncsOnSchedule('google-workspace', { ...WORKSPACE_DEFAULTS, monitoringEnabled: true })).toBe(false);
  });

  it('takes the folder as its id and name together, and clears it with an empty id', () => {
    const chosen = changedWorkspaceSettings(WORKSPACE_DEFAULTS, { selectedFolderId: ' fold_meet ', selectedFolderName: 'Meet Recordings', monitoringEnabled: true });
    expect(chosen).toEqual({ monitoringEnabled: true, minCallDuration: 60, selectedFolder: { id: 'fold_meet', name: 'Meet Recordings' } });
    expect(syncsOnSchedule('google-workspace', { ...chosen })).toBe(true);
    expect(changedWorkspaceSettings(chosen, { selectedFolderId: '' }).selectedFolder).toBeNull();
    expect(() => changedWorkspaceSettings(chosen, { selectedFolderId: 'fold_x' })).toThrow(INTEGRATION_MESSAGES.selectedFolder);
    expect(() => changedWorkspaceSettings(chosen, { minCallDuration: -1 })).toThrow(INTEGRATION_MESSAGES.minCallDuration);
  });

  it('says which integration refused its credentials', () => {
    expect(credentialsRefused('google-workspace')).toBe(INTEGRATION_MESSAGES.workspaceRevoked);
    expect(credentialsRefused('hubspot-crm')).toBe(INTEGRATION_MESSAGES.hubspotRevoked);
    expect(credentialsRefused('close-crm')).toBe(INTEGRATION_MESSAGES.closeKeyRevoked);
  });
});
