/**
 * QMSum (Zhong et al. 2021), test split: real meetings (AMI, ICSI, parliamentary committees) with
 * human-written summaries. ROUGE of Judgement.summary.text against the general summary.
 * Mapping: see ../README.md.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import { rougeScores, rougeTokens, type RougeScores } from '../metrics/rouge.js';
import { fixed, table } from '../format.js';
import { defineDataset, skip, skipCounts, type Loaded, type Missing, type SkipCounts, type SystemFigures } from '../harness.js';
import type { Baseline, EvalCase, Prediction } from '../systems.js';
import { buildInput, type Turn } from './activity.js';
import { isFile } from './files.js';

/** ROUGE-1/2/L F1 published for this split, as datasets/README.md gives them; printed for reference, not computed here. */
export const PUBLISHED_BASELINES: readonly ({ name: string } & RougeScores)[] = [
  { name: 'Random', rouge1: 12.03, rouge2: 1.32, rougeL: 11.76 },
  { name: 'TextRank', rouge1: 16.27, rouge2: 2.69, rougeL: 15.41 },
  { name: 'BART', rouge1: 29.2, rouge2: 6.37, rougeL: 25.49 },
  { name: 'extractive oracle', rouge1: 42.84, rouge2: 16.86, rougeL: 39.2 },
];

export interface MeetingCase extends EvalCase {
  /** general_query_list[0].answer */
  reference: string;
}

/** One meeting (a line of test.jsonl): its activity, or why it cannot be used. */
export function meetingCase(raw: unknown, line: number): MeetingCase | { invalid: string } {
  if (typeof raw !== 'object' || raw === null) return { invalid: 'not a JSON object' };
  const record = raw as { meeting_transcripts?: unknown; general_query_list?: unknown };
  const first = Array.isArray(record.general_query_list) ? (record.general_query_list[0] as { answer?: unknown } | undefined) : undefined;
  if (typeof first?.answer !== 'string' || first.answer.trim() === '') return { invalid: 'no general_query_list[0].answer' };
  const utterances = Array.isArray(record.meeting_transcripts) ? record.meeting_transcripts : [];
  const turns: Turn[] = [];
  let firstSpeaker: string | undefined;
  for (const utterance of utterances as { speaker?: unknown; content?: unknown }[]) {
    if (typeof utterance?.speaker !== 'string' || typeof utterance.content !== 'string') continue;
    firstSpeaker ??= utterance.speaker;
    const role = utterance.speaker === firstSpeaker ? SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE : SpeakerRole.SPEAKER_ROLE_CONTACT;
    turns.push({ speaker: utterance.speaker, role, text: utterance.content });
  }
  if (turns.length === 0) return { invalid: 'no meeting_transcripts' };
  const activityId = `qmsum/test-${line}`;
  return {
    reference: first.answer,
    input: buildInput({
      activityId,
      kind: 'meeting',
      turns,
      sourceFormat: 'qmsum',
      team: { id: 'qmsum', name: 'QMSum meetings', department: 'sales', groups: [], successPrompt: '' },
      representative: { email: 'chair@qmsum.example', name: firstSpeaker! },
    }),
  };
}

export function meetingCases(jsonl: string, limit: number | undefined): { cases: MeetingCase[]; skipped: SkipCounts } {
  const cases: MeetingCase[] = [];
  const skipped = skipCounts();
  for (const [index, line] of jsonl.split('\n').entries()) {
    if (line.trim() === '') continue;
    if (limit !== undefined && cases.length >= limit) break;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      skip(skipped, 'a line that is not JSON');
      continue;
    }
    const parsed = meetingCase(raw, index + 1);
    if ('invalid' in parsed) skip(skipped, parsed.invalid);
    else cases.push(parsed);
  }
  return { cases, skipped };
}

export async function loadQmsum(datasetsDir: string, limit: number | undefined): Promise<Loaded<MeetingCase> | Missing> {
  const path = join(datasetsDir, 'qmsum', 'test.jsonl');
  if (!(await isFile(path))) return { missing: 'no qmsum/test.jsonl' };
  const { cases, skipped } = meetingCases(await readFile(path, 'utf8'), limit);
  return { source: 'qmsum/test.jsonl', cases, skipped };
}

export interface QmsumFigures extends RougeScores {
  meetings: number;
  /** Mean summary length, in ROUGE tokens. */
  meanSummaryWords: number;
  /** Meetings whose summary was empty (ROUGE 0). */
  emptySummaries: number;
}

export function scoreQmsum(cases: readonly MeetingCase[], predictions: readonly Prediction[]): QmsumFigures {
  const total = { rouge1: 0, rouge2: 0, rougeL: 0, words: 0, empty: 0 };
  for (const [index, item] of cases.entries()) {
    const summary = predictions[index]!.summary;
    const scores = rougeScores(summary, item.reference);
    total.rouge1 += scores.rouge1;
    total.rouge2 += scores.rouge2;
    total.rougeL += scores.rougeL;
    const words = rougeTokens(summary).length;
    total.words += words;
    if (words === 0) total.empty += 1;
  }
  const mean = (value: number) => (cases.length === 0 ? 0 : value / cases.length);
  return { meetings: cases.length, rouge1: mean(total.rouge1), rouge2: mean(total.rouge2), rougeL: mean(total.rougeL), meanSummaryWords: mean(total.words), emptySummaries: total.empty };
}

/** The first N words of the transcript (N = the reference's length), words as ROUGE counts them. */
export function leadSummary(item: MeetingCase): string {
  const words = rougeTokens(item.input.transcript.segments.map((segment) => segment.text).join(' '));
  return words.slice(0, rougeTokens(item.reference).length).join(' ');
}

export const qmsumBaselines: Baseline<MeetingCase>[] = [
  {
    name: 'LEAD',
    description: "the first N words of the transcript, N = the reference's length in words",
    predict: (item) => ({ verdicts: [], isSuccessful: undefined, summary: leadSummary(item) }),
  },
];

export function qmsumReport(size: Record<string, unknown>, systems: readonly SystemFigures<QmsumFigures>[]): string[] {
  const rows = systems.map(({ name, figures: f }) => [name, fixed(f.rouge1, 2), fixed(f.rouge2, 2), fixed(f.rougeL, 2), fixed(f.meanSummaryWords, 0)]);
  const published = PUBLISHED_BASELINES.map((p) => [`${p.name} (published)`, fixed(p.rouge1, 2), fixed(p.rouge2, 2), fixed(p.rougeL, 2), '']);
  return [
    `== QMSum (${size.meetings} meetings; reference: general summary, mean ${fixed(size.meanReferenceWords as number, 0)} words; ${size.skipped} skipped)`,
    '  ROUGE F1 ×100 of the summary against the human general summary (mean over meetings):',
    ...table(['system', 'R-1', 'R-2', 'R-L', 'words'], [...rows, ...published]),
  ];
}

export const qmsum = defineDataset<MeetingCase, QmsumFigures>({
  id: 'qmsum',
  title: 'QMSum',
  load: loadQmsum,
  baselines: () => qmsumBaselines,
  score: scoreQmsum,
  size: (loaded) => ({
    meetings: loaded.cases.length,
    skipped: loaded.skipped.total,
    meanReferenceWords: loaded.cases.length ? loaded.cases.reduce((sum, item) => sum + rougeTokens(item.reference).length, 0) / loaded.cases.length : 0,
  }),
  report: qmsumReport,
  notes: [
    'The published figures are copied from datasets/README.md, measured by others with their own ROUGE setup: compare with care. Ours: tokens [a-z0-9]+ after lower-casing, no stemming.',
  ],
  reference: { publishedBaselines: PUBLISHED_BASELINES },
});
