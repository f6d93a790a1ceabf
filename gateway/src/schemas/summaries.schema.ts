/**
 * The Call Summary and Analysis dialog's data (spec part 2 §2.5, §3 "Call summary response", §7
 * GET /calls/summary/{callId}): the spec's `transcript`, `summary` and `improvements`, and beside
 * them the transcript's segments and the whole evaluation, for a dialog that shows the evidence.
 */
import Type from 'typebox';

const nullable = <T extends Type.TSchema>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description });

const Role = Type.Union([Type.Literal('representative'), Type.Literal('contact'), Type.Literal('unknown')], {
  description: 'the speaker’s role in the conversation',
});

export const SummarySegment = Type.Object({
  index: Type.Integer({ description: 'position in the transcript; evidence names segments by it' }),
  speaker: Type.String(),
  role: Role,
  startMs: nullable(Type.Integer(), 'milliseconds from the start; null when the transcript gives no time'),
  endMs: nullable(Type.Integer(), 'null when the transcript gives no time'),
  text: Type.String(),
});

export const EvidenceView = Type.Object({
  quote: Type.String({ description: 'an exact substring of the text of the segment it names' }),
  segmentIndex: Type.Integer(),
  speaker: Type.String(),
  role: Role,
  startMs: nullable(Type.Integer(), 'null when the transcript gives the segment no time'),
});

export const VerdictView = Type.Object({
  groupId: Type.String(),
  groupName: Type.String(),
  criterionId: Type.String(),
  criterionName: Type.String(),
  weight: Type.Number(),
  passed: Type.Boolean({ description: 'a passed criterion adds its weight to the score; an inapplicable one counts as passed' }),
  applicable: Type.Boolean({ description: 'false when the criterion only applies in a situation that did not arise' }),
  confidence: Type.Number({ description: '0 to 1' }),
  needsReview: Type.Boolean({
    description: 'the engine is not sure enough (confidence below the evaluation’s reviewThreshold): a person should decide; `passed` is the side it leans to, and the score counts it that way',
  }),
  reason: Type.String(),
  expected: Type.String({ description: 'failures: what was expected and not found' }),
  suggestion: Type.String({ description: 'failures: what to do instead' }),
  evidence: Type.Array(EvidenceView),
});

export const SpeakerStatisticsView = Type.Object({
  speaker: Type.String(),
  role: Role,
  words: Type.Integer(),
  talkMs: Type.Integer({ description: '0 when the transcript has no times' }),
  talkShare: Type.Number({ description: 'share of the talking, 0 to 1 (by time when timed, else by words)' }),
  questions: Type.Integer(),
  longestMonologueMs: Type.Integer(),
  longestMonologueWords: Type.Integer(),
  interruptions: Type.Integer(),
  fillerWords: Type.Integer(),
  fillerRate: Type.Number({ description: 'filler words per 100 words' }),
  wordsPerMinute: nullable(Type.Number(), 'null when the transcript has no times'),
});

export const StatisticsView = Type.Object({
  speakers: Type.Array(SpeakerStatisticsView),
  durationMs: Type.Integer(),
  timed: Type.Boolean(),
  wordTimings: Type.Boolean(),
  representativeTalkShare: nullable(Type.Number(), 'the representatives’ share of the talking, 0 to 1; null without a representative'),
  longestMonologueSpeaker: Type.String(),
  longestMonologueMs: Type.Integer(),
  longestMonologueWords: Type.Integer(),
});

export const EvaluationView = Type.Object({
  score: Type.Number({ description: 'the weights of the passed criteria added up: 0 to 10; a criterion that needs review counts by the side it leans to' }),
  criteriaNeedingReview: Type.Integer({ minimum: 0, description: 'how many verdicts need review ("7.5 / 10, 2 criteria need review")' }),
  reviewThreshold: Type.Number({ description: 'a verdict whose confidence is below this needs review (0 to 1)' }),
  scriptMatch: nullable(Type.Number(), 'percent of the team’s call script covered; null when the team has no script'),
  isSuccessful: nullable(Type.Boolean(), 'judged from the team’s success prompt; null (N/A) without one'),
  successConfidence: Type.Number({ minimum: 0, maximum: 1, description: 'how sure the engine is of isSuccessful (0 to 1); 0 when N/A' }),
  successNeedsReview: Type.Boolean({ description: 'the success verdict’s confidence is below reviewThreshold: isSuccessful is the side it leans to until a person decides' }),
  successReason: Type.String(),
  successEvidence: Type.Array(EvidenceView),
  verdicts: Type.Array(VerdictView, { description: 'one per criterion of the team, in the team’s order' }),
  statistics: nullable(StatisticsView, 'talk share, monologues, questions, interruptions, fillers and pace'),
  summaryDetails: Type.Object({
    participants: Type.Array(Type.String()),
    discussion: Type.String(),
    outcome: Type.String(),
    nextSteps: Type.Array(Type.String()),
  }),
  engine: Type.String({ description: '"offline-evidence+minilm" (with the sentence-embedding model), "offline-evidence" (words alone), or "openai:<model>"' }),
  fallbackReason: Type.String({ description: 'why the configured model did not judge; empty when it did' }),
  insightTokens: Type.Integer(),
  evaluatedAt: Type.String({ format: 'date-time' }),
  warnings: Type.Array(Type.String()),
});

export const ImprovementView = Type.Object({
  id: Type.String({ description: 'the criteria group' }),
  name: Type.String({ description: 'the group’s name when the activity was scored' }),
  criteria: Type.Array(
    Type.Object({
      id: Type.String({ description: 'the criterion' }),
      name: Type.String({ description: 'the criterion’s name when the activity was scored' }),
      suggestion: Type.String(),
    }),
  ),
});

export const ActivitySummaryResponse = Type.Object(
  {
    transcript: Type.String({ description: 'one line per segment, "Speaker: text", prefixed "[m:ss] " when the segment has a time; empty before it is transcribed' }),
    summary: Type.String({ description: 'the overall summary; empty until the activity is scored' }),
    improvements: Type.Array(ImprovementView, { description: 'Areas for Improvement: the failed criteria by group, each with a suggestion' }),
    segments: Type.Array(SummarySegment),
    evaluation: nullable(EvaluationView, 'null until the activity is scored'),
  },
  { $id: 'ActivitySummary' },
);

export const CallIdParams = Type.Object({ callId: Type.String({ maxLength: 200, description: 'the call id' }) });
export const MeetingIdParams = Type.Object({ meetingId: Type.String({ maxLength: 200, description: 'the meeting id' }) });
