/** `make eval` flags, pure. */
import { parseArgs } from 'node:util';

export type EngineChoice = 'offline' | 'chat' | 'all';

export interface EvalOptions {
  datasetsDir: string;
  /** Undefined: offline, plus chat when SCORING_LLM_URL is set. */
  engine: EngineChoice | undefined;
  /** Dataset ids to run; all when empty. */
  only: string[];
  limit: number | undefined;
  out: string;
  help: boolean;
}

export const USAGE = `usage: make eval [DATASETS=<dir>] [ARGS="<flags>"]
   or: node --import tsx services/scoring/eval/run-eval.ts [flags]
  --datasets <dir>      folder laid out like shared/datasets (default ../shared/datasets from the repo root)
  --engine <which>      offline, chat or all (default: offline, plus chat when SCORING_LLM_URL is set)
  --only <ids>          comma-separated: complibench, persuasionforgood, qmsum, abcd
  --limit <n>           at most n activities per dataset (CompliBench: per folder), for quick runs
  --out <file>          where to write the results (default eval-results.json in the repo root)`;

export class UsageError extends Error {}

export function parseEvalOptions(argv: readonly string[], defaults: { datasetsDir: string; out: string }, knownDatasets: readonly string[]): EvalOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        datasets: { type: 'string' },
        engine: { type: 'string' },
        only: { type: 'string' },
        limit: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const engine = values.engine;
  if (engine !== undefined && engine !== 'offline' && engine !== 'chat' && engine !== 'all') throw new UsageError(`--engine must be offline, chat or all, not "${engine}"`);
  const only = (values.only ?? '')
    .split(',')
    .map((id) => id.trim().toLowerCase())
    .filter(Boolean);
  const unknown = only.filter((id) => !knownDatasets.includes(id));
  if (unknown.length > 0) throw new UsageError(`--only: unknown dataset ${unknown.join(', ')} (known: ${knownDatasets.join(', ')})`);
  let limit: number | undefined;
  if (values.limit !== undefined) {
    limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit must be a whole number of at least 1, not "${values.limit}"`);
  }
  return {
    datasetsDir: values.datasets?.trim() || defaults.datasetsDir,
    engine,
    only: [...new Set(only)],
    limit,
    out: values.out?.trim() || defaults.out,
    help: values.help ?? false,
  };
}

/** Which engines to run: `chat` needs SCORING_LLM_URL. */
export function enginesToRun(choice: EngineChoice | undefined, chatConfigured: boolean): { offline: boolean; chat: boolean } {
  if (choice === undefined) return { offline: true, chat: chatConfigured };
  if (choice !== 'offline' && !chatConfigured) throw new UsageError(`--engine ${choice} needs SCORING_LLM_URL (and SCORING_LLM_MODEL) set`);
  return { offline: choice !== 'chat', chat: choice !== 'offline' };
}
