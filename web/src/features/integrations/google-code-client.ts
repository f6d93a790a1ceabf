// Google sign-in for Google Workspace (spec part 2 §4): Google Identity Services' code client, in
// a popup, asking for read-only access to calendar, drive, documents and the user's e-mail. The
// authorization code it gives is sent to the gateway, which exchanges it for tokens; the browser
// never holds them.

/** Google Identity Services, the same script the login page's Google button loads. */
export const GIS_SCRIPT = 'https://accounts.google.com/gsi/client';

/** The read-only scopes Workspace asks for, space-separated as the code client takes them (§4). */
export const WORKSPACE_SCOPES = [
  'openid',
  'https://www.googleapis.com/auth/userinfo.email',
  'https://www.googleapis.com/auth/calendar.readonly',
  'https://www.googleapis.com/auth/drive.readonly',
  'https://www.googleapis.com/auth/documents.readonly',
].join(' ');

/**
 * Why no code came: 'authentication' when the user closed or denied the popup (or Google
 * refused), 'load' when Google Identity Services could not be loaded.
 */
export class GoogleCodeError extends Error {
  readonly kind: 'authentication' | 'load';

  constructor(kind: 'authentication' | 'load', message: string) {
    super(message);
    this.name = 'GoogleCodeError';
    this.kind = kind;
  }
}

/** What the code client hands its callback; `state` is the one it was given, carried to Google and back. */
type CodeResponse = { code?: string; state?: string; error?: string; error_description?: string };
/** What error_callback receives: the popup failed to open or was closed, or something else. */
type ClientError = { type?: string; message?: string };

type CodeClientConfig = {
  client_id: string;
  scope: string;
  ux_mode: 'popup';
  state: string;
  callback: (response: CodeResponse) => void;
  error_callback: (error: ClientError) => void;
};
type CodeClient = { requestCode(): void };
type OAuth2 = { initCodeClient(config: CodeClientConfig): CodeClient };

/**
 * The part of `window.google` used here. google-button.tsx declares `window.google` for sign-in
 * (`accounts.id`); this reads the same object through its own view, where `accounts.oauth2` is
 * optional, so the two declarations never conflict.
 */
type GoogleOAuth2Host = { google?: { accounts?: { oauth2?: OAuth2 } } };

const oauth2Now = (): OAuth2 | undefined => (window as unknown as GoogleOAuth2Host).google?.accounts?.oauth2;

let scriptLoad: Promise<OAuth2> | undefined;

/** Loads Google Identity Services once (or uses it when already on the page). */
function loadOAuth2(): Promise<OAuth2> {
  const ready = oauth2Now();
  if (ready) return Promise.resolve(ready);
  scriptLoad ??= new Promise<OAuth2>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GIS_SCRIPT;
    script.async = true;
    script.onload = () => {
      const oauth2 = oauth2Now();
      if (oauth2) return resolve(oauth2);
      scriptLoad = undefined;
      reject(new GoogleCodeError('load', 'Google sign-in did not start.'));
    };
    script.onerror = () => {
      scriptLoad = undefined;
      script.remove();
      reject(new GoogleCodeError('load', 'Google sign-in could not be loaded. Check your connection and try again.'));
    };
    document.head.appendChild(script);
  });
  return scriptLoad;
}

/**
 * Google sign-in with the code client. An object rather than bare functions, so a test can stand
 * in for `requestCode` (jsdom cannot open Google's popup), as it does for browserLocation.
 */
export const googleCodeClient = {
  /**
   * Starts loading Google Identity Services ahead of a click, so the popup opens within the
   * click's user activation (a browser blocks a popup opened long after it). Failures wait for
   * requestCode, which reports them.
   */
  preload(): void {
    loadOAuth2().catch(() => {});
  },

  /**
   * Opens Google's consent popup with the sign-in's `state` (from the gateway, bound to this
   * session) and resolves with the authorization code, once the state came back with it. Rejects
   * with a GoogleCodeError: 'authentication' when the popup is closed, cannot open, Google answers
   * an error (access denied) or the state came back changed, 'load' when the script cannot be loaded.
   */
  async requestCode(clientId: string, state: string): Promise<string> {
    const oauth2 = await loadOAuth2();
    return new Promise<string>((resolve, reject) => {
      const client = oauth2.initCodeClient({
        client_id: clientId,
        scope: WORKSPACE_SCOPES,
        ux_mode: 'popup',
        state,
        callback: (response) => {
          if (response.error || !response.code) reject(new GoogleCodeError('authentication', response.error_description ?? response.error ?? 'Google gave no authorization code.'));
          else if (response.state !== state) reject(new GoogleCodeError('authentication', 'The Google sign-in came back for another request.'));
          else resolve(response.code);
        },
        error_callback: (error) => reject(new GoogleCodeError('authentication', error.message ?? error.type ?? 'The Google sign-in window was closed.')),
      });
      client.requestCode();
    });
  },
};
