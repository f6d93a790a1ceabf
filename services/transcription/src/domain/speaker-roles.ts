/**
 * Which speaker of a call is the company's representative and who is the contact. The rules, in
 * order (the first that picks someone decides):
 * 1. Name. A speaker label that is the representative's full name or first name, or the local part
 *    of their e-mail address (whole, or its first part when it is split by dots, dashes or
 *    underscores: "ana.lopez@…" gives "ana lopez" and "ana"), compared without case, accents or
 *    punctuation. A full-name or full-local-part match beats a first-name match; among equals the
 *    earlier speaker wins.
 * 2. Opening lines. The speaker whose first lines sound like an agent: "thank you for calling",
 *    "welcome to", "how can I help", "you're speaking with", "this is <name> from", "my name is",
 *    "calling from", "<name> speaking". Each phrase scores (the service phrases twice the
 *    introductions, which a customer may also say); the highest score wins, the earlier speaker on a
 *    tie.
 * 3. Otherwise the first speaker (on an inbound call the agent answers; on an outbound call the
 *    agent opens).
 * Every other speaker is a contact, so there is exactly one representative whenever there is a
 * speaker. Speakers who appear only in the segments are added after the listed ones.
 */

export type SpeakerRoleName = 'representative' | 'contact';

export interface RoleInput {
  /** Speaker labels in the order they first speak. */
  speakers: string[];
  segments: { speaker: string; text: string }[];
  representative: { email: string; name?: string };
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
const SPEAKING = /\b(?!(?:am|are|be|been|is|im|not|was|were|youre)\b)\w+ speaking\b(?! (?:about|for|of|to|with)\b)/;
const INTRODUCTION_PHRASES = [/\bthis is \w+(?: \w+)? (?:from|with|at)\b/, /\bmy name is\b/, /\bcalling (?:from|on behalf of)\b/, SPEAKING];

export function assignRoles(input: RoleInput): Record<string, SpeakerRoleName> {
  const speakers = [...new Set([...input.speakers, ...input.segments.map((segment) => segment.speaker)])];
  const roles: Record<string, SpeakerRoleName> = {};
  if (speakers.length === 0) return roles;
  const representative = byName(speakers, input.representative) ?? byOpeningLines(speakers, input.segments) ?? speakers[0];
  for (const speaker of speakers) roles[speaker] = speaker === representative ? 'representative' : 'contact';
  return roles;
}

function byName(speakers: string[], representative: RoleInput['representative']): string | undefined {
  const nameWords = words(representative.name ?? '');
  const local = words(representative.email.split('@')[0] ?? '');
  const full = new Set([nameWords.join(' '), local.join(' ')].filter((candidate) => candidate !== ''));
  const first = new Set([nameWords[0], local.length > 1 ? local[0] : undefined].filter((candidate): candidate is string => !!candidate));
  const labels = speakers.map((speaker) => ({ speaker, label: words(speaker.replace(/\([^)]*\)/g, ' ')).join(' ') }));
  return labels.find(({ label }) => full.has(label))?.speaker ?? labels.find(({ label }) => first.has(label))?.speaker;
}

function byOpeningLines(speakers: string[], segments: RoleInput['segments']): string | undefined {
  let best: { speaker: string; score: number } | undefined;
  for (const speaker of speakers) {
    const score = agentScore(openingLines(speaker, segments));
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

function agentScore(text: string): number {
  const count = (phrases: RegExp[]) => phrases.filter((phrase) => phrase.test(text)).length;
  return 2 * count(SERVICE_PHRASES) + count(INTRODUCTION_PHRASES);
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
