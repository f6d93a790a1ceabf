import { describe, expect, it } from 'vitest';
import { inputOf, RENEWAL_CALL } from '../../test/support/sample-calls.js';
import { ANSWER_TOKENS_FIXED, ANSWER_TOKENS_PER_CRITERION, INSTRUCTION_TOKENS, offlineInsightTokens } from './insight-tokens.js';

describe('offlineInsightTokens', () => {
  it('charges what the chat engine would: the text sent at four characters a token, plus the answer', () => {
    const input = inputOf([['Anna', 'abcd'], ['Mark', 'efgh']], { successPrompt: '', callScript: '', criteriaGroups: [] });
    // "Anna" + "abcd" + 2, "Mark" + "efgh" + 2: 20 characters.
    expect(offlineInsightTokens(input)).toBe(INSTRUCTION_TOKENS + 5 + ANSWER_TOKENS_FIXED);
  });

  it('grows with the transcript and with every criterion', () => {
    const one = offlineInsightTokens(inputOf(RENEWAL_CALL));
    const longer = offlineInsightTokens(inputOf([...RENEWAL_CALL, ...RENEWAL_CALL]));
    expect(longer).toBeGreaterThan(one);
    const base = inputOf(RENEWAL_CALL);
    const group = base.team.criteriaGroups[0]!;
    const twoCriteria = { ...base, team: { ...base.team, criteriaGroups: [{ ...group, criteria: [...group.criteria, { id: 'x', name: '', prompt: '', weight: 0 }] }] } };
    expect(offlineInsightTokens(twoCriteria) - offlineInsightTokens(base)).toBe(ANSWER_TOKENS_PER_CRITERION);
  });
});
