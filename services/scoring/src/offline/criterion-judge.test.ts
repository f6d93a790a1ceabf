import { describe, expect, it } from 'vitest';
import { RENEWAL_CALL, transcriptOf, type Line } from '../../test/support/sample-calls.js';
import { readConversation } from './conversation.js';
import { judgeCriteria, judgeCriterion, type Outcome } from './criterion-judge.js';
import { readRequirement } from './requirement.js';

const requirement = (prompt: string, id = 'c') => readRequirement({ groupId: 'g', groupName: 'G', criterionId: id, name: id, prompt, weight: 1 });
const outcome = (prompt: string, lines: readonly Line[] = RENEWAL_CALL): Outcome => judgeCriterion(requirement(prompt), readConversation(transcriptOf(lines))).outcome;

describe('judgeCriterion', () => {
  it('meets a criterion the representative fulfilled, in paraphrase, with the sentences as evidence', () => {
    const finding = judgeCriterion(requirement('Verify the caller: ask for the account number and date of birth.'), readConversation(transcriptOf(RENEWAL_CALL)));
    expect(finding.outcome).toBe('met');
    expect(finding.window!.turns[0]!.index).toBe(2);
    expect(outcome('Acknowledge the concern about the price increase and mention the savings of annual billing.')).toBe('met');
  });

  it('needs a question for a criterion that asks for something', () => {
    const told: Line[] = [
      ['Anna', 'Your account number and date of birth are on file.'],
      ['Mark', 'Okay.'],
    ];
    expect(outcome('Ask for the account number and date of birth.', told)).not.toBe('met');
    expect(outcome('Mention the account number and date of birth.', told)).toBe('met');
  });

  it('fails what was never said, and a prohibition that was broken', () => {
    expect(outcome('Offer a free trial of the mobile app.')).toBe('missing');
    expect(outcome('Do not send the contract by email.')).toBe('violated');
    expect(outcome('Do not promise a discount on hardware.')).toBe('respected');
  });

  it('is unsure of a failure that rests only on words not found, and sure of one it has evidence for', () => {
    const conversation = readConversation(transcriptOf(RENEWAL_CALL));
    // Never said, or said in other words: the words alone cannot tell.
    expect(judgeCriterion(requirement('Offer a free trial of the mobile app.'), conversation)).toMatchObject({ outcome: 'missing', confidence: 0.55 });
    const met = judgeCriterion(requirement('Verify the caller: ask for the account number and date of birth.'), conversation);
    expect(met.confidence).toBeGreaterThan(0.7);
    const violated = judgeCriterion(requirement('Do not send the contract by email.'), conversation);
    expect(violated.confidence).toBeGreaterThan(0.55);
  });

  it('fails a criterion whose opposite was said', () => {
    const refused: Line[] = [
      ['Nova', 'Your request is pending. No email or SMS confirmation will be sent.'],
      ['Zain', 'Oh, okay.'],
    ];
    expect(outcome('Send the confirmation by email or SMS.', refused)).toBe('contradicted');
  });

  it('leaves a conditional criterion out when its situation did not come up, and judges it when it did', () => {
    expect(outcome('If the customer asks for a refund, explain the refund policy.')).toBe('not-applicable');
    expect(outcome('If the customer raises the price, acknowledge the concern about the price.')).toBe('met');
    expect(outcome('If the customer raises the price, offer a free month of support.')).not.toBe('not-applicable');
  });

  it('reads speakers without a representative role as one side', () => {
    const transcript = transcriptOf(RENEWAL_CALL);
    for (const speaker of transcript.speakers) speaker.role = 0;
    expect(judgeCriterion(requirement('Ask for the account number and date of birth.'), readConversation(transcript)).outcome).toBe('met');
  });
});

describe('when and how often', () => {
  it('holds "at the start" and "before the call ends" to the side’s first and last turns', () => {
    expect(outcome('Greet the customer in the first sentence.')).toBe('met');
    const late: Line[] = [
      ['Anna', 'Acme Analytics, account number please?'],
      ['Mark', '55120.'],
      ['Anna', 'Good morning, thank you for calling.'],
      ['Mark', 'Morning.'],
      ['Anna', 'Is there anything else?'],
    ];
    const finding = judgeCriterion(requirement('Greet the customer in the first sentence.'), readConversation(transcriptOf(late)));
    expect(finding).toMatchObject({ outcome: 'misplaced', detail: 'at the start' });
    expect(outcome('Mention the training session before the call ends.')).toBe('met');
    expect(outcome('Mention the account number before the call ends.')).toBe('misplaced');
  });

  it('holds "before discussing X" to what was said before X first came up', () => {
    expect(outcome('Before discussing the subscription, verify the account number and date of birth.')).toBe('met');
    const unverified: Line[] = [
      ['Anna', 'Your subscription renews next month at the new price.'],
      ['Mark', 'Okay.'],
      ['Anna', 'Could you confirm your account number and date of birth?'],
    ];
    const finding = judgeCriterion(requirement('Before discussing the subscription, verify the account number and date of birth.'), readConversation(transcriptOf(unverified)));
    expect(finding.outcome).toBe('misplaced');
    expect(finding.detail).toBe('before subscription came up');
    // The customer raising it first is no discussion of it yet (RENEWAL_CALL: Mark mentions the
    // subscription, then Anna verifies, then discusses it).
  });

  it('counts the questions a criterion asks for, and open ones when it says so', () => {
    expect(outcome('Ask at least two questions about the dashboards and the reports.')).toBe('too-few');
    const curious: Line[] = [
      ['Anna', 'How are you using the dashboards today?'],
      ['Mark', 'For weekly reports.'],
      ['Anna', 'Do you share those reports with your team?'],
    ];
    expect(outcome('Ask at least two questions about the dashboards and the reports.', curious)).toBe('met');
    expect(outcome('Ask at least two open questions about the dashboards and the reports.', curious)).toBe('too-few');
  });
});

describe('judgeCriteria', () => {
  it('lets one sentence meet two criteria', () => {
    const findings = judgeCriteria([requirement('Greet the caller.', 'greeting'), requirement('Introduce yourself by name and company: Anna from Acme.', 'introduction')], readConversation(transcriptOf(RENEWAL_CALL)));
    expect(findings.map((finding) => finding.outcome)).toEqual(['met', 'met']);
  });

  it('does not take a turn that meets one step as an attempt at another step it shares words with', () => {
    const lines: Line[] = [
      ['Ava', 'Please confirm the email address on your profile.'],
      ['Sam', 'It is sam@example.com.'],
    ];
    const findings = judgeCriteria(
      [
        requirement('Confirm the email address on the profile.', 'confirm-contact'),
        requirement('When an appointment is booked, send the appointment confirmation by email.', 'send-confirmation'),
      ],
      readConversation(transcriptOf(lines)),
    );
    expect(findings.map((finding) => finding.outcome)).toEqual(['met', 'not-applicable']);
  });
});
