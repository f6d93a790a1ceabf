/**
 * An OAuth connection's access token for its API calls (HubSpot's, Google's): opened from the
 * sealed credentials, and refreshed (then sealed and stored again) from five minutes before it
 * expires. Replicas may
 * refresh at the same moment: the one whose store loses reads what the other stored. A refresh
 * token the vendor refuses is thrown as the VendorHttpError it is (kind 'invalid_grant'), for the
 * caller to mark the connection expired.
 */
import type { Executor } from '@parlance/platform/db/database';
import type { ConnectionRow } from '../db/connections.repository.js';
import { currentCredentials, replaceCredentials } from '../db/oauth.repository.js';
import { openCredential, sealCredential, type Keyring } from '../domain/credential-cipher.js';
import { needsRefresh, tokensOf, tokensText, type OAuthTokens } from '../domain/oauth.js';

export interface OAuthAccessDependencies {
  db: Executor;
  keyring: Keyring;
  /** The vendor's token endpoint: new tokens for a refresh token (the same refresh token kept when it gives none). */
  oauth: { refresh(refreshToken: string): Promise<OAuthTokens> };
  now?: () => Date;
}

/** The connection's access token, fresh whenever it is asked for. */
export function oauthAccessToken(deps: OAuthAccessDependencies, connection: Pick<ConnectionRow, 'id' | 'credentials'>): () => Promise<string> {
  const now = deps.now ?? (() => new Date());
  let sealed = connection.credentials;
  let tokens: OAuthTokens = tokensOf(openCredential(deps.keyring, sealed));
  let refreshing: Promise<void> | undefined;

  async function refresh(): Promise<void> {
    const fresh = await deps.oauth.refresh(tokens.refreshToken);
    const next = sealCredential(deps.keyring, tokensText(fresh));
    if (await replaceCredentials(deps.db, connection.id, sealed, next)) {
      sealed = next;
      tokens = fresh;
      return;
    }
    // Another refresh stored its tokens first: use those (the connection may also be gone).
    const stored = await currentCredentials(deps.db, connection.id);
    if (stored === undefined) throw new Error('the connection was removed while its token was refreshed');
    sealed = stored;
    tokens = tokensOf(openCredential(deps.keyring, stored));
  }

  return async () => {
    if (needsRefresh(tokens, now())) {
      refreshing ??= refresh().finally(() => (refreshing = undefined));
      await refreshing;
    }
    return tokens.accessToken;
  };
}
