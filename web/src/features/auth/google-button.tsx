import { useEffect, useRef, useState } from 'react';

/** Google Identity Services, loaded from Google only when the deployment set a client id. */
const GIS_SCRIPT = 'https://accounts.google.com/gsi/client';

type CredentialResponse = { credential?: string };
type GoogleIdentity = {
  accounts: {
    id: {
      initialize(options: { client_id: string; callback: (response: CredentialResponse) => void; ux_mode?: 'popup' }): void;
      renderButton(parent: HTMLElement, options: Record<string, string | number>): void;
    };
  };
};

declare global {
  interface Window {
    google?: GoogleIdentity;
  }
}

let scriptLoad: Promise<GoogleIdentity> | undefined;

function loadGoogleIdentity(): Promise<GoogleIdentity> {
  // Already on the page (loaded earlier, or provided by the embedding page): use it as it is.
  if (window.google?.accounts?.id) return Promise.resolve(window.google);
  scriptLoad ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GIS_SCRIPT;
    script.async = true;
    script.onload = () => (window.google ? resolve(window.google) : reject(new Error('Google sign-in did not start')));
    script.onerror = () => {
      scriptLoad = undefined;
      reject(new Error('Google sign-in could not be loaded. Check your connection and try again.'));
    };
    document.head.appendChild(script);
  });
  return scriptLoad;
}

type GoogleButtonProps = {
  clientId: string;
  /** Receives Google's ID token (a JWT the server verifies). */
  onCredential: (idToken: string) => void;
  onError: (message: string) => void;
};

/**
 * Google's own 'Sign in with Google' button (a popup). What it returns is an ID token; the server
 * verifies it against Google's keys and trusts nothing else the browser could claim.
 */
export function GoogleButton({ clientId, onCredential, onError }: GoogleButtonProps) {
  const host = useRef<HTMLDivElement>(null);
  const handlers = useRef({ onCredential, onError });
  handlers.current = { onCredential, onError };
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let active = true;
    loadGoogleIdentity()
      .then((google) => {
        if (!active || !host.current) return;
        google.accounts.id.initialize({
          client_id: clientId,
          ux_mode: 'popup',
          callback: (response) => {
            if (response.credential) handlers.current.onCredential(response.credential);
            else handlers.current.onError('Google sign-in was cancelled or failed. Please try again.');
          },
        });
        google.accounts.id.renderButton(host.current, { theme: 'outline', size: 'large', text: 'continue_with', width: 300 });
        setReady(true);
      })
      .catch((error: Error) => active && handlers.current.onError(error.message));
    return () => {
      active = false;
    };
  }, [clientId]);

  return <div ref={host} className="google-button" aria-busy={!ready} />;
}
