/**
 * `make eval`: measures the evaluation engines on real conversations labelled by other people
 * (see README.md here), beside baselines computed in the same run. Figures to stdout, progress to
 * stderr, everything to eval-results.json in the repo root.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@parlance/platform/logger';
import { loadScoringConfig } from '../src/config.js';
import type { EvaluationEngine } from '../src/engines/evaluation-engine.js';
import { createOfflineEngine } from '../src/offline/offline-engine.js';
import { loadSentenceEncoder } from '../src/semantic/sentence-encoder.js';
import { enginesToRun, parseEvalOptions, USAGE, UsageError } from './cli-options.js';
import { DATASETS } from './datasets/index.js';
import { runEval } from './harness.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

async function main(): Promise<number> {
  const known = DATASETS.map((dataset) => dataset.id);
  let options;
  let which;
  try {
    options = parseEvalOptions(process.argv.slice(2), { datasetsDir: '../shared/datasets', out: 'eval-results.json' }, known);
    if (options.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    which = enginesToRun(options.engine, Boolean(process.env.SCORING_LLM_URL));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`eval: ${error.message}\n${USAGE}\n`);
    return 2;
  }

  const offline = createOfflineEngine();
  // With and without the sentence-embedding model, side by side.
  const engines: EvaluationEngine[] = which.offline ? [offline, createOfflineEngine({ encoder: () => loadSentenceEncoder() })] : [];
  if (which.chat) {
    // Loaded only when asked for, so an offline run never depends on the chat engine's code.
    const { createEvaluationEngine } = await import('../src/engines/create-evaluation-engine.js');
    // Chat-engine logs (retries, fallbacks) go to stderr with the progress; stdout keeps the figures.
    const logger = createLogger({ service: 'scoring-eval', level: process.env.LOG_LEVEL ?? 'warn', pretty: false, destination: process.stderr });
    engines.push(createEvaluationEngine(loadScoringConfig(process.env).evaluation, logger, offline));
  }

  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort(new Error('interrupted')));
  const selected = options.only.length ? DATASETS.filter((dataset) => options.only.includes(dataset.id)) : DATASETS;
  const datasetsDir = resolve(repoRoot, options.datasetsDir);
  const { results, report } = await runEval(selected, {
    datasetsDir,
    engines,
    limit: options.limit,
    progress: (line) => process.stderr.write(`eval: ${line}\n`),
    signal: abort.signal,
  });
  results.datasetsDir = options.datasetsDir;

  const out = resolve(repoRoot, options.out);
  await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(
    [
      `Parlance evaluation — engines: ${results.engines.join(', ') || 'none'}; datasets: ${options.datasetsDir}${options.limit ? `; at most ${options.limit} activities per dataset` : ''}`,
      'Public conversations labelled by other people; baselines computed in the same run. Mapping and caveats: services/scoring/eval/README.md',
      '',
      ...report,
      `results: ${relative(process.cwd(), out) || out}`,
    ].join('\n') + '\n',
  );
  return 0;
}

process.exitCode = await main();
