import { describe, expect, it } from 'vitest';
import { DomainError } from '@parlance/platform/errors';
import {
  externalName,
  EMAIL_NOT_VERIFIED_MESSAGE,
  INVALID_CREDENTIALS_MESSAGE,
  checkSignIn,
  emailLocalPart,
  isValidEmail,
  normaliseEmail,
  parseEmail,
  parseLogin,
  parseName,
  parseSignup,
  planProfileUpdate,
} from './accounts.js';

/** Runs `fn`, expects a DomainError, and returns it for closer checks. */
function thrown(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError, nothing was thrown');
}

describe('e-mail', () => {
  it('normalises by trimming and lower-casing', () => {
    expect(normaliseEmail('  Ada.Lovelace@Example.COM \n')).toBe('ada.lovelace@example.com');
  });

  it("accepts the spec's pattern: text, @, text, dot, text", () => {
    expect(isValidEmail('a@b.co')).toBe(true);
    expect(isValidEmail('first.last+tag@mail.example.org')).toBe(true);
  });

  it('rejects addresses without @, without a dot after it, with spaces or two @', () => {
    for (const bad of ['', 'ada', 'ada@example', '@example.com', 'ada@.', 'ada lovelace@example.com', 'a@b@c.com', 'ada@example.']) {
      expect(isValidEmail(bad), bad).toBe(false);
    }
  });

  it("parseEmail answers 'Please enter a valid email address' and returns the normalised address", () => {
    expect(parseEmail(' Ada@Example.com ')).toBe('ada@example.com');
    const error = thrown(() => parseEmail('ada@example'));
    expect(error).toMatchObject({ kind: 'invalid-argument', message: 'Please enter a valid email address', details: { field: 'email' } });
    expect(thrown(() => parseEmail(undefined)).message).toBe('Please enter a valid email address');
  });

  it('rejects addresses longer than 254 characters', () => {
    // Domain labels are at most 63 characters, so a long address is built from several.
    const label = 'b'.repeat(61);
    expect(isValidEmail(`${'a'.repeat(64)}@${label}.${label}.${label}.com`)).toBe(true);
    expect(isValidEmail(`${'a'.repeat(64)}@${label}b.${label}.${label}.com`)).toBe(false);
  });

  it('finds the local part', () => {
    expect(emailLocalPart('ada.lovelace@example.com')).toBe('ada.lovelace');
  });
});

describe('names', () => {
  it('trims and accepts 1 to 100 characters', () => {
    expect(parseName('  Ada ', 'firstName')).toBe('Ada');
    expect(parseName('X', 'lastName')).toBe('X');
    expect(parseName('é'.repeat(100), 'lastName')).toHaveLength(100);
  });

  it('requires a name that is not only white space', () => {
    expect(thrown(() => parseName('   ', 'firstName')).message).toBe('First name is required.');
    expect(thrown(() => parseName(undefined, 'lastName')).message).toBe('Last name is required.');
  });

  it('rejects names over 100 characters', () => {
    expect(thrown(() => parseName('a'.repeat(101), 'lastName')).message).toBe('Last name must be at most 100 characters.');
  });

  it('rejects control characters such as new lines', () => {
    expect(thrown(() => parseName('Ada\r\nBcc: x@evil.com', 'firstName')).message).toBe(
      'First name contains characters that are not allowed.',
    );
  });
});

describe('parseSignup', () => {
  const good = { firstName: ' Ada ', lastName: 'Lovelace', email: ' Ada@Example.com', password: 'Analytical Engine 1843' };

  it('returns the normalised payload and leaves the password untouched', () => {
    expect(parseSignup({ ...good, password: ' Kettle7Rain ' })).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      password: ' Kettle7Rain ',
    });
  });

  it('reports the first problem in field order: first name, last name, e-mail, password', () => {
    expect(thrown(() => parseSignup({})).message).toBe('First name is required.');
    expect(thrown(() => parseSignup({ ...good, lastName: '', email: 'bad' })).message).toBe('Last name is required.');
    expect(thrown(() => parseSignup({ ...good, email: 'bad', password: 'x' })).message).toBe('Please enter a valid email address');
    expect(thrown(() => parseSignup({ ...good, password: 'short' })).message).toBe('Password must be at least 10 characters long.');
  });

  it('applies the password policy with the person’s own e-mail and names', () => {
    expect(thrown(() => parseSignup({ ...good, password: 'Lovelace-2024' })).message).toBe(
      'Password must not contain your first or last name.',
    );
  });
});

describe('parseLogin', () => {
  it("requires both fields: 'Email and password are required.'", () => {
    for (const input of [{}, { email: 'a@b.co' }, { password: 'x' }, { email: '   ', password: 'x' }]) {
      expect(thrown(() => parseLogin(input))).toMatchObject({ kind: 'invalid-argument', message: 'Email and password are required.' });
    }
  });

  it('normalises the e-mail and keeps the password as typed', () => {
    expect(parseLogin({ email: ' Ada@Example.com', password: ' secret ' })).toEqual({ email: 'ada@example.com', password: ' secret ' });
  });
});

describe('checkSignIn', () => {
  it('gives the same answer for an unknown e-mail and a wrong password', () => {
    const unknown = thrown(() => checkSignIn(null, false));
    const wrong = thrown(() => checkSignIn({ emailVerified: true }, false));
    expect(unknown).toMatchObject({ kind: 'unauthenticated', message: INVALID_CREDENTIALS_MESSAGE });
    expect(wrong.message).toBe(unknown.message);
  });

  it('tells the right password holder to verify their e-mail first', () => {
    expect(thrown(() => checkSignIn({ emailVerified: false }, true))).toMatchObject({
      kind: 'permission-denied',
      message: EMAIL_NOT_VERIFIED_MESSAGE,
    });
  });

  it('does not reveal an unverified account to someone with the wrong password', () => {
    expect(thrown(() => checkSignIn({ emailVerified: false }, false)).message).toBe(INVALID_CREDENTIALS_MESSAGE);
  });

  it('lets a verified account with the right password in', () => {
    expect(() => checkSignIn({ emailVerified: true }, true)).not.toThrow();
  });
});

describe('planProfileUpdate', () => {
  const current = { firstName: 'Ada', lastName: 'Lovelace' };

  it('returns the trimmed new names', () => {
    expect(planProfileUpdate(current, { firstName: ' Augusta ', lastName: 'King' })).toEqual({ firstName: 'Augusta', lastName: 'King' });
  });

  it('keeps a field that was left out', () => {
    expect(planProfileUpdate(current, { lastName: 'King' })).toEqual({ firstName: 'Ada', lastName: 'King' });
  });

  it("answers 'No changes made to the profile.' when nothing changed, white space included", () => {
    expect(thrown(() => planProfileUpdate(current, { firstName: ' Ada ', lastName: 'Lovelace' }))).toMatchObject({
      kind: 'invalid-argument',
      message: 'No changes made to the profile.',
    });
    expect(thrown(() => planProfileUpdate(current, {})).message).toBe('No changes made to the profile.');
  });

  it('validates the names it is given', () => {
    expect(thrown(() => planProfileUpdate(current, { firstName: '' })).message).toBe('First name is required.');
  });
});

describe('externalName', () => {
  it('fits a provider’s name to our rules instead of refusing it', () => {
    expect(externalName('  Ada\n\tLovelace ')).toBe('Ada Lovelace');
    expect(externalName('x'.repeat(150))).toHaveLength(100);
    expect(externalName(undefined)).toBe('');
    expect(externalName('Zoë\u0000')).toBe('Zoë');
  });
});
