import { describe, expect, it } from 'vitest';
import { hash } from '@node-rs/argon2';
import { DomainError } from '@parlance/platform/errors';
import {
  ARGON2_PARAMS,
  PASSWORD_MESSAGES,
  checkPasswordPolicy,
  hashPassword,
  needsRehash,
  passwordProblem,
  verifyPassword,
} from './passwords.js';

const owner = { email: 'ada.lovelace@example.com', firstName: 'Ada', lastName: 'Lovelace' };

describe('hashPassword and verifyPassword', () => {
  it('hashes with argon2id at the OWASP parameters (m=19456, t=2, p=1)', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('salts every hash, so the same password never gives the same hash', async () => {
    expect(await hashPassword('same password 1')).not.toBe(await hashPassword('same password 1'));
  });

  it('verifies the right password and rejects a wrong one', async () => {
    const stored = await hashPassword('Tr0ub4dor&3xyz');
    expect(await verifyPassword(stored, 'Tr0ub4dor&3xyz')).toBe(true);
    expect(await verifyPassword(stored, 'tr0ub4dor&3xyz')).toBe(false);
    expect(await verifyPassword(stored, '')).toBe(false);
  });

  it('treats a malformed stored hash as a non-match instead of throwing', async () => {
    await expect(verifyPassword('not-a-hash', 'whatever12')).resolves.toBe(false);
  });

  it('matches a password typed in another Unicode normal form (NFKC on both paths)', async () => {
    const composed = 'caf\u00e9 au lait 42';
    const decomposed = 'cafe\u0301 au lait 42';
    expect(await verifyPassword(await hashPassword(composed), decomposed)).toBe(true);
  });
});

describe('needsRehash', () => {
  it('is false for a hash made with the current parameters', async () => {
    expect(needsRehash(await hashPassword('a fine password'))).toBe(false);
  });

  it('is true for a hash made with weaker parameters', async () => {
    const weak = await hash('a fine password', { ...ARGON2_PARAMS, memoryCost: 4096, timeCost: 1 });
    expect(needsRehash(weak)).toBe(true);
  });

  it('is true for argon2i and for something that is not an argon2 hash', async () => {
    const argon2i = await hash('a fine password', { ...ARGON2_PARAMS, algorithm: 1 as never });
    expect(needsRehash(argon2i)).toBe(true);
    expect(needsRehash('$2b$10$abcdefghijklmnopqrstuv')).toBe(true);
  });
});

describe('password policy', () => {
  const problem = (password: string) => passwordProblem(password, owner);

  it('accepts a mixed password of 10 characters and a plain passphrase of 16+', () => {
    expect(problem('Kettle7Rain')).toBeNull();
    expect(problem('purple monkey dishwasher')).toBeNull();
  });

  it('requires a password', () => {
    expect(problem('')).toBe(PASSWORD_MESSAGES.required);
  });

  it('rejects fewer than 10 characters, counting characters rather than bytes', () => {
    expect(problem('Kettle7Ra')).toBe('Password must be at least 10 characters long.');
    expect(problem('😀😀😀😀😀a1b2c')).toBeNull();
    expect(problem('😀😀😀😀a1b2c')).toBe(PASSWORD_MESSAGES.tooShort);
  });

  it('rejects more than 128 characters and accepts exactly 128', () => {
    expect(problem('aB3'.repeat(43))).toBe('Password must be at most 128 characters long.');
    expect(problem('aB3'.repeat(42) + 'xy')).toBeNull();
  });

  it('rejects a single repeated character', () => {
    expect(problem('aaaaaaaaaaaaaaaaaaaa')).toBe(PASSWORD_MESSAGES.repeated);
  });

  it('rejects a short password of one kind of character but allows it from 16 characters', () => {
    expect(problem('qwertyuiopz')).toBe(PASSWORD_MESSAGES.notMixed);
    expect(problem('1234567890')).toBe(PASSWORD_MESSAGES.notMixed);
    expect(problem('QWERTYUIOPZX')).toBe(PASSWORD_MESSAGES.notMixed);
    expect(problem('correcthorsebatt')).toBeNull();
  });

  it('rejects a password containing the e-mail local part, whatever its case', () => {
    expect(problem('Ada.Lovelace99')).toBe('Password must not contain your email address.');
  });

  it('rejects a password containing the first or last name when the name has 4+ characters', () => {
    expect(problem('xLOVELACEx12')).toBe(PASSWORD_MESSAGES.containsName);
    expect(passwordProblem('Bobby-tables-7', { email: 'x@example.com', firstName: 'Bobby' })).toBe(PASSWORD_MESSAGES.containsName);
    // Shorter names would forbid too much: "Ada" is not a reason to refuse "Adamant".
    expect(problem('Adamant-Rock-9')).toBeNull();
    expect(passwordProblem('Always-Sunny-9', { email: 'al@example.com', firstName: 'Al' })).toBeNull();
  });

  it('rejects well-known breached passwords', () => {
    expect(problem('Password123')).toBe(PASSWORD_MESSAGES.common);
    expect(problem('1q2w3e4r5t')).toBe(PASSWORD_MESSAGES.common);
  });

  it('checkPasswordPolicy throws invalid-argument naming the password field', () => {
    try {
      checkPasswordPolicy('short', owner);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ kind: 'invalid-argument', message: PASSWORD_MESSAGES.tooShort, details: { field: 'password' } });
    }
    expect(() => checkPasswordPolicy('Kettle7Rain', owner)).not.toThrow();
  });
});
