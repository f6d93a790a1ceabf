import { describe, expect, it } from 'vitest';
import { assignRoles, type RoleInput } from './speaker-roles.js';

const rep = { email: 'ana.lopez@acme.test', name: 'Ana López' };
const input = (speakers: string[], segments: [string, string][] = [], representative: RoleInput['representative'] = rep): RoleInput => ({
  speakers,
  segments: segments.map(([speaker, text]) => ({ speaker, text })),
  representative,
});

describe('assignRoles: by name', () => {
  it('picks the speaker labelled with the full name, without regard to case or accents', () => {
    expect(assignRoles(input(['Bob Stone', 'ANA LOPEZ']))).toEqual({ 'Bob Stone': 'contact', 'ANA LOPEZ': 'representative' });
  });

  it('picks the speaker labelled with the first name', () => {
    expect(assignRoles(input(['Customer', 'Ana']))).toEqual({ Customer: 'contact', Ana: 'representative' });
  });

  it('picks the speaker labelled with the e-mail local part, whole or its first part', () => {
    expect(assignRoles(input(['Bob', 'ana.lopez'], [], { email: 'ana.lopez@acme.test' }))).toEqual({ Bob: 'contact', 'ana.lopez': 'representative' });
    expect(assignRoles(input(['Bob', 'Ana'], [], { email: 'ana.lopez@acme.test' }))).toEqual({ Bob: 'contact', Ana: 'representative' });
    expect(assignRoles(input(['Bob', 'jdoe'], [], { email: 'JDoe@acme.test' }))).toEqual({ Bob: 'contact', jdoe: 'representative' });
  });

  it('ignores a company in brackets after the name', () => {
    expect(assignRoles(input(['Bob (Globex)', 'Ana López (Acme)']))['Ana López (Acme)']).toBe('representative');
  });

  it('prefers a full-name match to a first-name match, and the earlier speaker among equals', () => {
    expect(assignRoles(input(['Ana', 'Ana Lopez']))).toEqual({ Ana: 'contact', 'Ana Lopez': 'representative' });
    expect(assignRoles(input(['Ana', 'ana']))).toEqual({ Ana: 'representative', ana: 'contact' });
  });

  it('beats the opening lines', () => {
    const roles = assignRoles(input(['Bob', 'Ana'], [['Bob', 'Thank you for calling Globex, how can I help?'], ['Ana', 'Hi, I have a question.']]));
    expect(roles).toEqual({ Bob: 'contact', Ana: 'representative' });
  });

  it('does not match part of a name inside another', () => {
    expect(assignRoles(input(['Anabel', 'Speaker 2']))).toEqual({ Anabel: 'representative', 'Speaker 2': 'contact' });
    expect(assignRoles(input(['Speaker 1', 'Anabel']))).toEqual({ 'Speaker 1': 'representative', Anabel: 'contact' });
  });
});

describe('assignRoles: by opening lines', () => {
  it('picks the speaker who answers like an agent, even when the customer speaks first', () => {
    const roles = assignRoles(
      input(
        ['Speaker 1', 'Speaker 2'],
        [
          ['Speaker 1', 'Hello?'],
          ['Speaker 2', 'Thank you for calling Northwind support, this is Daniel speaking. How can I help you today?'],
          ['Speaker 1', 'My internet keeps dropping.'],
        ],
      ),
    );
    expect(roles).toEqual({ 'Speaker 1': 'contact', 'Speaker 2': 'representative' });
  });

  it.each([
    ['Hi, this is Lucas from Fabrikam, calling about your demo request.'],
    ['Good morning, you are speaking with Sarah. What can I do for you?'],
    ["Welcome to Tailspin deliveries, my name is Hannah."],
    ["Hi, I'm calling from Contoso about your renewal."],
    ['Daniel speaking.'],
  ])('recognises an agent saying %j', (line) => {
    const roles = assignRoles(input(['Speaker 1', 'Speaker 2'], [['Speaker 1', 'Yes?'], ['Speaker 2', line]]));
    expect(roles['Speaker 2']).toBe('representative');
  });

  it('weighs service phrases above introductions a customer may also make', () => {
    const roles = assignRoles(
      input(
        ['Speaker 1', 'Speaker 2'],
        [
          ['Speaker 1', 'Hi, my name is Maria.'],
          ['Speaker 2', 'Thanks for calling, how may I help?'],
        ],
      ),
    );
    expect(roles['Speaker 2']).toBe('representative');
  });

  it('does not take "I was speaking to" for an introduction', () => {
    const roles = assignRoles(
      input(
        ['Speaker 1', 'Speaker 2'],
        [
          ['Speaker 1', 'Hello.'],
          ['Speaker 2', 'I was speaking to your colleague yesterday.'],
        ],
      ),
    );
    expect(roles['Speaker 1']).toBe('representative');
  });

  it('only reads the opening lines of each speaker', () => {
    const roles = assignRoles(
      input(
        ['Speaker 1', 'Speaker 2'],
        [
          ['Speaker 1', 'Hi.'],
          ['Speaker 2', 'Hello.'],
          ['Speaker 2', 'Yes.'],
          ['Speaker 2', 'Okay.'],
          ['Speaker 2', 'Thank you for calling, how can I help you?'],
        ],
      ),
    );
    expect(roles['Speaker 1']).toBe('representative');
  });
});

describe('assignRoles: fallback and shape', () => {
  it('makes the first speaker the representative when nothing else decides', () => {
    expect(assignRoles(input(['Speaker 1', 'Speaker 2', 'Speaker 3'], [['Speaker 2', 'Hello.']]))).toEqual({
      'Speaker 1': 'representative',
      'Speaker 2': 'contact',
      'Speaker 3': 'contact',
    });
  });

  it('gives no roles when there are no speakers', () => {
    expect(assignRoles(input([]))).toEqual({});
  });

  it('makes a lone speaker the representative', () => {
    expect(assignRoles(input(['Speaker 1']))).toEqual({ 'Speaker 1': 'representative' });
  });

  it('adds speakers found only in the segments as contacts', () => {
    expect(assignRoles(input(['Ana'], [['Ana', 'Hi.'], ['Bob', 'Hello.']]))).toEqual({ Ana: 'representative', Bob: 'contact' });
  });

  it('always names exactly one representative', () => {
    const roles = assignRoles(input(['Ana', 'Ana López', 'ana'], [['Ana', 'Thank you for calling.'], ['ana', 'Welcome to Acme, how can I help?']]));
    expect(Object.values(roles).filter((role) => role === 'representative')).toHaveLength(1);
  });
});
