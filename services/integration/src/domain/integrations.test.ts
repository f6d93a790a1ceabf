import { describe, expect, it } from 'vitest';
import { changedCloseSettings, CLOSE_DEFAULTS, INTEGRATION_MESSAGES, INTEGRATIONS, isIntegrationId, SettingsError, storedCloseSettings } from './integrations.js';

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
