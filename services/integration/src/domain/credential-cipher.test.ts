import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CredentialCipherError, openCredential, parseKeyring, sealCredential, sealedWithCurrentKey, type CredentialCipherFailure } from './credential-cipher.js';

const NEW_KEY = randomBytes(32).toString('base64');
const OLD_KEY = randomBytes(32).toString('base64');
const SECRET = '1//0gRefreshTokenThatMustNeverBeLogged-xyz';

/** Runs `action` and returns the CredentialCipherError it throws. */
function refusal(action: () => unknown): CredentialCipherError {
  try {
    action();
  } catch (error) {
    if (error instanceof CredentialCipherError) return error;
    throw error;
  }
  throw new Error('expected a CredentialCipherError');
}

function expectRefused(action: () => unknown, failure: CredentialCipherFailure, ...secrets: string[]): CredentialCipherError {
  const error = refusal(action);
  expect(error.failure).toBe(failure);
  for (const secret of secrets) expect(error.message).not.toContain(secret);
  return error;
}

/** The sealed value with one byte of its `index`th dot-separated part changed. */
function withFlippedByte(sealed: string, index: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[index]!, index < 2 ? 'ascii' : 'base64url');
  bytes[0] = bytes[0]! ^ 0x01;
  parts[index] = index < 2 ? bytes.toString('ascii') : bytes.toString('base64url');
  return parts.join('.');
}

describe('parseKeyring', () => {
  it('makes the first key the sealing one and keeps every id in order', () => {
    const keyring = parseKeyring(` 2026-11:${NEW_KEY} , 2026-01:${OLD_KEY} `);
    expect(keyring.currentKeyId).toBe('2026-11');
    expect(keyring.keyIds).toEqual(['2026-11', '2026-01']);
  });

  it('keeps the key bytes off the keyring object, so printing it shows only ids', () => {
    const keyring = parseKeyring(`2026-11:${NEW_KEY}`);
    expect(JSON.stringify(keyring)).toBe('{"currentKeyId":"2026-11","keyIds":["2026-11"]}');
    expect(JSON.stringify(keyring)).not.toContain(NEW_KEY);
  });

  it('refuses an empty keyring', () => {
    expectRefused(() => parseKeyring(''), 'empty-keyring');
    expectRefused(() => parseKeyring(' , '), 'empty-keyring');
  });

  it('refuses an entry without a key id', () => {
    expectRefused(() => parseKeyring(NEW_KEY), 'malformed-entry', NEW_KEY);
    expectRefused(() => parseKeyring(`:${NEW_KEY}`), 'malformed-entry', NEW_KEY);
  });

  it('refuses a key that is not 32 bytes after base64 decoding, without repeating it', () => {
    const short = randomBytes(31).toString('base64');
    const long = randomBytes(33).toString('base64');
    expect(expectRefused(() => parseKeyring(`a:${short}`), 'invalid-key', short).message).toContain('it is 31 after decoding');
    expectRefused(() => parseKeyring(`a:${long}`), 'invalid-key', long);
    expectRefused(() => parseKeyring(`a:${NEW_KEY.slice(0, 20)}*${NEW_KEY.slice(21)}`), 'invalid-key', NEW_KEY.slice(0, 20));
    expectRefused(() => parseKeyring('a:'), 'invalid-key');
  });

  it('refuses a key id used twice', () => {
    expect(expectRefused(() => parseKeyring(`k1:${NEW_KEY},k1:${OLD_KEY}`), 'duplicate-key-id', NEW_KEY, OLD_KEY).message).toContain('"k1"');
  });

  it('refuses key ids with characters other than letters, digits, _ and -', () => {
    for (const id of ['2026.11', 'key id', 'kéy', 'a/b']) expectRefused(() => parseKeyring(`${id}:${NEW_KEY}`), 'invalid-key-id', NEW_KEY);
  });
});

describe('sealCredential and openCredential', () => {
  const keyring = parseKeyring(`2026-11:${NEW_KEY}`);

  it('opens what it sealed, for any text', () => {
    for (const plaintext of [SECRET, '', 'ключ 🔑 with unicode', 'x'.repeat(10_000)]) {
      expect(openCredential(keyring, sealCredential(keyring, plaintext))).toBe(plaintext);
    }
  });

  it('writes one ASCII string v1.<keyId>.<iv>.<ciphertext>.<tag> that does not contain the secret', () => {
    const sealed = sealCredential(keyring, SECRET);
    expect(sealed).toMatch(/^v1\.2026-11\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(sealed).not.toContain(SECRET);
    expect(sealed).not.toContain(Buffer.from(SECRET).toString('base64url'));
  });

  it('draws a new IV for every seal, so the same secret never seals the same way twice', () => {
    const seals = new Set(Array.from({ length: 50 }, () => sealCredential(keyring, SECRET)));
    expect(seals.size).toBe(50);
  });

  it('detects a changed byte in the IV, the ciphertext and the tag', () => {
    const sealed = sealCredential(keyring, SECRET);
    for (const part of [2, 3, 4]) expectRefused(() => openCredential(keyring, withFlippedByte(sealed, part)), 'tampered', SECRET);
  });

  it('refuses a changed format version as an unknown format', () => {
    const sealed = sealCredential(keyring, SECRET);
    expectRefused(() => openCredential(keyring, withFlippedByte(sealed, 0)), 'unknown-format', SECRET);
  });

  it('binds the key id: a value moved under another id of the same key fails authentication', () => {
    const twins = parseKeyring(`k1:${NEW_KEY},k2:${NEW_KEY}`);
    const moved = sealCredential(twins, SECRET).replace(/^v1\.k1\./, 'v1.k2.');
    expectRefused(() => openCredential(twins, moved), 'tampered', SECRET);
  });

  it('refuses a value under a key id the ring does not hold, naming the ids but no key', () => {
    const sealed = sealCredential(parseKeyring(`2025-06:${OLD_KEY}`), SECRET);
    const error = expectRefused(() => openCredential(keyring, sealed), 'unknown-key-id', SECRET, NEW_KEY, OLD_KEY);
    expect(error.message).toContain('"2025-06"');
    expect(error.message).toContain('2026-11');
  });

  it('refuses values in an unknown format without repeating them, even a secret stored unsealed', () => {
    const sealed = sealCredential(keyring, SECRET);
    const [, , iv, ciphertext, tag] = sealed.split('.');
    const malformed = [
      SECRET,
      `ya29.${SECRET}`,
      '',
      `v2.2026-11.${iv}.${ciphertext}.${tag}`,
      `v1.2026-11.${iv}.${ciphertext}`,
      `${sealed}.extra`,
      `v1.2026 11.${iv}.${ciphertext}.${tag}`,
      `v1.2026-11.${iv}.${ciphertext}+.${tag}`,
      `v1.2026-11.${iv}AA.${ciphertext}.${tag}`,
      `v1.2026-11.${iv}.${ciphertext}.${tag!.slice(4)}`,
    ];
    for (const value of malformed) expectRefused(() => openCredential(keyring, value), 'unknown-format', SECRET, ciphertext!);
  });
});

describe('key rotation', () => {
  const before = parseKeyring(`2026-01:${OLD_KEY}`);
  const after = parseKeyring(`2026-11:${NEW_KEY},2026-01:${OLD_KEY}`);
  const withoutOld = parseKeyring(`2026-11:${NEW_KEY}`);

  it('opens a value sealed with the old key once a new key is put first, and asks for it to be sealed again', () => {
    const old = sealCredential(before, SECRET);
    expect(openCredential(after, old)).toBe(SECRET);
    expect(sealedWithCurrentKey(after, old)).toBe(false);
  });

  it('seals again with the new key, which the ring without the old key still opens', () => {
    const resealed = sealCredential(after, openCredential(after, sealCredential(before, SECRET)));
    expect(resealed.startsWith('v1.2026-11.')).toBe(true);
    expect(sealedWithCurrentKey(after, resealed)).toBe(true);
    expect(openCredential(withoutOld, resealed)).toBe(SECRET);
  });

  it('refuses an old value once its key is dropped', () => {
    expectRefused(() => openCredential(withoutOld, sealCredential(before, SECRET)), 'unknown-key-id', SECRET, OLD_KEY);
  });

  it('refuses to judge a value in an unknown format', () => {
    expectRefused(() => sealedWithCurrentKey(after, SECRET), 'unknown-format', SECRET);
  });
});
