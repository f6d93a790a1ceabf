/**
 * Which speakers of a call are the company's representatives and which are contacts. What the
 * labels say comes first, and nothing said in the conversation ever overrules a label:
 * 1. Roles. A label that names a role in a conversation puts its speaker on that side: the
 *    company's ("Agent", "Rep", "Representative", "Sales Rep", "Support", "Customer Service",
 *    "Recruiter", "Interviewer", …) or the contact's ("Customer", "Caller", "Client", "Prospect",
 *    "Candidate", "Applicant", …), in any case, with a number or a name ("Agent 2", "Agent Smith",
 *    "Customer (Jane)", "Speaker 1 - Agent"), or after a company's name ("Acme Support"). Job
 *    titles ("Sales Manager", "Account Executive") decide nothing: either side has them.
 * 2. Full names, among the speakers not labelled as contacts: a label that is the full name of the
 *    representative or of another member of their team, or the local part of their e-mail address
 *    when it has two or more words ("ana.lopez@…" gives "ana lopez"). Names are compared without
 *    case, accents, punctuation, a title or a bracketed note ("Dr. Ana López (Acme)"); the earliest
 *    speaker labelled with the representative's name is theirs, every colleague's label counts.
 * Everyone rules 1 and 2 put on the company's side is a representative (both agents of a
 * transferred call are), everyone else a contact. When they put nobody there, one representative
 * is chosen among the speakers not labelled as contacts:
 * 3. First name. A label that is the representative's first name, or a one-word name or e-mail
 *    local part of theirs ("Ana", "jdoe"). A first name alone is too common to outweigh a role or
 *    to tell a colleague from a customer, so it comes only now, and only for the representative.
 * 4. Opening lines. The speaker whose first lines sound like an agent: "thank you for calling",
 *    "welcome to", "how can I help", "you're speaking with", "this is <name> from", "my name is
 *    <name>", "calling from", "<name> speaking". Each phrase scores (the service phrases twice the
 *    introductions, which a customer may also say); the highest score wins, the earlier speaker on a
 *    tie. An introduction that names someone is weighed by whom it names, when the upload says who
 *    the representative is: their own name scores as much as a service phrase, another name
 *    nothing (a caller saying "this is Mei from Coho" introduces the caller).
 * 5. Otherwise the first of them (on an inbound call the agent answers; on an outbound call the
 *    agent opens).
 * So there is a representative whenever a speaker is not labelled a contact, and none when every
 * label names a contact. Speakers who appear only in the segments are added after the listed ones.
 */

export type SpeakerRoleName = 'representative' | 'contact';

export interface RoleInput {
  /** Speaker labels in the order they first speak. */
  speakers: string[];
  segments: { speaker: string; text: string }[];
  representative: { email: string; name?: string };
  /** The members of the representative's team (the representative may be among them); `name` is "First Last". */
  team?: { email: string; name: string }[];
}

/** How much of each speaker's speech counts as their opening lines. */
export const OPENING = { segments: 3, words: 80 } as const;

const SERVICE_PHRASES = [
  /\bthanks? (?:you )?for (?:calling|contacting|holding)\b/,
  /\bwelcome to\b/,
  /\bhow (?:can|may|could) (?:i|we) (?:help|assist)\b/,
  /\bwhat can i do for you\b/,
  /\byou(?:re| are) (?:speaking|through) (?:with|to)\b/,
];
/** "Daniel speaking", but not "I was speaking to…". */
const SPEAKING = /\b(?!(?:am|are|be|been|is|im|not|was|were|youre)\b)(\w+) speaking\b(?! (?:about|for|of|to|with)\b)/;
/** Introductions that name the speaker: the first group is the (first) name. */
const NAMING_INTRODUCTIONS = [/\bthis is (\w+)(?: \w+)? (?:from|with|at)\b/, /\bmy name is (\w+)/, SPEAKING];
/** Introductions that name no one. */
const PLAIN_INTRODUCTIONS = [/\bcalling (?:from|on behalf of)\b/];

/**
 * Roles people write as speaker labels in sales, support and hiring conversations, as lower-case
 * words. A role whose last word names a person ("agent", "customer") may be followed by their name
 * ("Agent Smith"); the others ("support", "customer service") only by a number or another role of
 * their side ("Customer Service Agent").
 */
const REPRESENTATIVE_ROLES = [
  'agent', 'rep', 'representative', 'advisor', 'adviser', 'operator', 'supervisor', 'csr',
  'sales', 'sales rep', 'sales representative', 'sales agent', 'salesperson', 'seller',
  'support', 'support agent', 'support rep', 'support representative', 'tech support', 'technical support',
  'customer service', 'customer support', 'customer care', 'customer success', 'client service', 'client services',
  'help desk', 'helpdesk', 'service desk', 'recruiter', 'interviewer', 'hiring manager',
];
const CONTACT_ROLES = ['customer', 'caller', 'client', 'prospect', 'buyer', 'contact', 'visitor', 'candidate', 'applicant', 'interviewee'];
const NAME_TAKING_ROLES = new Set([
  'agent', 'rep', 'representative', 'advisor', 'adviser', 'operator', 'supervisor', 'seller', 'salesperson',
  'recruiter', 'interviewer', 'customer', 'caller', 'client', 'prospect', 'buyer', 'contact', 'visitor', 'candidate', 'applicant', 'interviewee',
]);
/** A company's team after its name ("Acme Support", "Northwind Customer Care"). */
const TEAM_SUFFIXES = ['sales', 'support', 'customer service', 'customer support', 'customer care', 'help desk', 'helpdesk', 'service desk'];
/** Words a role is followed by that add nothing ("Support Team"). */
const ROLE_FILLERS = new Set(['team', 'desk', 'line']);
/** Words of job titles and departments, never of a name: "Client Manager" and "Contact Centre Agent" name no contact. */
const TITLE_WORDS = new Set([
  'account', 'accounts', 'care', 'center', 'centre', 'coordinator', 'department', 'director', 'executive', 'experience', 'head',
  'lead', 'manager', 'officer', 'relations', 'service', 'services', 'specialist', 'success', 'support',
]);
/** Most words a name after a role may have ("Agent Mary Jane Watson"). */
const NAME_AFTER_ROLE_MAX_WORDS = 3;

interface RolePhrase {
  words: string[];
  side: SpeakerRoleName;
}

// Longest first, so "customer service" is read before "customer".
const ROLE_PHRASES: RolePhrase[] = [
  ...REPRESENTATIVE_ROLES.map((phrase) => ({ words: phrase.split(' '), side: 'representative' as const })),
  ...CONTACT_ROLES.map((phrase) => ({ words: phrase.split(' '), side: 'contact' as const })),
].sort((a, b) => b.words.length - a.words.length);
const ROLE_WORDS = new Set(ROLE_PHRASES.flatMap((phrase) => phrase.words));

/** Brackets and the marks that set a role apart from a name: "Agent (Jane)", "Jane - Customer", "Agent / Jane". */
const LABEL_PART_SEPARATORS = /[()[\]{}<>|/\\,;:]+|\s[-–—]+\s|[–—]/u;

export function assignRoles(input: RoleInput): Record<string, SpeakerRoleName> {
  const speakers = [...new Set([...input.speakers, ...input.segments.map((segment) => segment.speaker)])];
  const roles: Record<string, SpeakerRoleName> = {};
  if (speakers.length === 0) return roles;

  const labelled = new Map(speakers.map((speaker) => [speaker, roleNamedBy(speaker)]));
  const notContacts = speakers.filter((speaker) => labelled.get(speaker) !== 'contact');
  const representative = representativeByName(notContacts, input);
  const representatives = new Set([
    ...speakers.filter((speaker) => labelled.get(speaker) === 'representative'),
    ...(representative?.by === 'full name' ? [representative.speaker] : []),
    ...colleaguesByName(notContacts, input),
  ]);
  // A first name is weaker than a role or a full name: it decides only when they decide nothing.
  if (representatives.size === 0 && representative) representatives.add(representative.speaker);
  if (representatives.size === 0 && notContacts.length > 0) {
    representatives.add(byOpeningLines(notContacts, input.segments, representativeNamesOf(input.representative)) ?? notContacts[0]!);
  }
  for (const speaker of speakers) roles[speaker] = representatives.has(speaker) ? 'representative' : 'contact';
  return roles;
}

/**
 * The side a speaker label names, if it names one. The label is read in parts (what is in
 * brackets, or set apart by a dash, slash or comma, is a part of its own); parts that name
 * opposite sides cancel out.
 */
export function roleNamedBy(label: string): SpeakerRoleName | undefined {
  const sides = new Set(
    label
      .split(LABEL_PART_SEPARATORS)
      .map((part) => sideOfPart(words(part)))
      .filter((side): side is SpeakerRoleName => side !== undefined),
  );
  return sides.size === 1 ? [...sides][0] : undefined;
}

function sideOfPart(partWords: readonly string[]): SpeakerRoleName | undefined {
  if (partWords.length === 0) return undefined;
  const leading = leadingRole(partWords);
  if (leading) return followsRole(leading, partWords.slice(leading.words.length)) ? leading.side : undefined;
  const suffix = TEAM_SUFFIXES.map((phrase) => phrase.split(' ')).find((phrase) => phrase.length < partWords.length && endsWith(partWords, phrase));
  return suffix ? 'representative' : undefined;
}

function leadingRole(partWords: readonly string[]): RolePhrase | undefined {
  return ROLE_PHRASES.find((phrase) => phrase.words.every((word, index) => partWords[index] === word));
}

/** What may follow a role: nothing, numbers or letters ("Agent 2", "Agent B"), more of its side's roles, or (after a person's role) a name. */
function followsRole(role: RolePhrase, rest: readonly string[]): boolean {
  const meaningful = rest.filter((word) => !ROLE_FILLERS.has(word));
  if (meaningful.every((word) => /^(?:\d+|\p{L})$/u.test(word))) return true;
  const next = leadingRole(meaningful);
  if (next) return next.side === role.side && followsRole(next, meaningful.slice(next.words.length));
  const isName = meaningful.length <= NAME_AFTER_ROLE_MAX_WORDS && meaningful.every((word) => !TITLE_WORDS.has(word) && !ROLE_WORDS.has(word));
  return isName && NAME_TAKING_ROLES.has(role.words.at(-1) ?? '');
}

function endsWith(partWords: readonly string[], phrase: readonly string[]): boolean {
  return phrase.every((word, index) => partWords[partWords.length - phrase.length + index] === word);
}

/**
 * The speaker the representative's name labels. Two or more words (a full name, "ana.lopez") make a
 * full-name match; one word ("Ana", "jdoe") only a first-name match, also when the upload named
 * the representative by their first name alone.
 */
function representativeByName(speakers: string[], input: RoleInput): { speaker: string; by: 'full name' | 'first name' } | undefined {
  const email = input.representative.email.toLowerCase();
  const names = [input.representative.name ?? '', ...(input.team ?? []).filter((member) => member.email.toLowerCase() === email).map((member) => member.name)];
  const whole = [...names.map(words), words(email.split('@')[0] ?? '')].filter((candidate) => candidate.length > 0);
  const full = new Set(whole.filter((candidate) => candidate.length > 1).map((candidate) => candidate.join(' ')));
  const first = new Set(whole.map((candidate) => candidate[0]!));
  const labels = speakers.map((speaker) => ({ speaker, label: nameOf(speaker) }));
  const byFullName = labels.find(({ label }) => full.has(label))?.speaker;
  if (byFullName) return { speaker: byFullName, by: 'full name' };
  const byFirstName = labels.find(({ label }) => first.has(label))?.speaker;
  return byFirstName ? { speaker: byFirstName, by: 'first name' } : undefined;
}

/** Speakers labelled with the full name (two or more words) of another member of the team, or their e-mail's local part ("ben.stone"). */
function colleaguesByName(speakers: string[], input: RoleInput): string[] {
  const email = input.representative.email.toLowerCase();
  const colleagues = (input.team ?? []).filter((member) => member.email.toLowerCase() !== email);
  const known = new Set(
    colleagues
      .flatMap((member) => [words(member.name), words(member.email.split('@')[0] ?? '')])
      .flatMap((candidate) => (candidate.length > 1 ? [candidate.join(' ')] : [])),
  );
  return speakers.filter((speaker) => known.has(nameOf(speaker)));
}

/** Titles written before a name, which do not change whom it names ("Dr. Ana Lopez" is Ana Lopez). */
const HONORIFICS = new Set(['dr', 'mr', 'mrs', 'ms', 'miss', 'mx', 'prof', 'sir']);
const BRACKETED = /\(([^)]*)\)|\[([^\]]*)\]/gu;

/** A speaker label read as a person's name, each part lower-case and without accents or punctuation. */
export interface PersonName {
  /** "Dr. Ana López (Acme)" → "ana lopez". */
  name: string;
  /** "dr"; empty when there is none. */
  honorific: string;
  /** What brackets hold: "Alex (Sales Manager)" → ["sales manager"]. */
  notes: string[];
}

export function personNameOf(label: string): PersonName {
  const notes = [...label.matchAll(BRACKETED)].map((match) => words(match[1] ?? match[2] ?? '').join(' ')).filter((note) => note !== '');
  const nameWords = words(label.replace(BRACKETED, ' '));
  const hasHonorific = nameWords.length > 1 && HONORIFICS.has(nameWords[0]!);
  return { name: (hasHonorific ? nameWords.slice(1) : nameWords).join(' '), honorific: hasHonorific ? nameWords[0]! : '', notes };
}

/** A label as a name to compare: "Dr. Ana López (Acme)" → "ana lopez". */
function nameOf(label: string): string {
  return personNameOf(label).name;
}

function byOpeningLines(speakers: string[], segments: RoleInput['segments'], representativeNames: ReadonlySet<string> | undefined): string | undefined {
  let best: { speaker: string; score: number } | undefined;
  for (const speaker of speakers) {
    const score = agentScore(openingLines(speaker, segments), representativeNames);
    if (score > 0 && (!best || score > best.score)) best = { speaker, score };
  }
  return best?.speaker;
}

function openingLines(speaker: string, segments: RoleInput['segments']): string {
  const lines = segments.filter((segment) => segment.speaker === speaker).slice(0, OPENING.segments);
  return words(lines.map((segment) => segment.text).join(' '))
    .slice(0, OPENING.words)
    .join(' ');
}

/**
 * What the representative may introduce themselves as: the words of the name the upload gave, and
 * of their e-mail's local part when it holds a name ("ana.lopez"); undefined when the upload named
 * no one ("N/A"), and then every introduction counts alike.
 */
function representativeNamesOf(representative: RoleInput['representative']): ReadonlySet<string> | undefined {
  const given = representative.name?.trim() ?? '';
  // "N/A" is what an upload that names no representative carries (spec part 2 §3).
  const named = given.toUpperCase() === 'N/A' ? [] : words(given);
  if (named.length === 0) return undefined;
  const local = words(representative.email.split('@')[0] ?? '');
  return new Set([...named, ...(local.length > 1 ? local : [])]);
}

function agentScore(text: string, representativeNames: ReadonlySet<string> | undefined): number {
  const count = (phrases: RegExp[]) => phrases.filter((phrase) => phrase.test(text)).length;
  let introductions = count(PLAIN_INTRODUCTIONS);
  for (const phrase of NAMING_INTRODUCTIONS) {
    const name = phrase.exec(text)?.[1];
    if (name === undefined) continue;
    if (!representativeNames) introductions += 1;
    else if (representativeNames.has(name)) introductions += 2;
  }
  return 2 * count(SERVICE_PHRASES) + introductions;
}

/** Lower-case words without accents; apostrophes vanish ("you're" → "youre"), other marks split. */
function words(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}
