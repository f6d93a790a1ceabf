/**
 * Seals the secrets integrations hold (OAuth access and refresh tokens, API keys) before they are
 * stored, and opens them only to call the vendor. AES-256-GCM with a random 12-byte IV per seal;
 * the format version and the key id are authenticated with the ciphertext, so a value cannot be
 * moved to another key id or format without failing to open.
 *
 * A sealed value is one ASCII string, `v1.<keyId>.<iv>.<ciphertext>.<tag>` (parts in base64url).
 *
 * The keyring comes from one setting, `INTEGRATION_CREDENTIAL_KEYS="2026-11:<base64>,2026-01:<base64>"`:
 * each entry is a key id and 32 random bytes in base64. The first key seals; every key opens.
 *
 * Rotating the key:
 *  1. Make a new key (`openssl rand -base64 32`), put it first under a new id, keep the old one
 *     after it, and deploy: new values are sealed with the new key, old ones still open.
 *  2. Re-seal: for every stored value whose `sealedWithCurrentKey` is false, open it and seal it
 *     again, and store the result. The integration service does this itself when it starts
 *     (`resealCredentials`, db/connections.repository.ts), and logs how many it sealed again.
 *  3. Check that no stored value is left under the old key id (its values start `v1.<old id>.`).
 *  4. Remove the old key from the setting and deploy.
 * Random 96-bit IVs keep one key safe for up to 2^32 seals: rotate well before a key seals that many.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const FORMAT_VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

export type CredentialCipherFailure =
  | 'empty-keyring'
  | 'malformed-entry'
  | 'invalid-key-id'
  | 'invalid-key'
  | 'duplicate-key-id'
  | 'unknown-format'
  | 'unknown-key-id'
  | 'tampered';

/** Why a keyring or a sealed value was refused. Messages name key ids, never keys or secrets. */
export class CredentialCipherError extends Error {
  constructor(
    readonly failure: CredentialCipherFailure,
    message: string,
  ) {
    super(message);
    this.name = 'CredentialCipherError';
  }
}

/** The keys' ids, current (sealing) one first. The keys themselves are not on it: logging it shows only ids. */
export interface Keyring {
  readonly currentKeyId: string;
  readonly keyIds: readonly string[];
}

/** Each keyring's key bytes, out of the object so that no printing or serialising of it reaches them. */
const keysOf = new WeakMap<Keyring, ReadonlyMap<string, Buffer>>();

export function parseKeyring(text: string): Keyring {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) throw new CredentialCipherError('empty-keyring', 'The credential keyring is empty: give at least one <keyId>:<base64 key>.');

  const keys = new Map<string, Buffer>();
  entries.forEach((entry, index) => {
    const separator = entry.indexOf(':');
    if (separator <= 0) {
      throw new CredentialCipherError('malformed-entry', `Credential keyring entry ${index + 1} is not <keyId>:<base64 key>.`);
    }
    const id = entry.slice(0, separator).trim();
    const encoded = entry.slice(separator + 1).trim();
    if (!KEY_ID.test(id)) {
      throw new CredentialCipherError('invalid-key-id', `Credential keyring entry ${index + 1}: a key id may hold only letters, digits, _ and -.`);
    }
    if (keys.has(id)) throw new CredentialCipherError('duplicate-key-id', `The credential keyring has key id "${id}" twice.`);
    const key = BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
    if (key.length !== KEY_BYTES) {
      throw new CredentialCipherError('invalid-key', `Credential key "${id}" must be ${KEY_BYTES} bytes in base64; it is ${key.length} after decoding.`);
    }
    keys.set(id, key);
  });

  const keyIds = [...keys.keys()];
  const keyring: Keyring = Object.freeze({ currentKeyId: keyIds[0]!, keyIds: Object.freeze(keyIds) });
  keysOf.set(keyring, keys);
  return keyring;
}

export function sealCredential(keyring: Keyring, plaintext: string): string {
  const keyId = keyring.currentKeyId;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, keyOf(keyring, keyId), iv);
  cipher.setAAD(associatedData(keyId));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [FORMAT_VERSION, keyId, iv.toString('base64url'), ciphertext.toString('base64url'), tag.toString('base64url')].join('.');
}

export function openCredential(keyring: Keyring, sealed: string): string {
  const { keyId, iv, ciphertext, tag } = readSealed(sealed);
  const decipher = createDecipheriv(ALGORITHM, keyOf(keyring, keyId), iv);
  decipher.setAAD(associatedData(keyId));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new CredentialCipherError('tampered', `A credential sealed with key "${keyId}" failed authentication: it was altered, or sealed with another key under that id.`);
  }
}

/** False when the value was sealed with an older key of the ring and should be sealed again. */
export function sealedWithCurrentKey(keyring: Keyring, sealed: string): boolean {
  return readSealed(sealed).keyId === keyring.currentKeyId;
}

function keyOf(keyring: Keyring, keyId: string): Buffer {
  const key = keysOf.get(keyring)?.get(keyId);
  if (!key) {
    throw new CredentialCipherError('unknown-key-id', `Credential key "${keyId}" is not in the keyring (${keyring.keyIds.join(', ')}).`);
  }
  return key;
}

function associatedData(keyId: string): Buffer {
  return Buffer.from(`${FORMAT_VERSION}.${keyId}`, 'ascii');
}

interface SealedParts {
  keyId: string;
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

/** The sealed value's parts; the value itself never goes into the error, in case it is a secret stored unsealed. */
function readSealed(sealed: string): SealedParts {
  const unknownFormat = () =>
    new CredentialCipherError('unknown-format', `A stored credential is not in a known sealed format (expected ${FORMAT_VERSION}.<keyId>.<iv>.<ciphertext>.<tag>).`);
  const parts = sealed.split('.');
  if (parts.length !== 5) throw unknownFormat();
  const [version, keyId, ...encoded] = parts as [string, string, string, string, string];
  if (version !== FORMAT_VERSION || !KEY_ID.test(keyId) || !encoded.every((part) => BASE64URL.test(part))) throw unknownFormat();
  const [iv, ciphertext, tag] = encoded.map((part) => Buffer.from(part, 'base64url')) as [Buffer, Buffer, Buffer];
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw unknownFormat();
  return { keyId, iv, ciphertext, tag };
}
