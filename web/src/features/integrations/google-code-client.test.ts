import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The module keeps its script load between calls: each test imports it afresh.
const load = () => import('./google-code-client');

type CodeClientConfig = {
  client_id: string;
  scope: string;
  ux_mode: string;
  state: string;
  callback: (response: { code?: string; state?: string; error?: string; error_description?: string }) => void;
  error_callback: (error: { type?: string; message?: string }) => void;
};

/** A stand-in for Google Identity Services' code client: it records the config and what was asked. */
function standInOAuth2() {
  const configs: CodeClientConfig[] = [];
  const requestCode = vi.fn();
  const oauth2 = {
    initCodeClient: vi.fn((config: CodeClientConfig) => {
      configs.push(config);
      return { requestCode };
    }),
  };
  return { oauth2, configs, requestCode, last: () => configs[configs.length - 1]! };
}

const setGoogle = (value: unknown) => {
  (window as unknown as { google?: unknown }).google = value;
};
const gisScripts = () => Array.from(document.querySelectorAll<HTMLScriptElement>('script[src="https://accounts.google.com/gsi/client"]'));

beforeEach(() => {
  vi.resetModules();
});

afterEach(() => {
  setGoogle(undefined);
  for (const script of gisScripts()) script.remove();
});

describe('Google’s code client (spec part 2 §4)', () => {
  it('asks for the read-only scopes in a popup with the client id and the sign-in’s state, and resolves with the code', async () => {
    const google = standInOAuth2();
    setGoogle({ accounts: { oauth2: google.oauth2 } });
    const { googleCodeClient, WORKSPACE_SCOPES } = await load();

    const code = googleCodeClient.requestCode('client-1', 'state-1');
    await vi.waitFor(() => expect(google.requestCode).toHaveBeenCalledTimes(1));
    const config = google.last();
    expect(config.client_id).toBe('client-1');
    expect(config.ux_mode).toBe('popup');
    expect(config.state).toBe('state-1');
    expect(config.scope).toBe(WORKSPACE_SCOPES);
    expect(WORKSPACE_SCOPES).toBe(
      'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/calendar.readonly https://www.googleapis.com/auth/drive.readonly https://www.googleapis.com/auth/documents.readonly',
    );

    config.callback({ code: '4/code', state: 'state-1' });
    await expect(code).resolves.toBe('4/code');
    expect(gisScripts()).toHaveLength(0);
  });

  it('refuses a code that comes back without the state it was asked with', async () => {
    const google = standInOAuth2();
    setGoogle({ accounts: { oauth2: google.oauth2 } });
    const { googleCodeClient } = await load();

    const changed = googleCodeClient.requestCode('client-1', 'state-1');
    await vi.waitFor(() => expect(google.requestCode).toHaveBeenCalledTimes(1));
    google.last().callback({ code: '4/code', state: 'state-2' });
    await expect(changed).rejects.toMatchObject({ kind: 'authentication', message: 'The Google sign-in came back for another request.' });

    const missing = googleCodeClient.requestCode('client-1', 'state-1');
    await vi.waitFor(() => expect(google.requestCode).toHaveBeenCalledTimes(2));
    google.last().callback({ code: '4/code' });
    await expect(missing).rejects.toMatchObject({ kind: 'authentication' });
  });

  it('rejects with an authentication error when Google answers an error (access denied)', async () => {
    const google = standInOAuth2();
    setGoogle({ accounts: { oauth2: google.oauth2 } });
    const { googleCodeClient, GoogleCodeError } = await load();

    const code = googleCodeClient.requestCode('client-1', 'state-1');
    await vi.waitFor(() => expect(google.requestCode).toHaveBeenCalled());
    google.last().callback({ error: 'access_denied' });
    const failure = await code.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GoogleCodeError);
    expect((failure as InstanceType<typeof GoogleCodeError>).kind).toBe('authentication');
  });

  it('rejects with an authentication error when the popup is closed or cannot open', async () => {
    const google = standInOAuth2();
    setGoogle({ accounts: { oauth2: google.oauth2 } });
    const { googleCodeClient } = await load();

    const code = googleCodeClient.requestCode('client-1', 'state-1');
    await vi.waitFor(() => expect(google.requestCode).toHaveBeenCalled());
    google.last().error_callback({ type: 'popup_closed' });
    await expect(code).rejects.toMatchObject({ kind: 'authentication' });
  });

  it('loads Google Identity Services once when it is not on the page, then asks for the code', async () => {
    const { googleCodeClient } = await load();
    googleCodeClient.preload();
    const code = googleCodeClient.requestCode('client-1', 'state-1');
    expect(gisScripts()).toHaveLength(1);

    const google = standInOAuth2();
    setGoogle({ accounts: { oauth2: google.oauth2 } });
    gisScripts()[0]!.dispatchEvent(new Event('load'));
    await vi.waitFor(() => expect(google.requestCode).toHaveBeenCalledTimes(1));
    google.last().callback({ code: 'c-1', state: 'state-1' });
    await expect(code).resolves.toBe('c-1');
    expect(gisScripts()).toHaveLength(1);
  });

  it('rejects with a load error when the script cannot load, and tries again on the next call', async () => {
    const { googleCodeClient } = await load();
    const first = googleCodeClient.requestCode('client-1', 'state-1');
    gisScripts()[0]!.dispatchEvent(new Event('error'));
    await expect(first).rejects.toMatchObject({ kind: 'load' });
    expect(gisScripts()).toHaveLength(0);

    const second = googleCodeClient.requestCode('client-1', 'state-1');
    expect(gisScripts()).toHaveLength(1);
    // Loaded, but without the code client: a load error too.
    gisScripts()[0]!.dispatchEvent(new Event('load'));
    await expect(second).rejects.toMatchObject({ kind: 'load' });
  });
});
