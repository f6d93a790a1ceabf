import { describe, expect, it } from 'vitest';
import { isValidEmailAddress } from './mailer.js';

describe('isValidEmailAddress', () => {
  it.each(['ana@example.com', 'ana.lima+sales@example.co.uk', "o'brien@example.ie", 'x@a-b.example', 'UPPER@EXAMPLE.COM', 'no-reply@parlance.local'])(
    'accepts %j',
    (address) => expect(isValidEmailAddress(address)).toBe(true),
  );

  it.each([
    '',
    'plain',
    '@example.com',
    'ana@',
    'ana@example',
    'ana@@example.com',
    'ana@exa mple.com',
    ' ana@example.com',
    'ana.@example.com',
    '.ana@example.com',
    'a..b@example.com',
    'ana@-example.com',
    'ana@example-.com',
    'ana@example..com',
    'Ana <ana@example.com>',
    'ana@example.com,bea@example.com',
    'ana@example.com\nBcc: eve@example.com',
    `${'a'.repeat(65)}@example.com`,
    `ana@${'a'.repeat(64)}.com`,
    `ana@${Array.from({ length: 5 }, () => 'a'.repeat(60)).join('.')}.com`,
  ])('rejects %j', (address) => expect(isValidEmailAddress(address)).toBe(false));
});
