import { afterAll, describe, expect, it } from 'vitest';
import { ABCD_GUIDELINES, ABCD_KB, ABCD_ONTOLOGY, abcdConversation, removeDatasets, writeDatasets } from '../testing/fixtures.js';
import { abcdBaselines, actionsTaken, mostActionsTaken, kbSubflow, loadAbcd, scoreAbcd, type AbcdCase } from './abcd.js';
import { ACTION_WORDS, SUBFLOW_TITLES, flowKey } from './abcd-actions.js';

afterAll(removeDatasets);

async function load() {
  const loaded = await loadAbcd(await writeDatasets(), undefined);
  if ('missing' in loaded) throw new Error(loaded.missing);
  return loaded;
}

describe('actionsTaken', () => {
  it('reads the action of an action turn from delexed targets[2], else from the action text template', () => {
    const convo = abcdConversation();
    expect(actionsTaken(convo.original as unknown[], convo.delexed as unknown[])).toEqual({ actions: new Set(['pull-up-account', 'notify-team', 'enter-details']), unread: 0 });
    expect(actionsTaken([['action', 'System Action: search timing'], ['action', 'Something new happened']], undefined)).toEqual({ actions: new Set(['search-timing']), unread: 1 });
  });
});

describe('kbSubflow', () => {
  it('drops a question number kb.json does not have (timing_4 → timing)', () => {
    expect(kbSubflow('return_size', undefined, ABCD_KB)).toBe('return_size');
    expect(kbSubflow('timing_4', undefined, ABCD_KB)).toBe('timing');
    expect(kbSubflow('nope', 'pricing', ABCD_KB)).toBe('pricing');
    expect(kbSubflow('nope', undefined, ABCD_KB)).toBeUndefined();
  });
});

describe('loadAbcd', () => {
  it("drops action turns from the transcript and speaks as Agent and Customer", async () => {
    const [item] = (await load()).cases;
    expect(item!.input.transcript.segments.map((s) => s.speaker)).toEqual(['Agent', 'Customer', 'Agent']);
    expect(JSON.stringify(item!.input.transcript)).not.toMatch(/pulled up|has been notified|have been entered/);
  });

  it("asks for the subflow's required actions, then the other subflows' (as negatives), with the truth from the action turns", async () => {
    const [item] = (await load()).cases;
    expect(item!.criteria.map((c) => [c.action, c.required, c.taken])).toEqual([
      ['pull-up-account', true, true],
      ['validate-purchase', true, false],
      ['membership', true, false],
      ['enter-details', true, true],
      ['update-order', true, false],
      ['notify-team', false, true],
    ]);
  });

  it("describes each action in words from guidelines.json, its own subflow's text first", async () => {
    const [item] = (await load()).cases;
    const prompts = Object.fromEntries(item!.input.team.criteriaGroups[0]!.criteria.map((c) => [c.id, [c.name, c.prompt]]));
    expect(prompts['pull-up-account']).toEqual(['Pull up Account', "The agent pulls up the customer's account: Get Full Name or Account ID for [Pull up Account]"]);
    expect(prompts['validate-purchase']![1]).toBe('The agent validates the purchase: Confirm that their purchase is valid with [Validate Purchase] Username Email Address');
    expect(prompts['notify-team']![1]).toContain("Enter 'manager' into [Notify Internal Team]");
    expect(prompts.membership).toEqual(['Membership Privileges', "The agent checks what the customer's membership level allows."]);
  });

  it('reads a numbered FAQ subflow and its flow', async () => {
    const [, faq] = (await load()).cases;
    expect([faq!.flow, faq!.subflow]).toEqual(['storewide_query', 'timing']);
    expect(faq!.criteria.map((c) => [c.action, c.required, c.taken])).toEqual([
      ['search-faq', true, true],
      ['search-timing', true, true],
      ['select-faq', true, false],
      ['search-pricing', false, false],
    ]);
  });

  it('reports a missing file', async () => {
    expect(await loadAbcd(await writeDatasets(['abcd']), undefined)).toEqual({ missing: 'no abcd/abcd_sample.json' });
  });
});

describe('ABCD figures', () => {
  it('scores "the action was taken" as the positive class, and required actions found', async () => {
    const cases: AbcdCase[] = (await load()).cases;
    const majority = abcdBaselines(cases)[0]!;
    // Five of the ten action criteria were taken: a tie goes to "taken".
    expect(majority.name).toBe('always taken (majority)');
    const f = scoreAbcd(cases, cases.map((item) => majority.predict(item)));
    expect(f).toMatchObject({ tp: 5, fp: 5, fn: 0, tn: 0, precision: 0.5, recall: 1 });
    expect(f.required).toMatchObject({ tp: 4, fp: 4 });
    expect(f.other).toMatchObject({ tp: 1, fp: 1 });
  });
});

describe('the ABCD majority baseline', () => {
  it('predicts the more frequent truth label of the action criteria', async () => {
    const cases: AbcdCase[] = (await load()).cases;
    const notTaken = cases.map((item) => ({ ...item, criteria: item.criteria.map((criterion, index) => ({ ...criterion, taken: criterion.taken && index === 0 })) }));
    expect(mostActionsTaken(cases)).toBe(true);
    expect(mostActionsTaken(notTaken)).toBe(false);
    expect(abcdBaselines(notTaken)[0]!.name).toBe('always not taken (majority)');
    expect(abcdBaselines(notTaken)[1]!.name).toBe('always taken');
  });
});

describe('the ABCD name tables', () => {
  it('name every action kb.json requires and every subflow ontology.json lists (of the fixture)', () => {
    for (const actions of Object.values(ABCD_KB)) for (const action of actions) expect(ACTION_WORDS[action], action).toBeDefined();
    for (const subflows of Object.values(ABCD_ONTOLOGY.intents.subflows)) for (const subflow of subflows) expect(SUBFLOW_TITLES[subflow], subflow).toBeDefined();
    expect(Object.keys(ABCD_GUIDELINES).map(flowKey)).toEqual(['product_defect', 'storewide_query']);
    expect(flowKey('Single-Item Query')).toBe('single_item_query');
  });
});
