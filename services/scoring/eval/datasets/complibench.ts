/**
 * CompliBench (UCSB-NLP-Chang): customer-service conversations whose assistant was told to
 * follow a few injected bad guidelines; `mistakes` labels the turns where it did. Every subfolder
 * of complibench/ is a domain (airlines, healthcare, insurance, …). Mapping: see ../README.md.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import { addConfusions, binaryFigures, confusion, type BinaryFigures, type Confusion } from '../metrics/classification.js';
import { calibration, type Calibration, type Judged } from '../metrics/calibration.js';
import { calibrationLines, fixed, percent, table } from '../format.js';
import { defineDataset, skip, skipCounts, type Loaded, type Missing, type SystemFigures } from '../harness.js';
import { saysFailed, verdictOf, type Baseline, type EvalCase, type Prediction } from '../systems.js';
import { buildInput, keywordOverlapBaseline, type GroupSpec, type Turn } from './activity.js';
import { isDirectory } from './files.js';

export type ScoredKind = 'phase' | 'condition';

export interface LabelledCriterion {
  groupId: string;
  criterionId: string;
  /** The guideline text: the criterion's prompt, and what the keyword baseline looks for. */
  guideline: string;
  /** Which figures it counts in; universal guidelines are judged but not scored (no labels). */
  scored: ScoredKind | null;
  failed: boolean;
  /** turn_index of the labelled mistakes of this criterion. */
  labelledTurns: number[];
}

export interface CompliBenchCase extends EvalCase {
  subset: string;
  file: string;
  /** turn_index of each segment. */
  turnOfSegment: number[];
  criteria: LabelledCriterion[];
}

/** What the engine may see of a conversation: message roles and contents, and the correct guidelines. */
export interface CompliBenchVisible {
  intent: string;
  guidelines: Record<string, unknown>;
  messages: { role: string; content: string }[];
}

export interface CompliBenchMistake {
  turnIndex: number;
  category: string;
  key: string;
  phase: number | undefined;
}

export const PHASES_GROUP = 'phases';
export const UNIVERSAL_GROUP = 'universal';
export const CONDITIONS_GROUP = 'conditions';

/** The phase's name: the text before the first ':' when that is 1 to 8 words, else "Phase <N>". */
export function phaseName(text: string, phase: number): string {
  const colon = text.indexOf(':');
  if (colon > 0) {
    const prefix = text.slice(0, colon).trim();
    const words = prefix.split(/\s+/).filter(Boolean).length;
    if (words >= 1 && words <= 8) return prefix;
  }
  return `Phase ${phase}`;
}

function categoryOf(guidelines: Record<string, unknown>, number: 1 | 2 | 3): Record<string, unknown> {
  const key = Object.keys(guidelines).find((name) => name.startsWith(`Category ${number}`));
  const value = key === undefined ? undefined : guidelines[key];
  return isRecord(value) ? value : {};
}

/** "Phase 3" → 3, in numeric order. */
export function phasesOf(visible: CompliBenchVisible): { phase: number; text: string }[] {
  const intent = categoryOf(visible.guidelines, 2)[visible.intent];
  if (!isRecord(intent)) return [];
  return Object.entries(intent)
    .map(([key, text]) => ({ match: /^Phase\s+(\d+)$/i.exec(key.trim()), text }))
    .filter((entry): entry is { match: RegExpExecArray; text: string } => entry.match !== null && typeof entry.text === 'string')
    .map((entry) => ({ phase: Number(entry.match[1]), text: entry.text }))
    .sort((a, b) => a.phase - b.phase);
}

function stringEntries(record: Record<string, unknown>): [string, string][] {
  return Object.entries(record).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
}

/** The criteria groups of a conversation's team, from the correct guidelines only. */
export function compliBenchGroups(visible: CompliBenchVisible): GroupSpec[] {
  const groups: GroupSpec[] = [
    {
      id: PHASES_GROUP,
      name: 'Phases',
      criteria: phasesOf(visible).map(({ phase, text }) => ({
        id: `phase-${phase}`,
        name: phaseName(text, phase),
        prompt: text,
      })),
    },
    { id: UNIVERSAL_GROUP, name: 'Universal', criteria: stringEntries(categoryOf(visible.guidelines, 1)).map(([key, text]) => ({ id: key, name: key, prompt: text })) },
    { id: CONDITIONS_GROUP, name: 'Conditions', criteria: stringEntries(categoryOf(visible.guidelines, 3)).map(([key, text]) => ({ id: key, name: key, prompt: text })) },
  ];
  return groups.filter((group) => group.criteria.length > 0);
}

/** The engine's input; built from `visible` alone, so no label can reach the engine. */
export function compliBenchInput(activityId: string, subset: string, visible: CompliBenchVisible) {
  const turns: Turn[] = visible.messages.map((message) =>
    message.role === 'assistant'
      ? { speaker: 'Agent', role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE, text: message.content }
      : { speaker: 'Customer', role: SpeakerRole.SPEAKER_ROLE_CONTACT, text: message.content },
  );
  return buildInput({
    activityId,
    kind: 'call',
    turns,
    sourceFormat: 'complibench',
    team: { id: `complibench-${subset}-${visible.intent}`, name: `${subset}: ${visible.intent}`, department: 'support', groups: compliBenchGroups(visible), successPrompt: '' },
    representative: { email: 'agent@complibench.example', name: 'Agent' },
  });
}

/** One conversation file: its visible part, its labels, or why it cannot be used. */
export function parseConversation(raw: unknown): { visible: CompliBenchVisible; turnOfSegment: number[]; mistakes: CompliBenchMistake[] } | { invalid: string } {
  if (!isRecord(raw)) return { invalid: 'not a JSON object' };
  const guidelines = raw.assistant_guidelines;
  if (!isRecord(guidelines)) return { invalid: 'no assistant_guidelines' };
  if (!Array.isArray(raw.message_list) || raw.message_list.length === 0) return { invalid: 'no message_list' };
  const intents = Object.keys(categoryOf(guidelines, 2));
  const intent = typeof raw.intent_name === 'string' && intents.includes(raw.intent_name) ? raw.intent_name : intents.length === 1 ? intents[0]! : undefined;
  if (intent === undefined) return { invalid: 'intent_name names no Category 2 intent' };
  const messages: CompliBenchVisible['messages'] = [];
  const turnOfSegment: number[] = [];
  for (const [index, message] of raw.message_list.entries()) {
    if (!isRecord(message) || (message.role !== 'assistant' && message.role !== 'user') || typeof message.content !== 'string') {
      return { invalid: 'a message without role assistant/user and text content' };
    }
    messages.push({ role: message.role, content: message.content });
    turnOfSegment.push(typeof message.turn_index === 'number' ? message.turn_index : index);
  }
  const mistakes: CompliBenchMistake[] = (Array.isArray(raw.mistakes) ? raw.mistakes : []).filter(isRecord).map((mistake) => ({
    turnIndex: Number(mistake.turn_index),
    category: String(mistake['guidance category'] ?? ''),
    key: String(mistake['guidance key'] ?? ''),
    phase: phaseNumber(mistake.guideline_phase),
  }));
  const visible = { intent, guidelines, messages };
  if (phasesOf(visible).length === 0) return { invalid: 'the intent has no "Phase <N>" guidelines' };
  return { visible, turnOfSegment, mistakes };
}

function phaseNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  const digits = typeof value === 'string' ? /(-?\d+)/.exec(value) : null;
  return digits ? Number(digits[1]) : undefined;
}

/** Truth per criterion: a phase fails when a Category 2 mistake of the intent names it; a condition when a Category 3 mistake names its key. */
export function labelCriteria(visible: CompliBenchVisible, mistakes: readonly CompliBenchMistake[]): LabelledCriterion[] {
  const turnsWhere = (match: (mistake: CompliBenchMistake) => boolean) => [...new Set(mistakes.filter(match).map((mistake) => mistake.turnIndex))].sort((a, b) => a - b);
  const labelled: LabelledCriterion[] = [];
  for (const { phase, text } of phasesOf(visible)) {
    const turns = turnsWhere((m) => m.category.startsWith('Category 2') && m.key === visible.intent && m.phase === phase);
    labelled.push({ groupId: PHASES_GROUP, criterionId: `phase-${phase}`, guideline: text, scored: 'phase', failed: turns.length > 0, labelledTurns: turns });
  }
  for (const [key, text] of stringEntries(categoryOf(visible.guidelines, 1))) {
    labelled.push({ groupId: UNIVERSAL_GROUP, criterionId: key, guideline: text, scored: null, failed: false, labelledTurns: [] });
  }
  for (const [key, text] of stringEntries(categoryOf(visible.guidelines, 3))) {
    const turns = turnsWhere((m) => m.category.startsWith('Category 3') && m.key === key);
    labelled.push({ groupId: CONDITIONS_GROUP, criterionId: key, guideline: text, scored: 'condition', failed: turns.length > 0, labelledTurns: turns });
  }
  return labelled;
}

export async function loadCompliBench(datasetsDir: string, limit: number | undefined): Promise<Loaded<CompliBenchCase> | Missing> {
  const root = join(datasetsDir, 'complibench');
  if (!(await isDirectory(root))) return { missing: 'no complibench/ folder' };
  const subsets = (await readdir(root, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const cases: CompliBenchCase[] = [];
  const skipped = skipCounts();
  for (const subset of subsets) {
    const files = (await readdir(join(root, subset)))
      .filter((name) => /^conversation_.*\.json$/.test(name))
      .sort()
      .slice(0, limit);
    for (const file of files) {
      let raw: unknown;
      try {
        raw = JSON.parse(await readFile(join(root, subset, file), 'utf8'));
      } catch {
        skip(skipped, 'not valid JSON');
        continue;
      }
      const parsed = parseConversation(raw);
      if ('invalid' in parsed) {
        skip(skipped, parsed.invalid);
        continue;
      }
      const activityId = `complibench/${subset}/${file.replace(/\.json$/, '')}`;
      cases.push({
        subset,
        file,
        input: compliBenchInput(activityId, subset, parsed.visible),
        turnOfSegment: parsed.turnOfSegment,
        criteria: labelCriteria(parsed.visible, parsed.mistakes),
      });
    }
  }
  if (cases.length === 0 && skipped.total === 0) return { missing: 'complibench/ has no conversation_*.json in any subfolder' };
  return { source: `complibench/{${subsets.join(',')}}/conversation_*.json`, cases, skipped };
}

export interface EvidenceOnTurn {
  /** True-positive failures whose evidence includes a segment of a labelled mistake turn. */
  hits: number;
  /** True-positive failures. */
  of: number;
  share: number | null;
}

export interface FailureFigures extends BinaryFigures {
  criteria: number;
  /** Null for systems that cite no evidence (the baselines). */
  evidenceOnLabelledTurn: EvidenceOnTurn | null;
}

export interface CompliBenchFigures {
  pooled: { phases: FailureFigures; conditions: FailureFigures };
  subsets: Record<string, { phases: FailureFigures; conditions: FailureFigures }>;
  /** How well the stated confidence of the phase verdicts matches how often they are right; null for baselines. */
  phaseCalibration: Calibration | null;
}

interface Tally {
  confusion: Confusion;
  hits: number;
}

function emptyTally(): Tally {
  return { confusion: { tp: 0, fp: 0, fn: 0, tn: 0 }, hits: 0 };
}

function figures(tally: Tally, citesEvidence: boolean): FailureFigures {
  const c = tally.confusion;
  return {
    ...binaryFigures(c),
    criteria: c.tp + c.fp + c.fn + c.tn,
    evidenceOnLabelledTurn: citesEvidence ? { hits: tally.hits, of: c.tp, share: c.tp === 0 ? null : tally.hits / c.tp } : null,
  };
}

/** Failure detection over phase criteria and (extra) condition criteria, per subfolder and pooled. */
export function scoreCompliBench(cases: readonly CompliBenchCase[], predictions: readonly Prediction[], citesEvidence: boolean): CompliBenchFigures {
  const tallies = new Map<string, Record<ScoredKind, Tally>>();
  const phaseVerdicts: Judged[] = [];
  for (const [index, item] of cases.entries()) {
    const prediction = predictions[index]!;
    let subset = tallies.get(item.subset);
    if (!subset) tallies.set(item.subset, (subset = { phase: emptyTally(), condition: emptyTally() }));
    for (const criterion of item.criteria) {
      if (criterion.scored === null) continue;
      const verdict = verdictOf(prediction, criterion.groupId, criterion.criterionId);
      const predicted = saysFailed(verdict);
      const tally = subset[criterion.scored];
      const counted = confusion([{ truth: criterion.failed, predicted }]);
      if (citesEvidence && criterion.scored === 'phase' && verdict?.confidence !== undefined) phaseVerdicts.push({ confidence: verdict.confidence, correct: predicted === criterion.failed });
      tally.confusion = addConfusions([tally.confusion, counted]);
      if (counted.tp === 1 && verdict!.evidence.some((evidence) => criterion.labelledTurns.includes(item.turnOfSegment[evidence.segmentIndex] ?? Number.NaN))) {
        tally.hits += 1;
      }
    }
  }
  const pooled = { phase: emptyTally(), condition: emptyTally() };
  const subsets: CompliBenchFigures['subsets'] = {};
  for (const [name, subset] of tallies) {
    subsets[name] = { phases: figures(subset.phase, citesEvidence), conditions: figures(subset.condition, citesEvidence) };
    for (const kind of ['phase', 'condition'] as const) {
      pooled[kind].confusion = addConfusions([pooled[kind].confusion, subset[kind].confusion]);
      pooled[kind].hits += subset[kind].hits;
    }
  }
  return {
    pooled: { phases: figures(pooled.phase, citesEvidence), conditions: figures(pooled.condition, citesEvidence) },
    subsets,
    phaseCalibration: citesEvidence ? calibration(phaseVerdicts) : null,
  };
}

const everyCriterion = (passed: boolean) => (item: CompliBenchCase) => ({
  verdicts: item.criteria.map((criterion) => ({ groupId: criterion.groupId, criterionId: criterion.criterionId, passed, applicable: true, evidence: [] })),
  isSuccessful: undefined,
  summary: '',
});

/** Passing everything is also the majority: CompliBench labels a minority of the criteria failed. */
export const compliBenchBaselines: Baseline<CompliBenchCase>[] = [
  { name: 'always pass (majority)', description: 'every criterion passes', predict: everyCriterion(true) },
  { name: 'always fail', description: 'every criterion fails', predict: everyCriterion(false) },
  keywordOverlapBaseline((item) => item.criteria),
];

function failureRows(label: string, systems: readonly SystemFigures<CompliBenchFigures>[], pick: (figures: CompliBenchFigures) => FailureFigures | undefined): string[][] {
  return systems.flatMap((system) => {
    const f = pick(system.figures);
    if (!f) return [];
    const evidence = f.evidenceOnLabelledTurn;
    return [[label, system.name, fixed(f.accuracy), fixed(f.precision), fixed(f.recall), fixed(f.f1), String(f.tp), String(f.fp), String(f.fn), String(f.tn), evidence ? percent(evidence.hits, evidence.of) : '—']];
  });
}

export function compliBenchReport(size: Record<string, unknown>, systems: readonly SystemFigures<CompliBenchFigures>[]): string[] {
  const conversations = size.conversations as Record<string, number>;
  const subsets = Object.keys(conversations).filter((name) => name !== 'total');
  const header = ['set', 'system', 'acc', 'prec', 'rec', 'F1', 'tp', 'fp', 'fn', 'tn', 'evidence on labelled turn'];
  const section = (kind: 'phases' | 'conditions') => [
    ...failureRows('pooled', systems, (f) => f.pooled[kind]),
    ...(subsets.length > 1 ? subsets.flatMap((subset) => failureRows(subset, systems, (f) => f.subsets[subset]?.[kind])) : []),
  ];
  return [
    `== CompliBench (${subsets.map((subset) => `${subset} ${conversations[subset]}`).join(', ')} conversations; ${size.skipped} skipped)`,
    `  Phase criteria (Category 2): ${size.phaseCriteria} criteria, ${size.phaseFailures} labelled failures. Figures of FAILURE detection (positive = failed):`,
    ...table(header, section('phases'), 2),
    ...systems.flatMap((system) => (system.figures.phaseCalibration ? calibrationLines(`${system.name}'s phase verdicts`, system.figures.phaseCalibration) : [])),
    `  Extra — condition criteria (Category 3): ${size.conditionCriteria} criteria, ${size.conditionFailures} labelled failures:`,
    ...table(header, section('conditions'), 2),
  ];
}

export const compliBench = defineDataset<CompliBenchCase, CompliBenchFigures>({
  id: 'complibench',
  title: 'CompliBench',
  load: loadCompliBench,
  baselines: () => compliBenchBaselines,
  score: (cases, predictions, kind) => scoreCompliBench(cases, predictions, kind === 'engine'),
  size: (loaded) => {
    const conversations: Record<string, number> = {};
    let phaseCriteria = 0, phaseFailures = 0, conditionCriteria = 0, conditionFailures = 0, universalCriteria = 0;
    for (const item of loaded.cases) {
      conversations[item.subset] = (conversations[item.subset] ?? 0) + 1;
      for (const criterion of item.criteria) {
        if (criterion.scored === 'phase') [phaseCriteria, phaseFailures] = [phaseCriteria + 1, phaseFailures + Number(criterion.failed)];
        else if (criterion.scored === 'condition') [conditionCriteria, conditionFailures] = [conditionCriteria + 1, conditionFailures + Number(criterion.failed)];
        else universalCriteria += 1;
      }
    }
    conversations.total = loaded.cases.length;
    return { conversations, skipped: loaded.skipped.total, phaseCriteria, phaseFailures, conditionCriteria, conditionFailures, universalCriteria };
  },
  report: compliBenchReport,
  notes: [
    'Truth: a phase criterion fails when a labelled mistake names its phase; the engine sees only message contents and the correct guidelines.',
    'Category 3 (condition) figures are extra: CompliBench labels few of them.',
  ],
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
