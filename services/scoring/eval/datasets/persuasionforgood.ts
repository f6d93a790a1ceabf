/**
 * PersuasionForGood (Wang et al. 2019): one persuader tries to get one persuadee to donate to Save
 * the Children; full_info.csv holds what each actually gave afterwards (B6). Outcome prediction
 * from the transcript alone. Mapping: see ../README.md.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import { outcomeFigures, type OutcomeFigures } from '../metrics/classification.js';
import { atLeastHalfPresent, tokenSet } from '../metrics/content-words.js';
import { calibration, type Calibration } from '../metrics/calibration.js';
import { calibrationLines, fixed, table } from '../format.js';
import { defineDataset, skip, skipCounts, type Loaded, type Missing, type SystemFigures } from '../harness.js';
import type { Baseline, EvalCase, Prediction } from '../systems.js';
import { buildInput, textsOfRole, type Turn } from './activity.js';
import { csvRecords } from './csv.js';
import { isFile } from './files.js';

export const DONATION_PROMPT = 'The contact agrees to donate to Save the Children.';

export interface PersuasionCase extends EvalCase {
  dialogueId: string;
  /** The persuadee's actual donation (B6) was above zero. */
  successful: boolean;
}

export interface DialogueRow {
  dialogueId: string;
  turn: number;
  role: number;
  unit: string;
}

/**
 * A dialogue's turns: rows ordered by Turn, then by their order in the file; consecutive
 * sentences of one role within one turn joined (with a space) into one segment.
 */
export function dialogueTurns(rows: readonly DialogueRow[]): Turn[] {
  const ordered = rows.map((row, order) => ({ row, order })).sort((a, b) => a.row.turn - b.row.turn || a.order - b.order);
  const turns: (Turn & { turn: number })[] = [];
  for (const { row } of ordered) {
    const last = turns.at(-1);
    const speaker = row.role === 0 ? 'Persuader' : 'Persuadee';
    if (last && last.turn === row.turn && last.speaker === speaker) last.text = `${last.text} ${row.unit}`;
    else turns.push({ speaker, role: row.role === 0 ? SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE : SpeakerRole.SPEAKER_ROLE_CONTACT, text: row.unit, turn: row.turn });
  }
  return turns.map(({ speaker, role, text }) => ({ speaker, role, text }));
}

export function persuasionInput(dialogueId: string, turns: readonly Turn[]) {
  return buildInput({
    activityId: `persuasionforgood/${dialogueId}`,
    kind: 'call',
    turns,
    sourceFormat: 'persuasionforgood',
    team: { id: 'persuasionforgood', name: 'Save the Children donations', department: 'sales', groups: [], successPrompt: DONATION_PROMPT },
    representative: { email: 'persuader@persuasionforgood.example', name: 'Persuader' },
  });
}

/** Builds the activities from the two CSV texts; dialogues in order of first appearance. */
export function persuasionCases(dialogCsv: string, infoCsv: string, limit: number | undefined): { cases: PersuasionCase[]; skipped: ReturnType<typeof skipCounts> } {
  const donations = new Map<string, string>();
  for (const record of csvRecords(infoCsv)) {
    if (Number(record.B4) === 1 && !donations.has(record.B2 ?? '')) donations.set(record.B2 ?? '', record.B6 ?? '');
  }
  const dialogues = new Map<string, DialogueRow[]>();
  for (const record of csvRecords(dialogCsv)) {
    const dialogueId = record.B2 ?? '';
    let rows = dialogues.get(dialogueId);
    if (!rows) dialogues.set(dialogueId, (rows = []));
    rows.push({ dialogueId, turn: Number(record.Turn), role: Number(record.B4), unit: record.Unit ?? '' });
  }
  const cases: PersuasionCase[] = [];
  const skipped = skipCounts();
  for (const [dialogueId, rows] of dialogues) {
    if (limit !== undefined && cases.length >= limit) break;
    const donation = donations.get(dialogueId);
    if (donation === undefined) {
      skip(skipped, 'no persuadee row (B4 = 1) in full_info.csv');
      continue;
    }
    if (donation.trim() === '' || !Number.isFinite(Number(donation))) {
      skip(skipped, "the persuadee's B6 is not a number");
      continue;
    }
    if (rows.some((row) => (row.role !== 0 && row.role !== 1) || !Number.isFinite(row.turn))) {
      skip(skipped, 'a row whose role (B4) is not 0 or 1, or whose Turn is not a number');
      continue;
    }
    cases.push({ dialogueId, successful: Number(donation) > 0, input: persuasionInput(dialogueId, dialogueTurns(rows)) });
  }
  return { cases, skipped };
}

export async function loadPersuasion(datasetsDir: string, limit: number | undefined): Promise<Loaded<PersuasionCase> | Missing> {
  const dialogPath = join(datasetsDir, 'persuasionforgood', 'full_dialog.csv');
  const infoPath = join(datasetsDir, 'persuasionforgood', 'full_info.csv');
  if (!(await isFile(dialogPath)) || !(await isFile(infoPath))) return { missing: 'no persuasionforgood/full_dialog.csv and full_info.csv' };
  const { cases, skipped } = persuasionCases(await readFile(dialogPath, 'utf8'), await readFile(infoPath, 'utf8'), limit);
  return { source: 'persuasionforgood/{full_dialog,full_info}.csv', cases, skipped };
}

export interface PersuasionFigures extends OutcomeFigures {
  /** How well the stated confidence of the success verdicts matches how often they are right; null for baselines. */
  calibration: Calibration | null;
}

export function scorePersuasion(cases: readonly PersuasionCase[], predictions: readonly Prediction[], kind: 'engine' | 'baseline' = 'engine'): PersuasionFigures {
  const outcomes = cases.map((item, index) => ({ truth: item.successful, predicted: predictions[index]!.isSuccessful, confidence: predictions[index]!.successConfidence }));
  const judged = outcomes.flatMap(({ truth, predicted, confidence }) => (predicted === undefined || confidence === undefined ? [] : [{ confidence, correct: predicted === truth }]));
  return { ...outcomeFigures(outcomes), calibration: kind === 'engine' ? calibration(judged) : null };
}

/** The more frequent truth label of these dialogues (a tie: successful). */
export function majorityLabel(cases: readonly PersuasionCase[]): boolean {
  const successful = cases.filter((item) => item.successful).length;
  return successful * 2 >= cases.length;
}

export function persuasionBaselines(cases: readonly PersuasionCase[]): Baseline<PersuasionCase>[] {
  const majority = majorityLabel(cases);
  const always = (successful: boolean): Baseline<PersuasionCase> => {
    const count = cases.filter((item) => item.successful === successful).length;
    return {
      name: `always ${successful ? 'successful' : 'unsuccessful'}${successful === majority ? ' (majority)' : ''}`,
      description: `every dialogue ${successful ? 'successful' : 'unsuccessful'}: right for ${count} of ${cases.length}`,
      predict: () => ({ verdicts: [], isSuccessful: successful, summary: '' }),
    };
  };
  return [
    always(majority),
    always(!majority),
    {
      name: 'keyword-overlap',
      description: "successful when at least half of the success prompt's content words appear in the persuadee's turns",
      predict: (item) => ({
        verdicts: [],
        isSuccessful: atLeastHalfPresent(item.input.team.successPrompt, tokenSet(textsOfRole(item.input, SpeakerRole.SPEAKER_ROLE_CONTACT))),
        summary: '',
      }),
    },
  ];
}

export function persuasionReport(size: Record<string, unknown>, systems: readonly SystemFigures<PersuasionFigures>[]): string[] {
  const rows = systems.map(({ name, figures: f }) => [
    name,
    fixed(f.accuracy),
    fixed(f.macroF1),
    fixed(f.f1Positive),
    fixed(f.f1Negative),
    String(f.tp),
    String(f.fp),
    String(f.fn),
    String(f.tn),
    String(f.na),
  ]);
  return [
    `== PersuasionForGood (${size.dialogues} dialogues: ${size.successful} successful, ${size.unsuccessful} not; ${size.skipped} skipped)`,
    `  Success verdict against "donated more than 0" (positive = successful; N/A counts as wrong):`,
    ...table(['system', 'acc', 'macro-F1', 'F1 succ', 'F1 unsucc', 'tp', 'fp', 'fn', 'tn', 'N/A'], rows),
    ...systems.flatMap((system) => (system.figures.calibration ? calibrationLines(`${system.name}'s success verdicts`, system.figures.calibration) : [])),
  ];
}

export const persuasionForGood = defineDataset<PersuasionCase, PersuasionFigures>({
  id: 'persuasionforgood',
  title: 'PersuasionForGood',
  load: loadPersuasion,
  baselines: persuasionBaselines,
  score: (cases, predictions, kind) => scorePersuasion(cases, predictions, kind),
  size: (loaded) => {
    const successful = loaded.cases.filter((item) => item.successful).length;
    return { dialogues: loaded.cases.length, successful, unsuccessful: loaded.cases.length - successful, skipped: loaded.skipped.total, majorityLabel: majorityLabel(loaded.cases) ? 'successful' : 'unsuccessful' };
  },
  report: persuasionReport,
  notes: [`Success prompt: "${DONATION_PROMPT}" Truth: the persuadee's actual donation (B6) is above 0.`],
});
