import { describe, expect, it } from 'vitest';
import { demoActivity, skillOf, type DemoPlan, type DemoTeam } from './demo-conversations.js';
import { PLAYBOOKS } from './playbooks.js';

const member = (firstName: string, lastName: string) => ({ firstName, lastName, email: `${firstName}.${lastName}@example.com`.toLowerCase() });
const teams: DemoTeam[] = [
  { id: 'sales', name: 'Inbound Sales', department: 'sales', members: [member('Maya', 'Okafor'), member('Liam', 'Brennan')] },
  { id: 'care', name: 'Customer Care', department: 'support', members: [member('Sofia', 'Lindqvist')] },
  { id: 'talent', name: 'Talent Acquisition', department: 'hr', members: [member('Elena', 'Rossi')] },
  // A team the company added itself: spoken for by its department's first playbook.
  { id: 'field', name: 'Field Sales', department: 'sales', members: [member('Ana', 'Ruiz')] },
];
const plan: DemoPlan = { calls: 180, meetings: 20, recordedCalls: 3, seed: 5, now: new Date('2026-11-23T12:00:00Z') };
const all = Array.from({ length: 200 }, (_, sequence) => demoActivity(plan, teams, sequence)!);

describe('demo conversations', () => {
  it('are the same for the same plan and sequence, so seeding can resume anywhere', () => {
    expect(demoActivity(plan, teams, 57)).toEqual(all[57]);
    expect(demoActivity({ ...plan, seed: 6 }, teams, 57)?.transcript).not.toBe(all[57]?.transcript);
  });

  it('send the recordings first, then calls and meetings in the planned numbers', () => {
    expect(all.slice(0, 3).map((activity) => [activity.kind, activity.recorded])).toEqual([
      ['call', true],
      ['call', true],
      ['call', true],
    ]);
    expect(all.filter((activity) => activity.kind === 'meeting')).toHaveLength(20);
    expect(all.filter((activity) => activity.recorded)).toHaveLength(3);
    expect(all.slice(0, 100).filter((activity) => activity.kind === 'meeting').length).toBeGreaterThanOrEqual(9);
  });

  it('give the recordings to the teams in turn', () => {
    const recordings = Array.from({ length: 8 }, (_, sequence) => demoActivity({ ...plan, recordedCalls: 8 }, teams, sequence)!);
    expect(recordings.map((activity) => activity.teamId)).toEqual(['care', 'field', 'sales', 'talent', 'care', 'field', 'sales', 'talent']);
  });

  it('give meetings a title, a link and notes, and calls none', () => {
    for (const activity of all) {
      if (activity.kind === 'meeting') {
        expect(activity.fileName).toBe(`${activity.title}.txt`);
        expect(activity.link).toMatch(/^https:\/\/meet\.google\.com\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/);
        expect(activity.notes).toContain(activity.representative.fullName);
      } else {
        expect([activity.title, activity.link]).toEqual(['', '']);
        expect(activity.fileName).toMatch(activity.recorded ? /^call-\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.wav$/ : /^call-\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.txt$/);
      }
    }
  });

  it('write a transcript of timed, named lines that the representative opens', () => {
    for (const activity of all) {
      const lines = activity.transcript.split('\n');
      expect(lines.every((line) => /^\[\d{2}:\d{2}:\d{2}\] [^:]+: \S/.test(line))).toBe(true);
      expect(activity.lines[0]?.speaker).toBe(activity.representative.fullName);
      for (let index = 1; index < activity.lines.length; index += 1) expect(activity.lines[index]!.startMs).toBeGreaterThan(activity.lines[index - 1]!.endMs);
    }
  });

  it('keep the truth: every criterion of the team met or missed, and no success without the closing move', () => {
    for (const activity of all) {
      const team = teams.find((each) => each.id === activity.teamId)!;
      const playbook = PLAYBOOKS.find((each) => each.team === team.name) ?? PLAYBOOKS.find((each) => each.department === team.department)!;
      expect([...activity.truth.met, ...activity.truth.missed].sort()).toEqual(playbook.moves.map((move) => move.criterion).sort());
      if (activity.truth.successful) expect(activity.truth.met).toContain(playbook.closingMove);
      if (!activity.truth.successful && playbook.closingNeedsAgreement) expect(activity.truth.missed).toContain(playbook.closingMove);
    }
    const successes = all.filter((activity) => activity.truth.successful).length;
    expect(successes).toBeGreaterThan(20);
    expect(successes).toBeLessThan(180);
  });

  it('let representatives differ in skill, and come back to the same contacts', () => {
    expect(new Set(teams.flatMap((team) => team.members.map((each) => skillOf(each.email).toFixed(2)))).size).toBeGreaterThan(3);
    const contacts = new Map<string, string>();
    for (const activity of all) {
      expect(activity.contact.id).toMatch(/^demo-contact-\d{4}$/);
      const known = contacts.get(activity.contact.id);
      if (known) expect(known).toBe(activity.contact.name);
      contacts.set(activity.contact.id, activity.contact.name);
    }
    expect(contacts.size).toBeLessThan(all.length);
    expect(all.some((activity) => activity.teamId === 'field')).toBe(true);
  });

  it('have no conversation when no team has a playbook', () => {
    expect(demoActivity(plan, [{ id: 'x', name: 'Legal', department: 'legal', members: [member('A', 'B')] }], 0)).toBeUndefined();
  });
});
