/** Team payloads as the team editor sends them (spec part 1 §3), for the team tests. */
import { randomUUID } from 'node:crypto';

export interface CriterionJson {
  id: string;
  name: string;
  prompt: string;
  weight: number | string | null;
}

export interface TeamJson {
  id: string;
  name: string;
  department: string;
  criteria_group: Array<{ id: string; name: string; criteria: CriterionJson[] }>;
  success_criteria: { prompt: string };
  members: string[];
  call_script: string | null;
  crm_id: string;
  /** Below this confidence a verdict needs review (0.5 to 0.95); absent or null keeps the team's own (0.7 for a new team). */
  review_threshold?: number | string | null;
}

export interface MemberJson {
  first_name: string;
  last_name: string;
  email: string;
  crm_id: string;
  target: number | string | null;
}

/** A saved team as the API returns it. */
export interface SavedTeam extends TeamJson {
  review_threshold: number;
  version: number;
  created_at: string;
  updated_at: string;
}

export function teamPayload(overrides: Partial<TeamJson> = {}): TeamJson {
  return {
    id: 'new',
    name: `Inbound sales ${randomUUID().slice(0, 6)}`,
    department: 'sales',
    criteria_group: [
      {
        id: randomUUID(),
        name: 'Opening',
        criteria: [
          { id: randomUUID(), name: 'Greeting', prompt: 'The representative greets the customer and says their own name.', weight: 3 },
          { id: randomUUID(), name: 'Needs discovery', prompt: 'The representative asks at least two open questions about needs.', weight: '4,5' },
        ],
      },
      {
        id: randomUUID(),
        name: 'Closing',
        criteria: [{ id: randomUUID(), name: 'Next steps', prompt: 'The representative agrees a concrete next step with a date.', weight: 2.5 }],
      },
    ],
    success_criteria: { prompt: 'The customer agrees to a demo or buys.' },
    members: [],
    call_script: 'Thank you for calling Parlance, my name is …',
    crm_id: '',
    ...overrides,
  };
}

export function memberPayload(overrides: Partial<MemberJson> = {}): MemberJson {
  const tag = randomUUID().slice(0, 6);
  return { first_name: 'Grace', last_name: `Hopper${tag}`, email: `grace.${tag}@example.com`, crm_id: '', target: 4, ...overrides };
}

/** Spec part 1 §4: the copy a duplicate saves — new ids everywhere, name + ' (copy)', no members. */
export function duplicateOf(team: SavedTeam): TeamJson {
  return {
    id: randomUUID(),
    name: `${team.name} (copy)`,
    department: team.department,
    criteria_group: team.criteria_group.map((group) => ({
      ...group,
      id: randomUUID(),
      criteria: group.criteria.map((criterion) => ({ ...criterion, id: randomUUID() })),
    })),
    success_criteria: team.success_criteria,
    members: [],
    call_script: team.call_script,
    crm_id: team.crm_id,
    review_threshold: team.review_threshold,
  };
}
