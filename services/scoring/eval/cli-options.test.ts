import { describe, expect, it } from 'vitest';
import { enginesToRun, parseEvalOptions, UsageError } from './cli-options.js';

const defaults = { datasetsDir: '../shared/datasets', out: 'eval-results.json' };
const known = ['complibench', 'persuasionforgood', 'qmsum', 'abcd'];

describe('parseEvalOptions', () => {
  it('defaults to every dataset, no limit, the default engines', () => {
    expect(parseEvalOptions([], defaults, known)).toEqual({ datasetsDir: '../shared/datasets', engine: undefined, only: [], limit: undefined, out: 'eval-results.json', help: false });
  });

  it('reads --datasets, --engine, --only, --limit and --out', () => {
    expect(parseEvalOptions(['--datasets', '/data', '--engine', 'all', '--only', 'QMSum, abcd,qmsum', '--limit', '5', '--out', 'x.json'], defaults, known)).toEqual({
      datasetsDir: '/data',
      engine: 'all',
      only: ['qmsum', 'abcd'],
      limit: 5,
      out: 'x.json',
      help: false,
    });
  });

  it('lets an empty --datasets (make eval with no DATASETS) fall back to the default', () => {
    expect(parseEvalOptions(['--datasets', ''], defaults, known).datasetsDir).toBe('../shared/datasets');
  });

  it('refuses an unknown engine, dataset, flag or a limit below 1', () => {
    expect(() => parseEvalOptions(['--engine', 'gpt'], defaults, known)).toThrow(UsageError);
    expect(() => parseEvalOptions(['--only', 'squad'], defaults, known)).toThrow(/unknown dataset squad/);
    expect(() => parseEvalOptions(['--limit', '0'], defaults, known)).toThrow(/--limit/);
    expect(() => parseEvalOptions(['--limit', '2.5'], defaults, known)).toThrow(/--limit/);
    expect(() => parseEvalOptions(['--fast'], defaults, known)).toThrow(UsageError);
  });
});

describe('enginesToRun', () => {
  it('runs the offline engine, and the chat engine too when SCORING_LLM_URL is set', () => {
    expect(enginesToRun(undefined, false)).toEqual({ offline: true, chat: false });
    expect(enginesToRun(undefined, true)).toEqual({ offline: true, chat: true });
    expect(enginesToRun('offline', true)).toEqual({ offline: true, chat: false });
    expect(enginesToRun('chat', true)).toEqual({ offline: false, chat: true });
    expect(enginesToRun('all', true)).toEqual({ offline: true, chat: true });
  });

  it('refuses the chat engine without SCORING_LLM_URL', () => {
    expect(() => enginesToRun('chat', false)).toThrow(/SCORING_LLM_URL/);
    expect(() => enginesToRun('all', false)).toThrow(/SCORING_LLM_URL/);
  });
});
