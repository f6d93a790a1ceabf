/**
 * The demo company's calls and meetings, made up from the teams' playbooks with the truth about
 * each one kept beside it: which criteria the representative met, which they missed, and whether
 * the conversation succeeded. Every activity is a pure function of the plan and its sequence
 * number, so seeding can stop anywhere and resume with exactly the activities it had not sent.
 *
 * Representatives differ in skill (fixed per e-mail), so lists, filters and leaderboards show real
 * differences; success follows from the moves made, never from a coin alone.
 */
import { seededRandom } from '@parlance/platform/testing/seeded-random';
import { demoMoment, demoPeriod } from './demo-calendar.js';
import { guestLine, playbookOf, type Line, type Playbook, type Scene, type Speaker } from './playbooks.js';

export interface DemoTeam {
  id: string;
  name: string;
  department: string;
  members: ReadonlyArray<{ email: string; firstName: string; lastName: string }>;
}

export interface DemoPlan {
  calls: number;
  meetings: number;
  /** How many of the calls (the first ones sent) are recordings spoken by a synthesizer. */
  recordedCalls: number;
  seed: number;
  now: Date;
}

export interface DemoContact {
  id: string;
  name: string;
  company: string;
  role: string;
}

export interface TimedLine {
  /** The name shown in the transcript. */
  speaker: string;
  role: Speaker;
  startMs: number;
  endMs: number;
  text: string;
}

export interface DemoActivity {
  sequence: number;
  kind: 'call' | 'meeting';
  teamId: string;
  representative: { email: string; firstName: string; fullName: string };
  occurredAt: Date;
  fileName: string;
  /** Meetings only. */
  title: string;
  notes: string;
  link: string;
  contact: DemoContact;
  lines: TimedLine[];
  /** "[hh:mm:ss] Name: text" lines, as a text upload. */
  transcript: string;
  /** Spoken by a synthesizer and uploaded as audio rather than text. */
  recorded: boolean;
  truth: { met: string[]; missed: string[]; successful: boolean };
}

/** How many contacts the company talks to; each one comes back in several activities. */
const CONTACT_POOL = 600;
const WORDS_PER_SECOND = 2.6;

/** How many activities the plan holds. */
export function demoActivityCount(plan: DemoPlan): number {
  return plan.calls + plan.meetings;
}

/**
 * The activity at a sequence number, or undefined when no team has a playbook. Recorded calls
 * come first, then calls and meetings interleaved so a partly seeded company has both.
 */
export function demoActivity(plan: DemoPlan, teams: readonly DemoTeam[], sequence: number): DemoActivity | undefined {
  // By name, not in the order given: identity lists teams created together in the order of their
  // random ids, and the same seed must give the same conversations on every install.
  const speakers = [...teams].sort(byName).flatMap((team) => {
    const playbook = playbookOf(team);
    return playbook ? team.members.map((member) => ({ team, playbook, member })) : [];
  });
  if (speakers.length === 0) return undefined;
  const kind = kindAt(plan, sequence);
  const random = seededRandom(mix(plan.seed, sequence));
  const pick = <T>(options: readonly T[]): T => options[Math.floor(random() * options.length)] as T;

  const recorded = kind === 'call' && sequence < plan.recordedCalls;
  // Recordings go round the teams, so that the few a company is seeded with show every team's kind of call.
  const { team, playbook, member } = recorded ? recordedSpeaker(speakers, sequence, pick) : pick(speakers);
  const contactNumber = Math.floor(random() * CONTACT_POOL);
  const contact = demoContact(plan.seed, contactNumber, playbook);
  const guest = personAt(plan.seed ^ 0x5bd1e995, contactNumber);
  const scene: Scene = {
    representative: { firstName: member.firstName, fullName: `${member.firstName} ${member.lastName}`.trim() },
    contact: { firstName: contact.name.split(' ')[0] ?? contact.name, fullName: contact.name, company: contact.company },
    guest: { firstName: guest.firstName, fullName: `${guest.firstName} ${guest.lastName}` },
    pick,
    slot: () => `${pick(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'])} at ${pick(['nine', 'ten', 'eleven', 'two', 'three', 'four'])}`,
    digits: (count) => Array.from({ length: count }, (_, index) => String(Math.floor(random() * 10) || (index === 0 ? 1 : 0))).join(''),
  };

  const skill = skillOf(member.email);
  const met: string[] = [];
  const missed: string[] = [];
  const said: Line[] = [];
  const halfway = Math.ceil(playbook.moves.length / 2);
  // Recordings are kept short: every line is synthesized, then transcribed on this machine.
  const smallTalk = recorded ? 0 : kind === 'meeting' ? 4 + Math.floor(random() * 6) : Math.floor(random() * 4);
  playbook.moves.forEach((move, index) => {
    if (index === halfway) {
      const told = new Set<string>();
      for (let round = 0; round < smallTalk; round += 1) {
        const exchange = playbook.smallTalk(scene);
        const opening = exchange[0]?.text ?? '';
        // The same anecdote twice in one conversation would read as a glitch.
        if (told.has(opening)) continue;
        told.add(opening);
        said.push(...exchange);
        if (kind === 'meeting' && random() < 0.5) said.push(guestLine(scene));
      }
    }
    const made = random() < skill + moveBias(move.criterion);
    (made ? met : missed).push(move.criterion);
    said.push(...(made ? move.made(scene) : move.missed(scene)));
  });
  const successful = met.includes(playbook.closingMove) && random() < 0.15 + (0.8 * met.length) / playbook.moves.length;
  if (playbook.closingNeedsAgreement && !successful && met.includes(playbook.closingMove)) {
    // Proposed, but not agreed: the criterion asks for the agreement too.
    met.splice(met.indexOf(playbook.closingMove), 1);
    missed.push(playbook.closingMove);
  }
  said.push(...(successful ? playbook.won(scene) : playbook.lost(scene)));

  const names: Record<Speaker, string> = { representative: scene.representative.fullName, contact: scene.contact.fullName, guest: scene.guest.fullName };
  const lines = timeline(said, names, random);
  const occurredAt = demoMoment(demoPeriod(plan.now), random);
  // Day and minute: a contact can call twice on one day, and two files must not share a name.
  const when = occurredAt.toISOString().slice(0, 16).replace(/[T:]/g, ' ');
  const title = kind === 'meeting' ? playbook.meetingTitle(scene) : '';
  return {
    sequence,
    kind,
    teamId: team.id,
    representative: { email: member.email, firstName: member.firstName, fullName: scene.representative.fullName },
    occurredAt,
    fileName: kind === 'meeting' ? `${title}.txt` : `${slug(`call ${when} ${contact.company} ${contact.name}`)}.${recorded ? 'wav' : 'txt'}`,
    title,
    notes: kind === 'meeting' ? `Attendees: ${scene.representative.fullName}, ${scene.contact.fullName} (${contact.role}), ${scene.guest.fullName}.` : '',
    link: kind === 'meeting' ? meetLink(random) : '',
    contact,
    lines,
    transcript: lines.map((line) => `[${clock(line.startMs)}] ${line.speaker}: ${line.text}`).join('\n'),
    recorded,
    truth: { met, missed, successful },
  };
}

/** The representative of a recorded call: a member of the next team in turn. */
function recordedSpeaker<T extends { team: DemoTeam }>(speakers: readonly T[], sequence: number, pick: (options: readonly T[]) => T): T {
  const teams = [...new Set(speakers.map((speaker) => speaker.team))];
  const team = teams[sequence % teams.length];
  return pick(speakers.filter((speaker) => speaker.team === team));
}

/** Code-unit order, the same under every locale. */
function byName(a: DemoTeam, b: DemoTeam): number {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function kindAt(plan: DemoPlan, sequence: number): 'call' | 'meeting' {
  if (sequence < plan.recordedCalls) return 'call';
  // Spread meetings evenly through the rest: the n-th meeting sits at n × (rest / meetings).
  const rest = plan.calls + plan.meetings - plan.recordedCalls;
  if (plan.meetings === 0 || rest <= 0) return 'call';
  const position = sequence - plan.recordedCalls;
  const every = rest / plan.meetings;
  return Math.floor((position + 1) / every) > Math.floor(position / every) ? 'meeting' : 'call';
}

/** Between 0.35 and 0.92, fixed per representative. */
export function skillOf(email: string): number {
  return 0.35 + seededRandom(hash(email))() * 0.57;
}

/** Some criteria are met more often than others, by everyone. */
function moveBias(criterion: string): number {
  return seededRandom(hash(criterion))() * 0.25 - 0.15;
}

export function demoContact(seed: number, number: number, playbook: Playbook): DemoContact {
  const person = personAt(seed, number);
  const random = seededRandom(mix(seed, number + 1_000_003));
  const company = COMPANIES[Math.floor(random() * COMPANIES.length)] as string;
  const role = playbook.contactRoles[Math.floor(random() * playbook.contactRoles.length)] as string;
  return { id: `demo-contact-${String(number + 1).padStart(4, '0')}`, name: `${person.firstName} ${person.lastName}`, company, role };
}

function personAt(seed: number, number: number): { firstName: string; lastName: string } {
  const random = seededRandom(mix(seed, number));
  return { firstName: FIRST_NAMES[Math.floor(random() * FIRST_NAMES.length)] as string, lastName: LAST_NAMES[Math.floor(random() * LAST_NAMES.length)] as string };
}

/** Lines laid on a clock: each takes as long as it takes to say, with a pause before the next. */
function timeline(said: Line[], names: Record<Speaker, string>, random: () => number): TimedLine[] {
  let at = 1_000 + Math.floor(random() * 2_000);
  return said.map((line) => {
    const words = line.text.split(/\s+/).filter(Boolean).length;
    const startMs = at;
    const endMs = startMs + Math.round((words / WORDS_PER_SECOND) * 1000) + 300;
    at = endMs + 400 + Math.floor(random() * 1_800);
    return { speaker: names[line.speaker], role: line.speaker, startMs, endMs, text: line.text };
  });
}

function clock(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
}

function meetLink(random: () => number): string {
  const letters = (count: number) => Array.from({ length: count }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
  return `https://meet.google.com/${letters(3)}-${letters(4)}-${letters(3)}`;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function mix(seed: number, value: number): number {
  return hash(`${seed}:${value}`);
}

/** FNV-1a, 32 bits. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  return value >>> 0;
}

const FIRST_NAMES = [
  'Daniel', 'Priya', 'Hannah', 'Lucas', 'Amara', 'Tomasz', 'Ines', 'Jamal', 'Mei', 'Oliver', 'Fatima', 'Ben', 'Laura', 'Diego', 'Aisha',
  'Henrik', 'Nora', 'Samuel', 'Yuki', 'Rosa', 'Viktor', 'Leila', 'Patrick', 'Chen', 'Isabel', 'Kwame', 'Anna', 'Rahul', 'Sophie', 'Mateo',
] as const;
const LAST_NAMES = [
  'Novak', 'Fischer', 'Patel', 'Moreau', 'Costa', 'Jensen', 'Walsh', 'Nakamura', 'Adeyemi', 'Larsen', 'Silva', 'Kowalski', 'Byrne', 'Haddad',
  'Meyer', 'Tanaka', 'Okoye', 'Lund', 'Romero', 'Kaur', 'Evans', 'Duarte', 'Berg', 'Farah', 'Quinn',
] as const;
const COMPANIES = [
  'Northwind Logistics', 'Contoso Health', 'Fabrikam Insurance', 'Tailspin Travel', 'Litware Energy', 'Adventure Works', 'Woodgrove Bank',
  'Proseware', 'Wingtip Toys', 'Alpine Ski House', 'Blue Yonder Airlines', 'Coho Winery', 'Fourth Coffee', 'Lamna Healthcare',
  'Margie’s Travel', 'Trey Research', 'Humongous Insurance', 'Wide World Importers', 'Relecloud', 'Graphic Design Institute',
] as const;
