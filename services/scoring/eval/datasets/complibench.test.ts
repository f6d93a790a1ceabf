import { afterAll, describe, expect, it } from 'vitest';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import type { Prediction } from '../systems.js';
import { compliBenchConversation, removeDatasets, writeDatasets } from '../testing/fixtures.js';
import { compliBenchBaselines, loadCompliBench, parseConversation, phaseName, scoreCompliBench, type CompliBenchCase } from './complibench.js';

afterAll(removeDatasets);

async function load(limit?: number) {
  const loaded = await loadCompliBench(await writeDatasets(), limit);
  if ('missing' in loaded) throw new Error(loaded.missing);
  return loaded;
}

function prediction(item: CompliBenchCase, failed: Record<string, number[]>): Prediction {
  return {
    verdicts: item.criteria.map((c) => ({
      groupId: c.groupId,
      criterionId: c.criterionId,
      passed: !(c.criterionId in failed),
      applicable: true,
      evidence: (failed[c.criterionId] ?? []).map((segmentIndex) => ({ segmentIndex })),
    })),
    isSuccessful: undefined,
    summary: '',
  };
}

describe('phaseName', () => {
  it('takes the text before the first colon when it is at most 8 words, else "Phase <N>"', () => {
    expect(phaseName('Greeting: Welcome the caller: warmly', 1)).toBe('Greeting');
    expect(phaseName('one two three four five six seven eight: go', 2)).toBe('one two three four five six seven eight');
    expect(phaseName('one two three four five six seven eight nine: go', 3)).toBe('Phase 3');
    expect(phaseName('No colon at all', 4)).toBe('Phase 4');
    expect(phaseName(': empty prefix', 5)).toBe('Phase 5');
  });
});

describe('loadCompliBench', () => {
  it('reads every subfolder (not only airlines and healthcare), in order, and counts files it cannot use', async () => {
    const loaded = await load();
    expect(loaded.cases.map((item) => `${item.subset}/${item.file}`)).toEqual(['airlines/conversation_00001.json', 'airlines/conversation_00002.json', 'insurance/conversation_00009.json']);
    expect(loaded.skipped).toEqual({ total: 1, reasons: { 'not valid JSON': 1 } });
  });

  it('applies --limit to each subfolder', async () => {
    const loaded = await load(1);
    expect(loaded.cases.map((item) => item.subset)).toEqual(['airlines', 'insurance']);
  });

  it('reports a missing folder as missing', async () => {
    expect(await loadCompliBench(await writeDatasets(['complibench']), undefined)).toEqual({ missing: 'no complibench/ folder' });
  });

  it('makes one Agent/Customer segment per message, in order, with no times, and keeps each segment\'s turn_index', async () => {
    const [item] = (await load()).cases;
    const transcript = item!.input.transcript;
    expect(item!.input.kind).toBe('call');
    expect(transcript.speakers).toEqual([
      { label: 'Agent', role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE },
      { label: 'Customer', role: SpeakerRole.SPEAKER_ROLE_CONTACT },
    ]);
    expect(transcript.segments.map((s) => s.speaker)).toEqual(['Agent', 'Customer', 'Agent', 'Customer', 'Agent']);
    expect(transcript.segments[2]).toEqual({ speaker: 'Agent', text: 'Please send your card number first.', words: [] });
    expect(item!.turnOfSegment).toEqual([0, 1, 2, 3, 4]);
    expect(item!.input.activityId).toBe('complibench/airlines/conversation_00001');
  });

  it('builds the team from the correct guidelines: phases in numeric order, universal, conditions; equal weights totalling 10', async () => {
    const [item] = (await load()).cases;
    const team = item!.input.team;
    expect(team.successPrompt).toBe('');
    expect(team.criteriaGroups.map((g) => [g.id, g.criteria.map((c) => c.id)])).toEqual([
      ['phases', ['phase-1', 'phase-2', 'phase-10']],
      ['universal', ['tone']],
      ['conditions', ['human_request']],
    ]);
    const phases = team.criteriaGroups[0]!.criteria;
    expect(phases.map((c) => c.name)).toEqual(['Greeting', 'Ask for booking reference', 'Phase 10']);
    expect(phases[1]!.prompt).toBe('Ask for booking reference: Request the booking reference before anything else.');
    expect(team.criteriaGroups[2]!.criteria[0]!.prompt).toBe('If the caller asks for a human, transfer to a human representative.');
    const weights = team.criteriaGroups.flatMap((g) => g.criteria.map((c) => c.weight));
    expect(weights).toEqual([2, 2, 2, 2, 2]);
  });

  it('gives the engine nothing from the labels', async () => {
    for (const item of (await load()).cases) expect(JSON.stringify(item.input)).not.toContain('LEAKED');
  });

  it('labels a phase failed when a Category 2 mistake of the intent names its phase, and a condition when a Category 3 mistake names its key', async () => {
    const [withMistakes, without] = (await load()).cases;
    const truth = (item: CompliBenchCase) => item.criteria.map((c) => [c.criterionId, c.scored, c.failed, c.labelledTurns]);
    expect(truth(withMistakes!)).toEqual([
      ['phase-1', 'phase', false, []],
      ['phase-2', 'phase', true, [2]],
      ['phase-10', 'phase', false, []],
      ['tone', null, false, []],
      ['human_request', 'condition', true, [4]],
    ]);
    expect(without!.criteria.every((c) => !c.failed)).toBe(true);
  });

  it('ignores mistakes of another intent or another phase, and reads a phase given as text', () => {
    const parsed = parseConversation(
      compliBenchConversation({
        mistakes: [
          { turn_index: 2, 'guidance category': 'Category 2: Intent Triggered Guidelines', 'guidance key': 'other_intent', guideline_phase: 2 },
          { turn_index: 0, 'guidance category': 'Category 2: Intent Triggered Guidelines', 'guidance key': 'refund_request', guideline_phase: 'Phase 10' },
        ],
      }),
    );
    if ('invalid' in parsed) throw new Error(parsed.invalid);
    expect(parsed.mistakes.map((m) => m.phase)).toEqual([2, 10]);
  });

  it('refuses a conversation whose intent has no phases, or whose messages are not assistant/user text', () => {
    expect(parseConversation(compliBenchConversation({ intent_name: 'nope', assistant_guidelines: { 'Category 2: Intent Triggered Guidelines': { a: {}, b: {} } } }))).toEqual({
      invalid: 'intent_name names no Category 2 intent',
    });
    expect(parseConversation(compliBenchConversation({ message_list: [{ turn_index: 0, role: 'system', content: 'x' }] }))).toHaveProperty('invalid');
  });
});

describe('scoreCompliBench', () => {
  it('scores failure detection over phases, with evidence on the labelled turn, per subfolder and pooled', async () => {
    const cases = (await load()).cases;
    const predictions = [
      prediction(cases[0]!, { 'phase-2': [2], 'phase-1': [0], human_request: [1] }), // tp with evidence on turn 2; fp; condition tp with evidence on a customer turn
      prediction(cases[1]!, {}), // all tn
      prediction(cases[2]!, { 'phase-2': [4] }), // tp, evidence on the wrong turn
    ];
    const figures = scoreCompliBench(cases, predictions, true);
    expect(figures.subsets.airlines!.phases).toMatchObject({ tp: 1, fp: 1, fn: 0, tn: 4, criteria: 6, evidenceOnLabelledTurn: { hits: 1, of: 1, share: 1 } });
    expect(figures.subsets.insurance!.phases).toMatchObject({ tp: 1, fp: 0, fn: 0, tn: 2, evidenceOnLabelledTurn: { hits: 0, of: 1, share: 0 } });
    expect(figures.pooled.phases).toMatchObject({ tp: 2, fp: 1, fn: 0, tn: 6, precision: 2 / 3, recall: 1, evidenceOnLabelledTurn: { hits: 1, of: 2, share: 0.5 } });
    expect(figures.pooled.phases.accuracy).toBeCloseTo(8 / 9, 12);
    expect(figures.pooled.conditions).toMatchObject({ tp: 1, fp: 0, fn: 1, tn: 1, evidenceOnLabelledTurn: { hits: 0, of: 1 } });
  });

  it('measures the calibration of the engine\'s stated confidence on the phase verdicts', async () => {
    const cases = (await load()).cases;
    const predictions = [prediction(cases[0]!, { 'phase-2': [2], 'phase-1': [0] }), prediction(cases[1]!, {}), prediction(cases[2]!, { 'phase-2': [4] })];
    // Every verdict said with 0.95; phase-1 of the first case is the one wrong (failed, truly passed).
    for (const predicted of predictions) predicted.verdicts = predicted.verdicts.map((v) => ({ ...v, confidence: 0.95 }));
    const { phaseCalibration } = scoreCompliBench(cases, predictions, true);
    expect(phaseCalibration).toMatchObject({ verdicts: 9, bins: [{ from: 0.9, count: 9 }] });
    expect(phaseCalibration!.accuracy).toBeCloseTo(8 / 9, 12);
    expect(phaseCalibration!.ece).toBeCloseTo(0.95 - 8 / 9, 12);
  });

  it('counts an inapplicable or missing verdict as passed', async () => {
    const cases = (await load()).cases;
    const inapplicable = prediction(cases[0]!, { 'phase-2': [] });
    inapplicable.verdicts = inapplicable.verdicts.map((v) => ({ ...v, applicable: false }));
    const missing: Prediction = { verdicts: [], isSuccessful: undefined, summary: '' };
    const figures = scoreCompliBench([cases[0]!, cases[2]!], [inapplicable, missing], true);
    expect(figures.pooled.phases).toMatchObject({ tp: 0, fn: 2 });
  });

  it('leaves evidence figures undefined for systems that cite none', async () => {
    const cases = (await load()).cases;
    const [alwaysPass, alwaysFail] = compliBenchBaselines;
    const figures = scoreCompliBench(cases, cases.map((item) => alwaysPass!.predict(item)), false);
    expect(figures.pooled.phases).toMatchObject({ tp: 0, fp: 0, fn: 2, tn: 7, precision: null, recall: 0, f1: 0, evidenceOnLabelledTurn: null });
    expect(figures.phaseCalibration).toBeNull();
    const failing = scoreCompliBench(cases, cases.map((item) => alwaysFail!.predict(item)), false);
    expect(failing.pooled.phases).toMatchObject({ tp: 2, fp: 7, fn: 0, tn: 0, recall: 1 });
  });

  it('keyword-overlap fails a criterion when fewer than half of its content words appear in the Agent\'s turns', async () => {
    const [item] = (await load()).cases;
    const keyword = compliBenchBaselines[2]!.predict(item!);
    // phase-1: hello, thanks, calling, skyway of 7 → pass; phase-2: only "else" of 6 → fail;
    // phase-10: 8 of 15 → pass; human_request: only "transfer" of 5 → fail (the customer's "human" does not count).
    expect(keyword.verdicts.map((v) => [v.criterionId, v.passed])).toEqual([
      ['phase-1', true],
      ['phase-2', false],
      ['phase-10', true],
      ['tone', false],
      ['human_request', false],
    ]);
  });
});
