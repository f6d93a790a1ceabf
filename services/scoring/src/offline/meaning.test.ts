import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { criteria, inputOf, RENEWAL_CALL } from '../../test/support/sample-calls.js';
import { loadSentenceEncoder, SentenceEncoderModelMissingError, sentenceEncoderIfAvailable } from '../semantic/sentence-encoder.js';
import { createOfflineEngine, judgeOffline, OFFLINE_ENGINE_NAME, OFFLINE_MEANING_ENGINE_NAME } from './offline-engine.js';

// The real model (scripts/ensure-embedding-model.sh, run by `make test`), not a stand-in: what is
// tested is which sentence it finds nearest.
const engine = createOfflineEngine({ encoder: () => loadSentenceEncoder() });
const signal = new AbortController().signal;
afterAll(async () => (await loadSentenceEncoder()).close());

const IN_ORDER = criteria(
  ['Greeting', 'Greet the customer and introduce yourself by name.'],
  ['Verification', 'Ask for the account number and date of birth before discussing the account.'],
  ['Free trial', 'Offer a free trial of the mobile app.'],
  ['Next steps', 'Tell the customer what happens next and when.'],
);

describe('the offline engine reading meaning', () => {
  it('shows for a missing step the sentence where it belonged, between the steps met around it, and keeps the verdict', async () => {
    const input = inputOf(RENEWAL_CALL, { criteriaGroups: IN_ORDER });
    const judgement = await engine.judge(input, signal);
    expect(judgement.engine).toBe(OFFLINE_MEANING_ENGINE_NAME);
    const byWords = judgeOffline(input);
    expect(judgement.verdicts.map(({ passed, confidence }) => ({ passed, confidence }))).toEqual(byWords.verdicts.map(({ passed, confidence }) => ({ passed, confidence })));

    const trial = judgement.verdicts.find((verdict) => verdict.criterionName === 'Free trial')!;
    expect(trial.passed).toBe(false);
    // Instead of a trial, Anna offered annual billing: that is where the step belonged.
    expect(trial.evidence.map((piece) => piece.quote)).toContain('Annual billing would save you fifteen percent compared with monthly.');
    expect(trial.reason).toBe(
      'Not met: nothing the representative said was found to offer a free trial of the mobile app; where it belonged, Anna said "Annual billing would save you fifteen percent compared with monthly." (0:35).',
    );
    for (const piece of trial.evidence) expect(input.transcript.segments[piece.segmentIndex]!.text).toContain(piece.quote);
  });

  it('names the nearest sentence in meaning, if one is near, when the criteria around it were not met in their order', async () => {
    const outOfOrder = criteria(
      ['Verification', 'Ask for the account number and date of birth before discussing the account.'],
      ['Greeting', 'Greet the customer and introduce yourself by name.'],
      ['Free trial', 'Offer a free trial of the mobile app.'],
      ['Yearly plan', 'Propose a cheaper yearly plan.'],
      ['Hardware', 'Explain how to ship a broken router back for repair.'],
    );
    const judgement = await engine.judge(inputOf(RENEWAL_CALL, { criteriaGroups: outOfOrder }), signal);
    const reasons = Object.fromEntries(judgement.verdicts.map((verdict) => [verdict.criterionName, verdict.reason]));
    // Annual billing said in other words: for the reviewer to judge; the verdict stays the words'.
    expect(reasons['Yearly plan']).toBe(
      'Not met: nothing the representative said was found to propose a cheaper yearly plan; nearest in meaning, Anna said "Annual billing would save you fifteen percent compared with monthly." (0:35).',
    );
    // Nothing Anna said comes near a free trial (annual billing is at 0.16) or a router's repair.
    expect(reasons['Free trial']).toBe('Not met: nothing the representative said was found to offer a free trial of the mobile app.');
    expect(reasons.Hardware).toBe('Not met: nothing the representative said was found to explain how to ship a broken router back for repair.');
  });

  it('reads words alone, under its own name, when the model is not installed, and says so once', async () => {
    const missing: string[] = [];
    const withoutModel = createOfflineEngine({
      encoder: sentenceEncoderIfAvailable({ modelDirectory: '/nonexistent/model' }, (error) => missing.push(error instanceof SentenceEncoderModelMissingError ? error.missingFile : String(error))),
    });
    const input = inputOf(RENEWAL_CALL, { criteriaGroups: IN_ORDER });
    const first = await withoutModel.judge(input, signal);
    await withoutModel.judge(input, signal);
    expect(first.engine).toBe(OFFLINE_ENGINE_NAME);
    expect(first.verdicts).toEqual(judgeOffline(input).verdicts);
    expect(missing).toEqual(['/nonexistent/model/model.onnx']);
  });

  it('reads words alone when the model cannot be loaded at all, rather than failing the evaluation', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'broken-model-'));
    await writeFile(join(folder, 'model.onnx'), 'not a model');
    await writeFile(join(folder, 'tokenizer.json'), '{}');
    const failures: unknown[] = [];
    const broken = createOfflineEngine({ encoder: sentenceEncoderIfAvailable({ modelDirectory: folder }, (error) => failures.push(error)) });
    const input = inputOf(RENEWAL_CALL, { criteriaGroups: IN_ORDER });
    const judgement = await broken.judge(input, signal);
    expect(judgement.engine).toBe(OFFLINE_ENGINE_NAME);
    expect(judgement.verdicts).toEqual(judgeOffline(input).verdicts);
    expect(failures).toHaveLength(1);
    await rm(folder, { recursive: true, force: true });
  });
});
