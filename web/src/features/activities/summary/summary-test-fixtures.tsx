// Shared by the summary dialogs' tests: sample summaries, and a render signed in with the toast
// region. The rows come from the activity screen's fixtures.
import type { ReactElement } from 'react';
import { renderWithStore } from '../../../testing/render-with-store';
import { signedInState } from '../../../testing/signed-in';
import type { SummaryData, SummaryEvaluation } from './summary-model';

export function makeEvaluation(overrides: Partial<SummaryEvaluation> = {}): SummaryEvaluation {
  return {
    score: 6,
    criteriaNeedingReview: 0,
    reviewThreshold: 0.7,
    scriptMatch: 70,
    isSuccessful: true,
    successConfidence: 0.9,
    successNeedsReview: false,
    successReason: 'A demo was booked.',
    successEvidence: [{ quote: 'book a demo', segmentIndex: 2, speaker: 'Charles', role: 'contact', startMs: 20000 }],
    verdicts: [
      {
        groupId: 'g1',
        groupName: 'Opening',
        criterionId: 'c1',
        criterionName: 'Greeting',
        weight: 6,
        passed: true,
        applicable: true,
        confidence: 0.92,
        needsReview: false,
        reason: 'The representative greeted the contact.',
        expected: '',
        suggestion: '',
        evidence: [{ quote: 'Good morning', segmentIndex: 0, speaker: 'Ada', role: 'representative', startMs: 0 }],
      },
      {
        groupId: 'g2',
        groupName: 'Closing',
        criterionId: 'c3',
        criterionName: 'Next steps',
        weight: 4,
        passed: false,
        applicable: true,
        confidence: 0.8,
        needsReview: false,
        reason: 'No follow-up date was agreed.',
        expected: 'A date for the next conversation.',
        suggestion: 'Agree on a follow-up date.',
        evidence: [{ quote: 'talk soon', segmentIndex: 3, speaker: 'Ada', role: 'representative', startMs: 75500 }],
      },
    ],
    statistics: null,
    summaryDetails: { participants: ['Ada', 'Charles'], discussion: '', outcome: '', nextSteps: [] },
    engine: 'offline-evidence',
    fallbackReason: '',
    insightTokens: 0,
    evaluatedAt: '2025-03-04T10:20:00.000Z',
    warnings: [],
    ...overrides,
  };
}

export function makeSummary(overrides: Partial<SummaryData> = {}): SummaryData {
  return {
    transcript: '[0:00] Ada: Good morning, this is Ada.\n…',
    summary: 'Ada introduced the product and Charles asked for a demo.',
    improvements: [{ id: 'g2', name: 'Closing', criteria: [{ id: 'c3', name: 'Next steps', suggestion: 'Agree on a follow-up date.' }] }],
    segments: [
      { index: 0, speaker: 'Ada', role: 'representative', startMs: 0, endMs: 4000, text: 'Good morning, this is Ada.' },
      { index: 1, speaker: 'Charles', role: 'contact', startMs: 4000, endMs: 9000, text: 'Hello Ada.' },
      { index: 2, speaker: 'Charles', role: 'contact', startMs: 20000, endMs: 26000, text: 'I would like to book a demo.' },
      { index: 3, speaker: 'Ada', role: 'representative', startMs: 75500, endMs: 80000, text: 'Great, talk soon.' },
    ],
    evaluation: makeEvaluation(),
    ...overrides,
  };
}

/** Renders `ui` signed in, with a CSRF token in hand, beside the toast region; `rerender` keeps both. */
export const renderSignedIn = (ui: ReactElement) => renderWithStore(ui, signedInState({ csrfToken: 'csrf-test' }));
