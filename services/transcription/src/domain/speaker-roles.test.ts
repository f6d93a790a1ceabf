import { describe, expect, it } from 'vitest';
import { assignRoles, personNameOf, roleNamedBy, type RoleInput } from './speaker-roles.js';

const rep = { email: 'ana.lopez@acme.test', name: 'Ana López' };
const input = (speakers: string[], segments: [string, string][] = [], representative: RoleInput['representative'] = rep, team?: RoleInput['team']): RoleInput => ({
  speakers,
  segments: segments.map(([speaker, text]) => ({ speaker, text })),
  representative,
  ...(team ? { team } : {}),
});

describe('roleNamedBy', () => {
  it.each([
    'Agent', 'AGENT', 'agent', 'Agent 2', 'Agent_1', 'Agent B', 'Agent Smith', 'Rep', 'Rep.', 'Representative', 'Sales Rep', 'Sales Representative',
    'Sales', 'Support', 'Support Team', 'Tech Support', 'Customer Service', 'Customer Service Agent', 'Customer Care', 'Acme Support',
    'Northwind Customer Care', 'Advisor', 'Recruiter', 'Interviewer', 'Hiring Manager', 'Speaker 1 (Agent)', 'Jane Doe - Agent', 'Agent / Jane',
  ])('puts %j on the company side', (label) => {
    expect(roleNamedBy(label)).toBe('representative');
  });

  it.each([
    'Customer', 'CUSTOMER', 'customer 2', 'Customer (Jane)', 'Customer Jane', 'Customer Jane Doe', 'Caller', 'Client', 'Client 2', 'Prospect',
    'Buyer', 'Contact', 'Visitor', 'Candidate', 'Applicant', 'Interviewee', 'Jane (Customer)', 'Speaker 2 - Caller',
  ])('puts %j on the contact side', (label) => {
    expect(roleNamedBy(label)).toBe('contact');
  });

  it.each([
    'Ana', 'Speaker 1', 'SPEAKER_00', 'Sales Manager', 'Support Manager', 'Customer Success Manager', 'Client Manager', 'Contact Centre Agent',
    'Account Executive', 'Travel Agent', 'Alex (Sales Manager)', 'Agent (Customer)', 'Agent Customer', 'Customer Support Manager', '',
  ])('reads no role in %j (names and job titles are no roles)', (label) => {
    expect(roleNamedBy(label)).toBeUndefined();
  });
});

describe('personNameOf', () => {
  it('reads the name apart from a title and bracketed notes', () => {
    expect(personNameOf('Dr. Ana López (Acme) [host]')).toEqual({ name: 'ana lopez', honorific: 'dr', notes: ['acme', 'host'] });
    expect(personNameOf('ALEX (Sales Manager)')).toEqual({ name: 'alex', honorific: '', notes: ['sales manager'] });
    expect(personNameOf('Mr')).toEqual({ name: 'mr', honorific: '', notes: [] });
  });
});

describe('assignRoles: by role labels', () => {
  it('makes the labelled agent the representative although the customer introduces themselves and the agent does not', () => {
    const roles = assignRoles(
      input(
        ['Agent', 'Customer'],
        [
          ['Agent', 'Celestar Air, one moment please.'],
          ['Customer', 'Hi, my name is Zain Romano, I am calling from Newark about my points. Thank you for holding for me.'],
          ['Agent', 'Sure.'],
        ],
      ),
    );
    expect(roles).toEqual({ Agent: 'representative', Customer: 'contact' });
  });

  it('keeps the labels when the customer speaks first and sounds like an agent', () => {
    const roles = assignRoles(input(['Customer', 'Rep'], [['Customer', 'Thank you for calling me back, how can I help you help me?'], ['Rep', 'Hello.']]));
    expect(roles).toEqual({ Customer: 'contact', Rep: 'representative' });
  });

  it('makes every agent a representative, as in a transferred call', () => {
    expect(assignRoles(input(['Agent 1', 'Customer', 'Agent 2']))).toEqual({ 'Agent 1': 'representative', Customer: 'contact', 'Agent 2': 'representative' });
  });

  it('lets a role label beat the representative’s first name', () => {
    expect(assignRoles(input(['Customer (Ana)', 'Agent']))).toEqual({ 'Customer (Ana)': 'contact', Agent: 'representative' });
    expect(assignRoles(input(['Ana', 'Agent']))).toEqual({ Ana: 'contact', Agent: 'representative' });
  });

  it('adds a speaker labelled with the representative’s full name to the labelled agents', () => {
    expect(assignRoles(input(['Agent', 'Ana López', 'Customer']))).toEqual({ Agent: 'representative', 'Ana López': 'representative', Customer: 'contact' });
  });

  it('chooses the representative among the speakers not labelled as contacts', () => {
    const roles = assignRoles(input(['Customer', 'Speaker 2'], [['Customer', 'Thank you for calling, how can I help?'], ['Speaker 2', 'Hello.']]));
    expect(roles).toEqual({ Customer: 'contact', 'Speaker 2': 'representative' });
  });

  it('names no representative when every label names a contact', () => {
    expect(assignRoles(input(['Customer'], [['Customer', 'Thank you for calling, this is Ana speaking.']]))).toEqual({ Customer: 'contact' });
    expect(assignRoles(input(['Caller 1', 'Caller 2']))).toEqual({ 'Caller 1': 'contact', 'Caller 2': 'contact' });
  });
});

describe('assignRoles: by the team’s names', () => {
  const team = [
    { email: 'ana.lopez@acme.test', name: 'Ana López' },
    { email: 'ben.stone@acme.test', name: 'Ben Stone' },
    { email: 'chris@acme.test', name: 'Chris Park' },
  ];

  it('puts colleagues named in full, or by a two-word e-mail local part, on the company side', () => {
    expect(assignRoles(input(['Ana López', 'Ben Stone', 'Carla Diaz'], [], rep, team))).toEqual({ 'Ana López': 'representative', 'Ben Stone': 'representative', 'Carla Diaz': 'contact' });
    expect(assignRoles(input(['Carla Diaz', 'ben.stone', 'CHRIS PARK (Acme)'], [], rep, team))).toEqual({ 'Carla Diaz': 'contact', 'ben.stone': 'representative', 'CHRIS PARK (Acme)': 'representative' });
  });

  it('does not take a colleague’s first name, which a customer may share, for them', () => {
    const roles = assignRoles(input(['Ben', 'Carla'], [['Ben', 'Hi, I have a question about my bill.'], ['Carla', 'Thank you for calling Acme, how can I help?']], { email: 'dana@acme.test' }, team));
    expect(roles).toEqual({ Ben: 'contact', Carla: 'representative' });
  });

  it('knows the representative’s full name from the team when the upload gives their first name only', () => {
    const representative = { email: 'al@acme.test', name: 'Ana' };
    expect(assignRoles(input(['Ana', 'Ana Lopez'], [], representative))).toEqual({ Ana: 'representative', 'Ana Lopez': 'contact' });
    expect(assignRoles(input(['Ana', 'Ana Lopez'], [], representative, [{ email: 'al@acme.test', name: 'Ana López' }]))).toEqual({
      Ana: 'contact',
      'Ana Lopez': 'representative',
    });
  });
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

  it('ignores a company in brackets after the name, and a title before it', () => {
    expect(assignRoles(input(['Bob (Globex)', 'Ana López (Acme)']))['Ana López (Acme)']).toBe('representative');
    expect(assignRoles(input(['Bob', 'Dr. Ana Lopez']))['Dr. Ana Lopez']).toBe('representative');
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
    ['Hi, this is Ana from Fabrikam, calling about your demo request.'],
    ['Good morning, you are speaking with Sarah. What can I do for you?'],
    ["Welcome to Tailspin deliveries, my name is Hannah."],
    ["Hi, I'm calling from Contoso about your renewal."],
    ['Ana speaking.'],
    ['Lopez speaking.'],
  ])('recognises an agent saying %j', (line) => {
    const roles = assignRoles(input(['Speaker 1', 'Speaker 2'], [['Speaker 1', 'Yes?'], ['Speaker 2', line]]));
    expect(roles['Speaker 2']).toBe('representative');
  });

  it.each([['Hi, this is Mei from Coho Winery, I have a question about my order.'], ['My name is Mei, I ordered last week.'], ['Mei speaking.']])(
    'does not take a caller who introduces themselves by another name (%j) for the representative',
    (line) => {
      const roles = assignRoles(input(['Speaker 1', 'Speaker 2'], [['Speaker 1', 'Go ahead.'], ['Speaker 2', line]]));
      expect(roles).toEqual({ 'Speaker 1': 'representative', 'Speaker 2': 'contact' });
    },
  );

  it('counts an introduction by any name when the upload names no representative', () => {
    for (const name of [undefined, 'N/A']) {
      const representative = { email: 'sales@acme.test', ...(name ? { name } : {}) };
      const roles = assignRoles(input(['Speaker 1', 'Speaker 2'], [['Speaker 1', 'Yes?'], ['Speaker 2', 'Hi, this is Lucas from Fabrikam.']], representative));
      expect(roles['Speaker 2']).toBe('representative');
    }
  });

  it('prefers the speaker who introduces themselves as the representative to one who gives another name', () => {
    const roles = assignRoles(
      input(
        ['Speaker 1', 'Speaker 2'],
        [
          ['Speaker 1', 'Hi, this is Mei from Coho Winery.'],
          ['Speaker 2', 'Hello Mei, this is Ana with Acme.'],
        ],
      ),
    );
    expect(roles).toEqual({ 'Speaker 1': 'contact', 'Speaker 2': 'representative' });
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
