/**
 * A HubSpot connection's access token for its API calls: opened from the sealed credentials, and
 * refreshed (then sealed and stored again) from five minutes before it expires. Replicas may
 * refresh at the same moment: the one whose store loses reads what the other stored. A refresh
 * token HubSpot refuses is thrown as the VendorHttpError it is (kind 'invalid_grant'), for the
 * caller to mark the connection expired.
 */
import type { Executor } from '@parlance/platform/db/database';
import type { ConnectionRow } from '../db/connections.repository.js';
import { currentCredentials, replaceCredentials } from '../db/oauth.repository.js';
import { openCredential, sealCredential, type Keyring } from '../domain/credential-cipher.js';
import { needsRefresh, tokensOf, tokensText, type OAuthTokens } from '../domain/oauth.js';
import type { HubSpotOAuth } from './hubspot-client.js';

export interface HubSpotAccessDependencies {
  db: Executor;
  keyring: Keyring;
  oauth: Pick<HubSpotOAuth, 'refresh'>;
  now?: () => Date;
}

/** The connection's access token, fresh whenever it is asked for. */
export function hubspotAccessToken(deps: HubSpotAccessDependencies, connection: Pick<ConnectionRow, 'id' | 'credentials'>): () => Promise<string> {
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
