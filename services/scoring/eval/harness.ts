/**
 * Runs engines and baselines over the datasets and collects their figures. Datasets are
 * independent: each loads its folder (or reports it missing), asks every engine to judge every
 * activity in order, computes its baselines on the same activities, and scores them all the same
 * way. Nothing here prints; progress goes to the callback.
 */
import type { EvaluationEngine } from '../src/engines/evaluation-engine.js';
import { EMPTY_PREDICTION, predictionOf, type Baseline, type EngineRun, type EvalCase, type Prediction } from './systems.js';

export interface RunContext {
  datasetsDir: string;
  engines: readonly EvaluationEngine[];
  /** At most this many activities per dataset (CompliBench: per folder); undefined: all. */
  limit: number | undefined;
  progress: (line: string) => void;
  signal: AbortSignal;
}

export interface SkipCounts {
  total: number;
  /** Why, and how many. */
  reasons: Record<string, number>;
}

export function skipCounts(): SkipCounts {
  return { total: 0, reasons: {} };
}

export function skip(counts: SkipCounts, reason: string): void {
  counts.total += 1;
  counts.reasons[reason] = (counts.reasons[reason] ?? 0) + 1;
}

export interface Loaded<C> {
  /** The files read, relative to the datasets folder. */
  source: string;
  cases: C[];
  skipped: SkipCounts;
}

export interface Missing {
  missing: string;
}

export interface SystemFigures<F> {
  name: string;
  kind: 'engine' | 'baseline';
  /** Baselines: what they predict. */
  description: string;
  figures: F;
}

export interface DatasetDefinition<C extends EvalCase, F> {
  id: string;
  title: string;
  load(datasetsDir: string, limit: number | undefined): Promise<Loaded<C> | Missing>;
  baselines(cases: readonly C[]): Baseline<C>[];
  /** `kind`: baselines cite no evidence, so evidence figures are not defined for them. */
  score(cases: readonly C[], predictions: readonly Prediction[], kind: 'engine' | 'baseline'): F;
  size(loaded: Loaded<C>): Record<string, unknown>;
  /** Lines for the terminal, figures of every system side by side. */
  report(size: Record<string, unknown>, systems: readonly SystemFigures<F>[]): string[];
  /** What a reader must know about these figures (printed and written). */
  notes: readonly string[];
  /** Anything else worth keeping beside the figures (QMSum's published baselines). */
  reference?: unknown;
}

export type DatasetResult =
  | { id: string; title: string; status: 'skipped'; reason: string }
  | {
      id: string;
      title: string;
      status: 'ok';
      source: string;
      size: Record<string, unknown>;
      skipped: SkipCounts;
      notes: readonly string[];
      reference?: unknown;
      systems: SystemFigures<unknown>[];
      engineRuns: EngineRun[];
    };

export interface Dataset {
  id: string;
  title: string;
  run(context: RunContext): Promise<{ result: DatasetResult; report: string[] }>;
}

export function defineDataset<C extends EvalCase, F>(definition: DatasetDefinition<C, F>): Dataset {
  return {
    id: definition.id,
    title: definition.title,
    async run(context) {
      const { id, title } = definition;
      const loaded = await definition.load(context.datasetsDir, context.limit);
      if ('missing' in loaded) {
        context.progress(`${id}: skipped (${loaded.missing})`);
        return { result: { id, title, status: 'skipped', reason: loaded.missing }, report: [`== ${title}: skipped (${loaded.missing})`] };
      }
      context.progress(`${id}: ${loaded.cases.length} activities from ${loaded.source}${loaded.skipped.total ? `, ${loaded.skipped.total} skipped` : ''}`);
      const systems: SystemFigures<F>[] = [];
      const engineRuns: EngineRun[] = [];
      for (const engine of context.engines) {
        const { predictions, run } = await runEngine(engine, loaded.cases, context, id);
        engineRuns.push(run);
        systems.push({ name: engine.name, kind: 'engine', description: '', figures: definition.score(loaded.cases, predictions, 'engine') });
      }
      for (const baseline of definition.baselines(loaded.cases)) {
        const predictions = loaded.cases.map((item) => baseline.predict(item));
        systems.push({ name: baseline.name, kind: 'baseline', description: baseline.description, figures: definition.score(loaded.cases, predictions, 'baseline') });
      }
      const size = definition.size(loaded);
      const result: DatasetResult = {
        id,
        title,
        status: 'ok',
        source: loaded.source,
        size,
        skipped: loaded.skipped,
        notes: definition.notes,
        ...(definition.reference === undefined ? {} : { reference: definition.reference }),
        systems,
        engineRuns,
      };
      return { result, report: [...definition.report(size, systems), ...engineLines(engineRuns), ...definition.notes.map((note) => `  note: ${note}`)] };
    },
  };
}

/** Judges every case in order, one at a time (deterministic, and the figures do not depend on timing). */
export async function runEngine(
  engine: EvaluationEngine,
  cases: readonly EvalCase[],
  context: Pick<RunContext, 'progress' | 'signal'>,
  datasetId: string,
): Promise<{ predictions: Prediction[]; run: EngineRun }> {
  const predictions: Prediction[] = [];
  const run: EngineRun = {
    engine: engine.name,
    activities: cases.length,
    totalMs: 0,
    meanMs: 0,
    maxMs: 0,
    errors: 0,
    firstErrors: [],
    fallbacks: 0,
    judgedBy: {},
    insightTokens: 0,
    missingVerdicts: 0,
  };
  const step = Math.max(1, Math.ceil(cases.length / 10));
  for (const [index, item] of cases.entries()) {
    context.signal.throwIfAborted();
    const started = performance.now();
    try {
      // A transcript object of its own for each engine: the offline engine remembers what it read
      // of one, and an engine run second would otherwise be timed reading nothing.
      const judgement = await engine.judge({ ...item.input, transcript: { ...item.input.transcript } }, context.signal);
      const elapsed = performance.now() - started;
      run.totalMs += elapsed;
      run.maxMs = Math.max(run.maxMs, elapsed);
      run.judgedBy[judgement.engine] = (run.judgedBy[judgement.engine] ?? 0) + 1;
      if (judgement.fallbackReason) run.fallbacks += 1;
      run.insightTokens += judgement.insightTokens;
      const judged = new Set(judgement.verdicts.map((verdict) => `${verdict.groupId}\u0000${verdict.criterionId}`));
      for (const group of item.input.team.criteriaGroups) {
        for (const criterion of group.criteria) if (!judged.has(`${group.id}\u0000${criterion.id}`)) run.missingVerdicts += 1;
      }
      predictions.push(predictionOf(judgement));
    } catch (error) {
      if (context.signal.aborted) throw error;
      const elapsed = performance.now() - started;
      run.totalMs += elapsed;
      run.maxMs = Math.max(run.maxMs, elapsed);
      run.errors += 1;
      if (run.firstErrors.length < 3) run.firstErrors.push(`${item.input.activityId}: ${error instanceof Error ? error.message : String(error)}`);
      predictions.push(EMPTY_PREDICTION);
    }
    if ((index + 1) % step === 0 || index + 1 === cases.length) context.progress(`${datasetId}: ${engine.name} ${index + 1}/${cases.length}`);
  }
  run.totalMs = round1(run.totalMs);
  run.maxMs = round1(run.maxMs);
  run.meanMs = cases.length ? round1(run.totalMs / cases.length) : 0;
  return { predictions, run };
}

function engineLines(runs: readonly EngineRun[]): string[] {
  return runs.map((run) => {
    const issues = [
      run.errors ? `${run.errors} errors (first: ${run.firstErrors[0]})` : '',
      run.fallbacks ? `${run.fallbacks} fell back to the offline engine` : '',
      run.missingVerdicts ? `${run.missingVerdicts} verdicts missing` : '',
      run.insightTokens ? `${run.insightTokens} insight tokens` : '',
    ].filter(Boolean);
    const time = run.totalMs >= 1000 ? `${(run.totalMs / 1000).toFixed(1)} s` : `${run.totalMs.toFixed(0)} ms`;
    return `  time: ${run.engine} ${time} for ${run.activities} activities (mean ${run.meanMs.toFixed(1)} ms, max ${run.maxMs.toFixed(1)} ms)${issues.length ? `; ${issues.join('; ')}` : ''}`;
  });
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

export interface EvalResults {
  datasetsDir: string;
  engines: string[];
  options: { only: string[]; limit: number | null };
  datasets: DatasetResult[];
}

/** Every selected dataset in turn. */
export async function runEval(datasets: readonly Dataset[], context: RunContext): Promise<{ results: EvalResults; report: string[] }> {
  const results: DatasetResult[] = [];
  const report: string[] = [];
  for (const dataset of datasets) {
    const { result, report: lines } = await dataset.run(context);
    results.push(result);
    report.push(...lines, '');
  }
  return {
    results: {
      datasetsDir: context.datasetsDir,
      engines: context.engines.map((engine) => engine.name),
      options: { only: datasets.map((dataset) => dataset.id), limit: context.limit ?? null },
      datasets: results,
    },
    report,
  };
}
