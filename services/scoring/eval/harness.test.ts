import { afterAll, describe, expect, it } from 'vitest';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import type { EvaluationEngine, EvaluationInput, Judgement } from '../src/engines/evaluation-engine.js';
import { DATASETS } from './datasets/index.js';
import { runEval, type DatasetResult, type RunContext } from './harness.js';
import { removeDatasets, writeDatasets } from './testing/fixtures.js';

afterAll(removeDatasets);

/**
 * A tiny engine for these tests: fails a criterion whose prompt mentions "booking", citing the
 * Agent segment that mentions "card"; successful when the contact says "donate"; summarises with
 * the first segment.
 */
function testEngine(name = 'test-engine', failOn?: string): EvaluationEngine {
  return {
    name,
    async judge(input: EvaluationInput, signal: AbortSignal): Promise<Judgement> {
      signal.throwIfAborted();
      if (failOn && input.activityId === failOn) throw new Error('the test engine cannot judge this one');
      const segments = input.transcript.segments;
      const contact = new Set(input.transcript.speakers.filter((s) => s.role === SpeakerRole.SPEAKER_ROLE_CONTACT).map((s) => s.label));
      const cardAt = segments.findIndex((segment) => segment.text.includes('card'));
      return {
        verdicts: input.team.criteriaGroups.flatMap((group) =>
          group.criteria.map((criterion) => {
            const failed = criterion.prompt.includes('booking');
            return {
              groupId: group.id,
              criterionId: criterion.id,
              groupName: group.name,
              criterionName: criterion.name,
              weight: criterion.weight,
              passed: !failed,
              applicable: true,
              confidence: 0.5,
              reason: '',
              expected: '',
              suggestion: '',
              evidence: failed && cardAt >= 0 ? [{ quote: 'card', segmentIndex: cardAt, speaker: segments[cardAt]!.speaker, role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE }] : [],
            };
          }),
        ),
        success: {
          isSuccessful: input.team.successPrompt ? segments.some((s) => contact.has(s.speaker) && s.text.includes('donate')) : undefined,
          reason: '',
          confidence: 0.5,
          evidence: [],
        },
        summary: { text: segments[0]?.text ?? '', participants: [], discussion: '', outcome: '', nextSteps: [] },
        engine: name,
        fallbackReason: '',
        insightTokens: 0,
        warnings: [],
      };
    },
  };
}

async function run(engines: EvaluationEngine[], options: Partial<RunContext> & { without?: string[] } = {}) {
  const progress: string[] = [];
  const outcome = await runEval(DATASETS, {
    datasetsDir: options.datasetsDir ?? (await writeDatasets(options.without)),
    engines,
    limit: options.limit,
    progress: (line) => progress.push(line),
    signal: options.signal ?? new AbortController().signal,
  });
  return { ...outcome, progress };
}

function ok(result: DatasetResult | undefined) {
  if (result?.status !== 'ok') throw new Error(`expected figures, got ${JSON.stringify(result)}`);
  return result;
}

describe('runEval', () => {
  it('runs every dataset, with the engine beside the baselines computed in the same run', async () => {
    const { results } = await run([testEngine()]);
    expect(results.engines).toEqual(['test-engine']);
    expect(results.datasets.map((d) => [d.id, d.status])).toEqual([
      ['complibench', 'ok'],
      ['persuasionforgood', 'ok'],
      ['qmsum', 'ok'],
      ['abcd', 'ok'],
    ]);
    const systems = (id: string) => ok(results.datasets.find((d) => d.id === id)).systems.map((s) => [s.name, s.kind]);
    expect(systems('complibench')).toEqual([
      ['test-engine', 'engine'],
      ['always pass (majority)', 'baseline'],
      ['always fail', 'baseline'],
      ['keyword-overlap', 'baseline'],
    ]);
    expect(systems('persuasionforgood')).toEqual([
      ['test-engine', 'engine'],
      ['always successful (majority)', 'baseline'],
      ['always unsuccessful', 'baseline'],
      ['keyword-overlap', 'baseline'],
    ]);
    expect(systems('qmsum')).toEqual([
      ['test-engine', 'engine'],
      ['LEAD', 'baseline'],
    ]);
  });

  it('measures the engine on the labels: phase failures, evidence on the labelled turn, success, ROUGE', async () => {
    const { results } = await run([testEngine()]);
    const complibench = ok(results.datasets[0]);
    expect(complibench.size).toMatchObject({ conversations: { airlines: 2, insurance: 1, total: 3 }, phaseCriteria: 9, phaseFailures: 2 });
    expect(complibench.systems[0]!.figures).toMatchObject({
      pooled: { phases: { tp: 2, fp: 1, fn: 0, tn: 6, evidenceOnLabelledTurn: { hits: 2, of: 2, share: 1 } } },
    });
    expect(ok(results.datasets[1]).systems[0]!.figures).toMatchObject({ accuracy: 1, tp: 1, tn: 1 });
    expect(ok(results.datasets[2]).systems[0]!.figures).toMatchObject({ meetings: 2 });
  });

  it('reports missing datasets as skipped, not as errors', async () => {
    const { results, report } = await run([testEngine()], { without: ['qmsum', 'abcd'] });
    expect(results.datasets.slice(2)).toEqual([
      { id: 'qmsum', title: 'QMSum', status: 'skipped', reason: 'no qmsum/test.jsonl' },
      { id: 'abcd', title: 'ABCD', status: 'skipped', reason: 'no abcd/abcd_sample.json' },
    ]);
    expect(report).toContain('== QMSum: skipped (no qmsum/test.jsonl)');
  });

  it('skips every dataset of a folder that does not exist', async () => {
    const { results } = await run([testEngine()], { datasetsDir: '/nonexistent/datasets' });
    expect(results.datasets.every((d) => d.status === 'skipped')).toBe(true);
  });

  it('records timings, engine names and sizes, and counts an activity the engine could not judge without stopping', async () => {
    const { results } = await run([testEngine('flaky', 'persuasionforgood/d1'), testEngine('steady')]);
    const persuasion = ok(results.datasets[1]);
    expect(persuasion.engineRuns.map((r) => [r.engine, r.activities, r.errors, r.judgedBy])).toEqual([
      ['flaky', 2, 1, { flaky: 1 }],
      ['steady', 2, 0, { steady: 2 }],
    ]);
    expect(persuasion.engineRuns[0]!.firstErrors).toEqual(['persuasionforgood/d1: the test engine cannot judge this one']);
    expect(persuasion.systems[0]!.figures).toMatchObject({ na: 1 });
    for (const r of persuasion.engineRuns) expect(r.totalMs).toBeGreaterThanOrEqual(0);
    expect(persuasion.size).toEqual({ dialogues: 2, successful: 1, unsuccessful: 1, skipped: 1, majorityLabel: 'successful' });
  });

  it('honours --limit', async () => {
    const { results } = await run([testEngine()], { limit: 1 });
    expect(results.datasets.map((d) => ok(d).engineRuns[0]!.activities)).toEqual([2, 1, 1, 1]);
    expect(results.options.limit).toBe(1);
  });

  it('gives the same figures on every run, and output that survives JSON', async () => {
    const withoutTimes = (value: unknown) => JSON.parse(JSON.stringify(value, (key, v) => (/Ms$/.test(key) ? 0 : v)));
    const datasetsDir = await writeDatasets();
    const first = await run([testEngine()], { datasetsDir });
    const second = await run([testEngine()], { datasetsDir });
    expect(withoutTimes(first.results)).toEqual(withoutTimes(second.results));
  });

  it('stops when the signal aborts', async () => {
    const abort = new AbortController();
    abort.abort(new Error('interrupted'));
    await expect(run([testEngine()], { signal: abort.signal })).rejects.toThrow('interrupted');
  });

  it('prints each dataset with the engine and baselines side by side, and progress separately', async () => {
    const { report, progress } = await run([testEngine()]);
    const text = report.join('\n');
    expect(text).toContain('== CompliBench (airlines 2, insurance 1 conversations; 1 skipped)');
    expect(text).toMatch(/pooled\s+test-engine\s+0\.889\s+0\.667\s+1\.000\s+0\.800\s+2\s+1\s+0\s+6\s+100% \(2\/2\)/);
    expect(text).toMatch(/pooled\s+always pass \(majority\)\s+0\.778\s+—\s+0\.000/);
    expect(text).toContain('== ABCD (2 conversations — a SMOKE TEST, not a measurement');
    expect(text).toMatch(/BART \(published\)\s+29\.20\s+6\.37\s+25\.49/);
    expect(text).toMatch(/time: test-engine/);
    expect(progress).toContain('complibench: test-engine 3/3');
  });
});
