/**
 * The calls and meetings lists (spec part 2 §3 "Call", "Meeting", "Call list filters", "List
 * response"; §7 GET /calls/ and GET /meetings). Filter values are taken as text and read by
 * activity-filters.ts, so a bad one is answered with a sentence naming its parameter.
 */
import Type from 'typebox';

const nullable = <T extends Type.TSchema>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description });

/** A list parameter: repeated (`teamIds=a&teamIds=b`) or comma-separated (`teamIds=a,b`). */
const List = (description: string) =>
  Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description: `${description}; repeated or comma-separated` }));
const Json = (description: string) => Type.Optional(Type.String({ description }));

const NUMBER_FILTER = 'a JSON object {"value": number, "operator": "lte" | "eq" | "gte"}';
const CRITERION_FILTER = 'a JSON list of {"criterionGroupId", "criterionId", "result": true | false}; every entry must hold';

const commonFilters = {
  teamId: Type.Optional(Type.String({ description: 'one team; combined with teamIds' })),
  teamIds: List('teams; none (and no teamId) means every team of `department`, or of the company'),
  startDate: Type.Optional(Type.String({ description: 'occurred at or after (ISO 8601)' })),
  endDate: Type.Optional(Type.String({ description: 'occurred at or before (ISO 8601); a date alone means the whole of that day' })),
  success: Type.Optional(Type.String({ description: '"true" or "false": only successful or only unsuccessful activities (N/A never matches)' })),
  criterion: Json(CRITERION_FILTER),
  duration: Json(`duration in seconds: ${NUMBER_FILTER}`),
  score: Json(`score (0–10): ${NUMBER_FILTER}`),
  scriptMatch: Json(`script match (0–100 %): ${NUMBER_FILTER}`),
  contactIds: List('contact ids'),
  needsReview: Type.Optional(
    Type.String({ description: '"true": only activities with at least one criterion that needs review (beyond the spec); left out, no filter. Any other value is 400' }),
  ),
  page: Type.Optional(Type.String({ description: 'from 1; default 1' })),
  limit: Type.Optional(Type.String({ description: '10, 20, 50 or 100; default 20' })),
};

export const CallListQuery = Type.Object({
  department: Type.Optional(Type.String({ description: 'sales, hr or support: the teams of this department when no team is named' })),
  ...commonFilters,
  representatives: List('representatives’ e-mails'),
  callIds: List('call ids'),
});

export const MeetingListQuery = Type.Object({
  department: Type.Optional(Type.String({ description: 'sales, hr or support: the teams of this department when no team is named' })),
  ...commonFilters,
  rep_emails: List('representatives’ e-mails'),
  meetingIds: List('meeting ids'),
});

const Status = Type.Union([Type.Literal('processing'), Type.Literal('scored'), Type.Literal('failed')], {
  description: 'processing until scored; failed when transcription or scoring could not finish (beyond the spec)',
});

const CriteriaNeedingReview = Type.Integer({
  minimum: 0,
  description:
    'how many of its criteria need review: the evaluator was not sure enough of the verdict, which counts by the side it leans to until a person decides (beyond the spec); 0 until scored',
});

export const Pagination = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer({ description: 'rows matching the filters (beyond the spec)' }),
  totalPages: Type.Integer({ description: '0 when nothing matches' }),
});

export const Call = Type.Object(
  {
    id: Type.String(),
    audio_date: Type.String({ description: 'when the call took place (ISO 8601)' }),
    audio_duration: Type.Integer({ description: 'seconds; 0 until transcribed or when unknown' }),
    representative: Type.String({ description: 'the representative’s e-mail' }),
    representativeName: Type.String({ description: 'as the upload named them (beyond the spec)' }),
    contact_id: Type.String(),
    contactName: Type.String(),
    score: nullable(Type.Number(), 'the sum of the weights of the passed criteria, 0–10; null until scored'),
    script_match: nullable(Type.Number(), '0–100; null until scored or when the team has no script'),
    is_successful: nullable(Type.Boolean(), 'null until scored or when the team has no success prompt (N/A)'),
    evaluation: Type.Array(
      Type.Object({
        id: Type.String({ description: 'the criteria group' }),
        criteria: Type.Array(Type.Object({ id: Type.String(), result: Type.Boolean() })),
      }),
    ),
    criteriaNeedingReview: CriteriaNeedingReview,
    teamId: Type.String(),
    fileName: Type.String(),
    media: Type.Union([Type.Literal('audio'), Type.Literal('text')], { description: 'audio: the recording can be played at GET /api/calls/{id}/recording' }),
    status: Status,
  },
  { $id: 'Call' },
);

export const Improvements = Type.Array(
  Type.Object({
    id: Type.String({ description: 'the criteria group' }),
    name: Type.String(),
    criteria: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), suggestion: Type.String() })),
  }),
);

export const Meeting = Type.Object(
  {
    id: Type.String(),
    date: Type.String({ description: 'when the meeting took place (ISO 8601)' }),
    rep_email: Type.String(),
    representativeName: Type.String({ description: 'beyond the spec' }),
    contact: Type.Object({ name: Type.String(), company: Type.String() }),
    contact_id: Type.String(),
    role: Type.String({ description: 'the role the contact applies for (hr)' }),
    duration: Type.Integer({ description: 'seconds; 0 until transcribed or when unknown' }),
    score: nullable(Type.Number(), '0–10; null until scored'),
    script_match: nullable(Type.Number(), '0–100; null until scored or without a script'),
    is_successful: nullable(Type.Boolean(), 'null until scored or without a success prompt'),
    evaluations: Type.Array(Type.Object({ group_id: Type.String(), criterion_id: Type.String(), result: Type.Boolean() })),
    criteriaNeedingReview: CriteriaNeedingReview,
    link: Type.String({ description: 'the external meeting link; empty when unknown' }),
    transcript: Type.String({ description: '"[m:ss] Speaker: text" lines; empty until transcribed' }),
    summary: Type.Object({ summary: Type.String(), improvements: Improvements }),
    title: Type.String(),
    teamId: Type.String(),
    status: Status,
  },
  { $id: 'Meeting' },
);

export const CallListResponse = Type.Object({ data: Type.Array(Call), pagination: Pagination });
export const MeetingListResponse = Type.Object({ data: Type.Array(Meeting), pagination: Pagination });

/** Spec part 2 §3 "Share and feedback responses": message, error, success. */
export const ShareFeedbackResponse = Type.Object(
  {
    success: Type.Boolean(),
    message: Type.String(),
  },
  { $id: 'ShareFeedbackResponse' },
);

export const ShareBody = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 320, description: 'the recipient: text, @, text, dot, text' })),
});

export const FeedbackBody = Type.Object({
  description: Type.Optional(Type.String({ maxLength: 4000, description: 'what is wrong with the analysis: 1 to 1,000 characters after trimming' })),
});

export const FeedbackListQuery = Type.Object({
  page: Type.Optional(Type.String({ description: 'from 1; default 1' })),
  limit: Type.Optional(Type.String({ description: '10, 20, 50 or 100; default 20' })),
});

export const FeedbackReportView = Type.Object({
  id: Type.String(),
  activityId: Type.String(),
  activityType: Type.Union([Type.Literal('call'), Type.Literal('meeting')]),
  activityName: Type.String({ description: 'the title or file name when reported; the activity may be deleted since' }),
  description: Type.String(),
  reporter: Type.Object({ email: Type.String(), name: Type.String() }),
  createdAt: Type.String(),
});

export const FeedbackListResponse = Type.Object({ data: Type.Array(FeedbackReportView), pagination: Pagination });
