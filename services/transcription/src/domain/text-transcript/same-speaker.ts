/**
 * One participant per person in a text transcript. Files often name one person in more than one
 * way: "Alex (Sales Manager)" the first time and "Alex" after, "ALEX" beside "Alex", "Dr. Ana
 * Lopez" beside "Ana Lopez". Two labels are the same person when their names are the same once
 * case, accents, punctuation, a title before the name and notes in brackets are put aside, and
 * what was put aside does not tell them apart:
 * - Two labels with different titles or different notes are two people: that is how people tell
 *   namesakes apart ("Alex (Acme)" and "Alex (Globex)", "Mr. Lopez" and "Mrs. Lopez"). A bare
 *   "Alex" beside both could be either, so then each way of writing the name stays a speaker.
 * - A first name is never joined to a full name ("Ana" and "Ana Lopez"): another Ana is as likely.
 * The label kept is the fullest one ("Alex (Sales Manager)", "Dr. Ana Lopez"), since it says the
 * most about the person; among equally full ones the one used most, then the first.
 */
import { personNameOf, type PersonName } from '../speaker-roles.js';

interface Spelling {
  label: string;
  person: PersonName;
  uses: number;
  firstUse: number;
}

/**
 * `labels` are the speakers of the segments in order, repeats included (they count the uses).
 * Answers the label to show for each label given.
 */
export function unifySpeakerLabels(labels: readonly string[]): Map<string, string> {
  const spellings = new Map<string, Spelling>();
  labels.forEach((label, index) => {
    const spelling = spellings.get(label);
    if (spelling) spelling.uses += 1;
    else spellings.set(label, { label, person: personNameOf(label), uses: 1, firstUse: index });
  });

  const byName = new Map<string, Spelling[]>();
  for (const spelling of spellings.values()) {
    const key = spelling.person.name || spelling.label;
    byName.set(key, [...(byName.get(key) ?? []), spelling]);
  }

  const shown = new Map<string, string>();
  for (const namesakes of byName.values()) {
    const people = tellApart(namesakes) ? groupBy(namesakes, qualifierOf) : [namesakes];
    for (const person of people) {
      const kept = fullest(person);
      for (const spelling of person) shown.set(spelling.label, kept.label);
    }
  }
  return shown;
}

/** Whether two of these labels carry titles or notes that differ. */
function tellApart(namesakes: readonly Spelling[]): boolean {
  const differ = (values: string[]) => new Set(values.filter((value) => value !== '')).size > 1;
  return differ(namesakes.map((spelling) => spelling.person.honorific)) || differ(namesakes.map((spelling) => spelling.person.notes.join('|')));
}

function qualifierOf(spelling: Spelling): string {
  return `${spelling.person.honorific}/${spelling.person.notes.join('|')}`;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return [...groups.values()];
}

function fullest(spellings: readonly Spelling[]): Spelling {
  const detail = (spelling: Spelling) => (spelling.person.honorific === '' ? 0 : 1) + spelling.person.notes.length;
  return [...spellings].sort((a, b) => detail(b) - detail(a) || b.uses - a.uses || a.firstUse - b.firstUse)[0]!;
}
