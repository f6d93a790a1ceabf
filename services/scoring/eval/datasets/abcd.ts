/**
 * ABCD (Chen et al. 2021, asappresearch): customer-service chats where the agent's system actions
 * are turns of their own. Criteria are the actions kb.json requires for the conversation's
 * subflow, plus (as negatives) those the other subflows of its flow require; the truth is whether
 * an action turn of that action exists. Three conversations: a smoke test, not a measurement.
 * Mapping: see ../README.md.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import { binaryFigures, confusion, type BinaryFigures } from '../metrics/classification.js';
import { fixed, percent, table } from '../format.js';
import { defineDataset, skip, skipCounts, type Loaded, type Missing, type SkipCounts, type SystemFigures } from '../harness.js';
import { saysFailed, verdictOf, type Baseline, type EvalCase, type Prediction } from '../systems.js';
import { buildInput, keywordOverlapBaseline, type Turn } from './activity.js';
import { ACTION_TEMPLATES, ACTION_WORDS, SUBFLOW_TITLES, flowKey } from './abcd-actions.js';
import { isFile } from './files.js';

export const ACTIONS_GROUP = 'actions';

export interface ActionCriterion {
  action: string;
  /** Required by the conversation's own subflow (else: required by another subflow of its flow). */
  required: boolean;
  /** An action turn of this action exists. */
  taken: boolean;
  /** guidelines.json's description of the action's button, for the prompt and the keyword baseline. */
  guideline: string;
}

export interface AbcdCase extends EvalCase {
  convoId: string;
  flow: string;
  subflow: string;
  criteria: ActionCriterion[];
  /** Action turns whose action could not be read (neither delexed nor a known template). */
  unreadActionTurns: number;
}

export interface AbcdReference {
  /** kb.json: subflow → required actions. */
  kb: Record<string, string[]>;
  /** ontology.json intents.subflows: flow → its subflows. */
  subflows: Record<string, string[]>;
  /** guidelines.json as is. */
  guidelines: Record<string, { subflows?: Record<string, { actions?: GuidelineAction[] }> }>;
}

interface GuidelineAction {
  button?: string;
  text?: string;
  subtext?: string[];
}

/** The action named by each action turn: `delexed[i].targets[2]`, else the action text's template. Unread turns are counted. */
export function actionsTaken(original: readonly unknown[], delexed: readonly unknown[] | undefined): { actions: Set<string>; unread: number } {
  const actions = new Set<string>();
  let unread = 0;
  for (const [index, turn] of original.entries()) {
    if (!Array.isArray(turn) || turn[0] !== 'action') continue;
    const entry = delexed?.[index] as { speaker?: unknown; targets?: unknown } | undefined;
    const named = entry?.speaker === 'action' && Array.isArray(entry.targets) ? entry.targets[2] : undefined;
    if (typeof named === 'string' && named !== '') {
      actions.add(named);
      continue;
    }
    const text = String(turn[1] ?? '').trim();
    const template = ACTION_TEMPLATES.map((t) => ({ t, match: t.pattern.exec(text) })).find((found) => found.match !== null);
    if (template) actions.add(typeof template.t.action === 'string' ? template.t.action : template.t.action(template.match!));
    else unread += 1;
  }
  return { actions, unread };
}

/** The conversation's kb subflow: scenario.subflow, or without its "_<n>" question number (timing_4 → timing), or the delexed subflow. */
export function kbSubflow(subflow: string, delexedSubflow: string | undefined, kb: Record<string, string[]>): string | undefined {
  return [subflow, subflow.replace(/_\d+$/, ''), delexedSubflow].find((name): name is string => name !== undefined && Object.hasOwn(kb, name));
}

/**
 * guidelines.json's words for an action: the entry of its button in the conversation's own
 * subflow (else an entry there that names the button in brackets), else the same in the other
 * subflows of its flow, in ontology order, else anywhere; empty when none describes it.
 */
export function guidelineText(action: string, flow: string, subflow: string, reference: AbcdReference): string {
  const buttons = ACTION_WORDS[action]?.buttons ?? [];
  const flowTitle = Object.keys(reference.guidelines).find((title) => flowKey(title) === flow);
  const places: { actions?: GuidelineAction[] }[] = [];
  const inFlow = flowTitle === undefined ? {} : (reference.guidelines[flowTitle]?.subflows ?? {});
  const ownTitle = SUBFLOW_TITLES[subflow];
  if (ownTitle !== undefined && inFlow[ownTitle]) places.push(inFlow[ownTitle]);
  for (const other of reference.subflows[flow] ?? []) {
    const title = SUBFLOW_TITLES[other];
    if (title !== undefined && inFlow[title]) places.push(inFlow[title]);
  }
  for (const anyFlow of Object.values(reference.guidelines)) places.push(...Object.values(anyFlow.subflows ?? {}));
  const mentions = (entry: GuidelineAction) => buttons.some((button) => [entry.text ?? '', ...(entry.subtext ?? [])].some((part) => part.includes(`[${button}]`)));
  for (const place of places) {
    const actions = place.actions ?? [];
    // Its own entry, else an entry that tells when to press it ("… enter 'change method' into [Update Order]").
    const found = actions.find((entry) => entry.button !== undefined && buttons.includes(entry.button)) ?? actions.find(mentions);
    if (found) return [found.text ?? '', ...(found.subtext ?? [])].map((part) => part.trim()).filter(Boolean).join(' ').replace(/\s+/g, ' ');
  }
  return '';
}

/**
 * A criterion as a team would write it: what the agent does, then the guideline's first sentence
 * (guidelines.json describes each button in a manual's paragraphs: which fields, which screen),
 * within the editor's 500-character limit on a criterion prompt.
 */
export function actionPrompt(action: string, guideline: string): string {
  const does = ACTION_WORDS[action]?.does ?? `takes the action "${action}"`;
  const first = /^[\s\S]*?[.!?](?=\s|$)/.exec(guideline.trim())?.[0] ?? guideline.trim();
  const prompt = first ? `The agent ${does}: ${first}` : `The agent ${does}.`;
  return prompt.length <= PROMPT_LIMIT ? prompt : `${prompt.slice(0, PROMPT_LIMIT - 1).replace(/\s+\S*$/, '')}…`;
}

/** The team editor's limit on a criterion prompt (spec part 1 §9). */
const PROMPT_LIMIT = 500;

/** One conversation: its activity, or why it cannot be used. */
export function abcdCase(raw: unknown, reference: AbcdReference): AbcdCase | { invalid: string } {
  const convo = raw as { convo_id?: unknown; scenario?: { flow?: unknown; subflow?: unknown }; original?: unknown; delexed?: unknown };
  if (!Array.isArray(convo?.original)) return { invalid: 'no original turns' };
  const delexed = Array.isArray(convo.delexed) ? convo.delexed : undefined;
  const delexedSubflow = (delexed?.find((entry) => Array.isArray((entry as { targets?: unknown }).targets)) as { targets: unknown[] } | undefined)?.targets[0];
  const subflow = kbSubflow(String(convo.scenario?.subflow ?? ''), typeof delexedSubflow === 'string' ? delexedSubflow : undefined, reference.kb);
  if (subflow === undefined) return { invalid: 'a subflow kb.json does not list' };
  const flow = typeof convo.scenario?.flow === 'string' && reference.subflows[convo.scenario.flow] ? convo.scenario.flow : Object.keys(reference.subflows).find((name) => reference.subflows[name]!.includes(subflow));
  if (flow === undefined) return { invalid: 'a flow ontology.json does not list' };
  const required = [...new Set(reference.kb[subflow])];
  const others: string[] = [];
  for (const other of reference.subflows[flow] ?? []) {
    if (other === subflow) continue;
    for (const action of reference.kb[other] ?? []) if (!required.includes(action) && !others.includes(action)) others.push(action);
  }
  const { actions, unread } = actionsTaken(convo.original, delexed);
  const turns: Turn[] = [];
  for (const turn of convo.original) {
    if (!Array.isArray(turn) || typeof turn[1] !== 'string') continue;
    if (turn[0] === 'agent') turns.push({ speaker: 'Agent', role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE, text: turn[1] });
    else if (turn[0] === 'customer') turns.push({ speaker: 'Customer', role: SpeakerRole.SPEAKER_ROLE_CONTACT, text: turn[1] });
  }
  const criteria = [...required.map((action) => ({ action, required: true })), ...others.map((action) => ({ action, required: false }))].map((c) => ({
    ...c,
    taken: actions.has(c.action),
    guideline: guidelineText(c.action, flow, subflow, reference),
  }));
  const convoId = String(convo.convo_id ?? '');
  return {
    convoId,
    flow,
    subflow,
    criteria,
    unreadActionTurns: unread,
    input: buildInput({
      activityId: `abcd/${convoId}`,
      kind: 'call',
      turns,
      sourceFormat: 'abcd',
      team: {
        id: `abcd-${flow}-${subflow}`,
        name: `ABCD ${flow} / ${subflow}`,
        department: 'support',
        groups: [
          {
            id: ACTIONS_GROUP,
            name: 'Actions',
            criteria: criteria.map((c) => ({ id: c.action, name: ACTION_WORDS[c.action]?.buttons[0] ?? c.action, prompt: actionPrompt(c.action, c.guideline) })),
          },
        ],
        successPrompt: '',
      },
      representative: { email: 'agent@abcd.example', name: 'Agent' },
    }),
  };
}

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8'));
}

export async function loadAbcd(datasetsDir: string, limit: number | undefined): Promise<Loaded<AbcdCase> | Missing> {
  const dir = join(datasetsDir, 'abcd');
  const names = ['abcd_sample.json', 'kb.json', 'ontology.json', 'guidelines.json'];
  for (const name of names) if (!(await isFile(join(dir, name)))) return { missing: `no abcd/${name}` };
  const [sample, kb, ontology, guidelines] = await Promise.all(names.map((name) => readJson(join(dir, name))));
  const reference: AbcdReference = {
    kb: kb as AbcdReference['kb'],
    subflows: ((ontology as { intents?: { subflows?: unknown } }).intents?.subflows ?? {}) as AbcdReference['subflows'],
    guidelines: guidelines as AbcdReference['guidelines'],
  };
  const cases: AbcdCase[] = [];
  const skipped: SkipCounts = skipCounts();
  for (const raw of (Array.isArray(sample) ? sample : Object.values(sample as object)).slice(0, limit)) {
    const parsed = abcdCase(raw, reference);
    if ('invalid' in parsed) skip(skipped, parsed.invalid);
    else cases.push(parsed);
  }
  return { source: 'abcd/{abcd_sample,kb,ontology,guidelines}.json', cases, skipped };
}

export interface AbcdFigures extends BinaryFigures {
  /** Positive = the action was taken (the criterion passes); over the criteria the subflow requires. */
  required: BinaryFigures;
  /** Over the actions only other subflows of the flow require. */
  other: BinaryFigures;
}

export function scoreAbcd(cases: readonly AbcdCase[], predictions: readonly Prediction[]): AbcdFigures {
  const pairs = cases.flatMap((item, index) =>
    item.criteria.map((criterion) => ({
      required: criterion.required,
      truth: criterion.taken,
      predicted: !saysFailed(verdictOf(predictions[index]!, ACTIONS_GROUP, criterion.action)),
    })),
  );
  return {
    ...binaryFigures(confusion(pairs)),
    required: binaryFigures(confusion(pairs.filter((pair) => pair.required))),
    other: binaryFigures(confusion(pairs.filter((pair) => !pair.required))),
  };
}

/** Whether most action criteria of these conversations were taken (a tie: taken). */
export function mostActionsTaken(cases: readonly AbcdCase[]): boolean {
  const criteria = cases.flatMap((item) => item.criteria);
  return criteria.filter((criterion) => criterion.taken).length * 2 >= criteria.length;
}

export function abcdBaselines(cases: readonly AbcdCase[]): Baseline<AbcdCase>[] {
  const majority = mostActionsTaken(cases);
  const always = (taken: boolean): Baseline<AbcdCase> => ({
    name: `always ${taken ? 'taken' : 'not taken'}${taken === majority ? ' (majority)' : ''}`,
    description: `every criterion ${taken ? 'passes' : 'fails'}${taken === majority ? ': the more frequent truth label of the action criteria' : ''}`,
    predict: (item) => ({
      verdicts: item.criteria.map((c) => ({ groupId: ACTIONS_GROUP, criterionId: c.action, passed: taken, applicable: true, evidence: [] })),
      isSuccessful: undefined,
      summary: '',
    }),
  });
  return [
    always(majority),
    always(!majority),
    keywordOverlapBaseline((item) => item.criteria.map((c) => ({ groupId: ACTIONS_GROUP, criterionId: c.action, guideline: c.guideline }))),
  ];
}

export function abcdReport(size: Record<string, unknown>, systems: readonly SystemFigures<AbcdFigures>[]): string[] {
  const rows = systems.map(({ name, figures: f }) => [
    name,
    fixed(f.accuracy),
    fixed(f.precision),
    fixed(f.recall),
    fixed(f.f1),
    String(f.tp),
    String(f.fp),
    String(f.fn),
    String(f.tn),
    percent(f.required.tp, f.required.tp + f.required.fn),
  ]);
  return [
    `== ABCD (${size.conversations} conversations — a SMOKE TEST, not a measurement; ${size.criteria} criteria: ${size.required} required, ${size.other} of other subflows; ${size.taken} actions taken; ${size.skipped} skipped)`,
    '  Action criteria (positive = the action was taken / the criterion passes):',
    ...table(['system', 'acc', 'prec', 'rec', 'F1', 'tp', 'fp', 'fn', 'tn', 'required actions found'], rows),
  ];
}

export const abcd = defineDataset<AbcdCase, AbcdFigures>({
  id: 'abcd',
  title: 'ABCD',
  load: loadAbcd,
  baselines: abcdBaselines,
  score: scoreAbcd,
  size: (loaded) => {
    const criteria = loaded.cases.flatMap((item) => item.criteria);
    return {
      conversations: loaded.cases.length,
      criteria: criteria.length,
      required: criteria.filter((c) => c.required).length,
      other: criteria.filter((c) => !c.required).length,
      taken: criteria.filter((c) => c.taken).length,
      unreadActionTurns: loaded.cases.reduce((sum, item) => sum + item.unreadActionTurns, 0),
      skipped: loaded.skipped.total,
    };
  },
  report: abcdReport,
  notes: ['Three sample conversations: a smoke test of the mapping and the engine, not a measurement.'],
});
