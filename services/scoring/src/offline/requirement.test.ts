import { describe, expect, it } from 'vitest';
import type { TeamCriterion } from '../engines/evaluation-engine.js';
import { readRequirement } from './requirement.js';

const criterion = (prompt: string, name = 'Criterion'): TeamCriterion => ({ groupId: 'g', groupName: 'Group', criterionId: 'c', name, prompt, weight: 2 });
const words = (prompt: string) => readRequirement(criterion(prompt)).terms.map((term) => term.text);

describe('readRequirement', () => {
  it('takes the representative as the one who must act, unless the prompt names the other side', () => {
    expect(readRequirement(criterion('Greets the customer by name.')).actor).toBe('representative');
    expect(readRequirement(criterion('The agent must confirm the order.')).actor).toBe('representative');
    expect(readRequirement(criterion('The customer agrees to a follow-up demo.')).actor).toBe('contact');
    expect(readRequirement(criterion('Agrees to a follow-up demo.'), 'contact').actor).toBe('contact');
  });

  it('reads prohibitions', () => {
    const requirement = readRequirement(criterion('Do not promise delivery dates.'));
    expect(requirement.prohibited).toBe(true);
    expect(requirement.clause).toBe('promise delivery dates');
    expect(readRequirement(criterion('The representative must never share the one-time code.')).prohibited).toBe(true);
  });

  it('reads a condition and the words of its situation', () => {
    const requirement = readRequirement(criterion('If the caller asks for a refund, explain the refund policy and its deadline.'));
    expect(requirement.conditional).toBe(true);
    expect(requirement.conditionTerms.map((term) => term.text)).toEqual(['refund']);
    expect(requirement.terms.map((term) => term.text)).toEqual(['explain', 'refund', 'policy', 'deadline']);
  });

  it('reads a situation named after the step, and keeps what is to be asked whole', () => {
    const escalation = readRequirement(criterion('Escalate to a supervisor immediately if the customer threatens legal action.'));
    expect(escalation).toMatchObject({ conditional: true, situation: 'the customer threatens legal action', position: undefined });
    expect(escalation.terms.map((term) => term.text)).toEqual(['escalate', 'supervisor']);
    expect(readRequirement(criterion('Transfer the caller to a supervisor when asked.'))).toMatchObject({ conditional: true, situation: 'asked', conditionTerms: [] });
    expect(readRequirement(criterion('Explain the next step of the process and when the candidate will hear back.')).conditional).toBe(false);
    const question = readRequirement(criterion('Ask the customer when the payment is due.'));
    expect(question.conditional).toBe(false);
    expect(question.terms.map((term) => term.text)).toEqual(expect.arrayContaining(['payment', 'due']));
  });

  it('reads "immediately" as at the start, unless a situation calls for it', () => {
    expect(readRequirement(criterion('Greet the caller immediately.')).position).toBe('start');
    expect(readRequirement(criterion('If the caller is upset, apologise immediately.')).position).toBeUndefined();
  });

  it('reads a step that applies in a situation, with its label counting half', () => {
    const requirement = readRequirement(criterion('When the caller asks for a refund: Verify identity: ask for the full name and date of birth.'));
    expect(requirement.conditional).toBe(true);
    expect(requirement.conditionTerms.map((term) => term.text)).toEqual(['refund']);
    expect(requirement.asks).toBe(true);
    const weights = new Map(requirement.terms.map((term) => [term.text, term.weight]));
    expect([...weights.keys()]).toEqual(expect.arrayContaining(['full', 'name', 'date', 'birth', 'verify', 'identity']));
    expect(weights.has('ask')).toBe(false);
    // "verify" and "identity" name the act of verifying (full weight), halved in the label.
    expect(weights.get('identity')).toBe(0.5);
    expect(weights.get('birth')).toBeLessThan(1);
  });

  it('leaves out speech acts and the words naming the parties, keeps "Pass if" words and drops "Fail if" sentences', () => {
    expect(words('Ask the caller for their account number.')).toEqual(['account', 'number']);
    const terms = words('The representative must greet the customer warmly. Pass if a greeting opens the call. Fail if there is none or it comes late.');
    expect(terms).toEqual(expect.arrayContaining(['greet', 'warmly', 'opens']));
    expect(terms).not.toContain('late');
  });

  it('reads when and how often apart from what: position, order, counts and open questions', () => {
    const greeting = readRequirement(criterion('The representative greets the caller and says their own name in the first sentence.'));
    expect(greeting.position).toBe('start');
    expect(greeting.clause).toBe('greets the caller and says their own name');
    expect(readRequirement(criterion('States the ticket number before the call ends.')).position).toBe('end');
    const verification = readRequirement(criterion('Before discussing the account, the representative confirms the customer’s identity with two security details.'));
    expect(verification.actor).toBe('representative');
    expect(verification.before.map((term) => term.text)).toEqual(['account']);
    expect(verification.clause).toBe('confirms the customer’s identity with two security details');
    const discovery = readRequirement(criterion('The representative asks at least two open questions about the caller’s goals.'));
    expect(discovery).toMatchObject({ asks: true, openQuestions: true, minimum: 2 });
    expect(discovery.terms.map((term) => term.text)).toEqual(['goals']);
  });

  it('reads "a need the caller stated" as taking up what the other side said, and "next step" as a proposal', () => {
    expect(words('The representative links a product capability to a need the caller stated.')).toEqual(expect.arrayContaining(['echo', 'product', 'capability']));
    expect(words('Proposes a concrete next step with a date.')).toEqual(expect.arrayContaining(['proposal', 'date']));
  });

  it('falls back to the name when the prompt is empty', () => {
    expect(readRequirement(criterion('', 'Budget agreed')).terms.map((term) => term.text)).toEqual(['budget', 'agreed']);
  });
});
