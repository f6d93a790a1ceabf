/**
 * Account rules: e-mail normalisation and validation, names, and the payloads of sign-up, login
 * and profile update. Pure functions: no database, no clock, no I/O. Every rule throws a typed
 * DomainError whose message is shown to a person as is (spec part 1 §5 and §8 wording where the
 * spec gives one).
 */
import { invalidArgument, permissionDenied, unauthenticated } from '@parlance/platform/errors';
import { isValidEmailAddress } from '@parlance/platform/mail/mailer';
import { EMAIL_PATTERN } from '@parlance/platform/team/team-rules';
import { checkPasswordPolicy } from './passwords.js';

export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address';
export const LOGIN_FIELDS_REQUIRED_MESSAGE = 'Email and password are required.';
export const NO_PROFILE_CHANGES_MESSAGE = 'No changes made to the profile.';
/** One message for an unknown e-mail and a wrong password, so sign-in does not reveal who has an account. */
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password.';
export const EMAIL_NOT_VERIFIED_MESSAGE =
  'Please verify your email address before signing in. Check your inbox for the verification link.';
/** A verified person who was removed from their company and has not joined another. */
export const NO_COMPANY_MESSAGE = 'Your account is not a member of any company. Ask an admin of your company to invite you again.';

/** RFC 5321 limits a forward path to 256 octets, i.e. 254 characters of address. */
export const MAX_EMAIL_LENGTH = 254;
export const MAX_NAME_LENGTH = 100;

/**
 * Trims and lower-cases an e-mail address. Lower-casing the local part is not strictly RFC 5321,
 * but no mail provider our customers use treats it as case-sensitive, and one account per
 * person matters more than that corner of the RFC.
 */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The spec's pattern, and an address our mailer can actually send to (RFC 5321 sizes, no quoting). */
export function isValidEmail(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(email) && isValidEmailAddress(email);
}

/** Normalises and validates an e-mail; throws invalid-argument 'Please enter a valid email address'. */
export function parseEmail(input: unknown): string {
  const email = typeof input === 'string' ? normaliseEmail(input) : '';
  if (!isValidEmail(email)) throw invalidArgument(INVALID_EMAIL_MESSAGE, { field: 'email' });
  return email;
}

/** The part before the @, used by the password policy. */
export function emailLocalPart(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? email : email.slice(0, at);
}

export type NameField = 'firstName' | 'lastName';
const NAME_LABEL: Record<NameField, string> = { firstName: 'First name', lastName: 'Last name' };

// C0 and C1 control characters (new lines, tabs, NUL, …) have no place in a name, and names end
// up in e-mail headers and CSV exports.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** Trims a first or last name and checks it is 1 to 100 characters without control characters. */
export function parseName(input: unknown, field: NameField): string {
  const label = NAME_LABEL[field];
  const name = typeof input === 'string' ? input.trim() : '';
  if (name.length === 0) throw invalidArgument(`${label} is required.`, { field });
  if ([...name].length > MAX_NAME_LENGTH) {
    throw invalidArgument(`${label} must be at most ${MAX_NAME_LENGTH} characters.`, { field, max: MAX_NAME_LENGTH });
  }
  if (CONTROL_CHARACTERS.test(name)) throw invalidArgument(`${label} contains characters that are not allowed.`, { field });
  return name;
}

/**
 * A name that comes from an outside identity provider (Google, single sign-on) rather than a
 * form: made to fit the same rules instead of refused, since the person cannot fix it here.
 * Control characters become spaces, runs of space collapse, and it is cut to 100 characters.
 */
export function externalName(input: unknown): string {
  const text = typeof input === 'string' ? input : '';
  // eslint-disable-next-line no-control-regex
  const cleaned = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').replace(/\s+/g, ' ').trim();
  return [...cleaned].slice(0, MAX_NAME_LENGTH).join('').trim();
}

export interface SignupInput {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

/**
 * Validates a sign-up payload (spec §3: firstName, lastName, email, password) in that order and
 * throws the first problem as an invalid-argument error; returns the normalised payload.
 * The password is passed on untouched (never trimmed): spaces are legitimate password characters.
 */
export function parseSignup(input: Partial<Record<keyof SignupInput, unknown>>): SignupInput {
  const firstName = parseName(input.firstName, 'firstName');
  const lastName = parseName(input.lastName, 'lastName');
  const email = parseEmail(input.email);
  const password = typeof input.password === 'string' ? input.password : '';
  checkPasswordPolicy(password, { email, firstName, lastName });
  return { firstName, lastName, email, password };
}

export interface LoginInput {
  email: string;
  password: string;
}

/**
 * Login needs both fields ('Email and password are required.'). The e-mail format is not checked
 * here: a malformed address simply matches no account and gets the same answer as a wrong password.
 */
export function parseLogin(input: Partial<Record<keyof LoginInput, unknown>>): LoginInput {
  const email = typeof input.email === 'string' ? normaliseEmail(input.email) : '';
  const password = typeof input.password === 'string' ? input.password : '';
  if (email === '' || password === '') throw invalidArgument(LOGIN_FIELDS_REQUIRED_MESSAGE);
  return { email, password };
}

/**
 * Decides a sign-in once the account has been looked up and the password checked. The order
 * matters: "not verified" is only revealed to someone who knows the password, so the answer for
 * an unknown e-mail and a wrong password is the same.
 */
export function checkSignIn(account: { emailVerified: boolean } | null, passwordMatches: boolean): void {
  if (account === null || !passwordMatches) throw unauthenticated(INVALID_CREDENTIALS_MESSAGE);
  if (!account.emailVerified) throw permissionDenied(EMAIL_NOT_VERIFIED_MESSAGE, { reason: 'email-not-verified' });
}

export interface Profile {
  firstName: string;
  lastName: string;
}

/**
 * Plans a profile update (spec §7: PUT /settings/profile/update with firstName, lastName).
 * A field left out keeps its current value; the e-mail is read-only and not part of it.
 * Nothing changed → invalid-argument 'No changes made to the profile.'
 */
export function planProfileUpdate(current: Profile, input: Partial<Record<keyof Profile, unknown>>): Profile {
  const firstName = input.firstName === undefined ? current.firstName : parseName(input.firstName, 'firstName');
  const lastName = input.lastName === undefined ? current.lastName : parseName(input.lastName, 'lastName');
  if (firstName === current.firstName && lastName === current.lastName) {
    throw invalidArgument(NO_PROFILE_CHANGES_MESSAGE);
  }
  return { firstName, lastName };
}
