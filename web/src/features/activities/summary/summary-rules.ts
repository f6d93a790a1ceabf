// The sentences and limits of the summary, share and report dialogs (spec part 2 §2.5–2.7, §8, §9).

/** Spec part 2 §5 and §9: a feedback description holds at most 1000 characters, warning above 900. */
export const FEEDBACK_MAX_LENGTH = 1000;
export const FEEDBACK_WARN_LENGTH = 900;

export const SUMMARY_MESSAGES = {
  loadFailed: 'Failed to load call summary. Please try again.',
  invalidEmail: 'Please enter a valid email address',
  /** Not in the spec: what a success toast says when the server sends no message. */
  shared: 'Summary shared successfully',
  shareFailed: {
    call: 'Failed to share call summary. Please try again.',
    meeting: 'Failed to share meeting summary. Please try again.',
  },
  feedbackSent: 'Feedback submitted successfully',
  feedbackNotOk: 'Failed to submit feedback',
  feedbackFailed: {
    call: 'Failed to submit call feedback. Please try again.',
    meeting: 'Failed to submit meeting feedback. Please try again.',
  },
  /** Not in the spec: the field's message if more than the limit reaches it (e.g. pasted by script). */
  feedbackTooLong: `Please keep the description to ${FEEDBACK_MAX_LENGTH} characters or fewer`,
} as const;

export const CALL_TEXTS = {
  loading: 'Analyzing Call',
  noTranscript: 'No Transcript Available',
  noSummary: 'No Content Available',
  excellent: 'Excellent Performance',
} as const;

export const MEETING_TEXTS = {
  noTranscript: 'No Transcript Available',
  noSummary: 'No Summary Available',
  excellent: 'Excellent Performance!',
} as const;

// Spec part 2 §5: text, @, text, dot, text — no spaces and no second @.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(value: string): boolean {
  return EMAIL.test(value);
}

/** A description may be sent when it has something besides spaces and fits the limit. */
export function feedbackProblem(description: string): 'empty' | 'too-long' | null {
  if (description.trim() === '') return 'empty';
  if (description.length > FEEDBACK_MAX_LENGTH) return 'too-long';
  return null;
}
