/**
 * Payloads of the team calls (spec part 1 §3 and §7; part 2 §3 and §5). Request fields are
 * optional and loosely typed on purpose: identity checks a team and answers with the spec's own
 * sentences ('Please enter a valid weight (0-10) for criterion #1 in criteria group #2'), which a
 * schema error could not. Lengths are bounded here only to keep request bodies small.
 */
import Type from 'typebox';

const Id = Type.String({ maxLength: 200, description: 'made by the client (UUID, or 1 to 64 letters, digits, dashes, underscores)' });
const Text = (maxLength: number, description?: string) => Type.String({ maxLength, ...(description ? { description } : {}) });
/**
 * What the person typed: a number or text; null and absent mean empty. A type list rather than a
 * union, because the validator coerces a value only when no listed type fits it: with a union it
 * would turn null into 0 and '' into null. Identity reads the text and names what is wrong.
 */
const Typed = (description: string) =>
  Type.Optional(Type.Unsafe<number | string | null>({ type: ['number', 'string', 'null'], maxLength: 50, description }));

export const TeamIdParams = Type.Object({ id: Type.String({ maxLength: 200, description: 'the team id' }) });

export const DepartmentQuery = Type.Object({
  department: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        "the current department (the web app's selected-department); only its teams are listed. Omitted: every department's teams. A key the company does not have is 400.",
    }),
  ),
});

const CriterionInput = Type.Object({
  id: Type.Optional(Id),
  name: Type.Optional(Text(1_000)),
  prompt: Type.Optional(Text(5_000, 'the evaluation prompt (the editor’s description)')),
  weight: Typed('0 to 10, decimals with a dot or a comma ("7,5"); all weights of a team total exactly 10'),
});

const CriteriaGroupInput = Type.Object({
  id: Type.Optional(Id),
  name: Type.Optional(Text(1_000)),
  criteria: Type.Optional(Type.Array(CriterionInput, { maxItems: 500 })),
});

const TeamInput = Type.Object({
  id: Type.Optional(Type.String({ maxLength: 200, description: "'new' (or empty) for a team the server names; otherwise the team id" })),
  name: Type.Optional(Text(1_000)),
  department: Type.Optional(Text(200)),
  criteria_group: Type.Optional(Type.Array(CriteriaGroupInput, { maxItems: 500 })),
  success_criteria: Type.Optional(Type.Object({ prompt: Type.Optional(Text(5_000)) })),
  members: Type.Optional(
    Type.Array(Type.String({ maxLength: 1_000 }), { maxItems: 5_000, description: 'ignored: the server keeps it in step with the e-mails of the members sent alongside' }),
  ),
  call_script: Type.Optional(
    Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 100_000, description: "'' when the team has no script; null or absent is refused: 'Please enter a call script'" }),
  ),
  crm_id: Type.Optional(Type.Union([Text(1_000), Type.Null()])),
  review_threshold: Type.Optional(
    Type.Unsafe<number | null>({
      type: ['number', 'null'],
      description:
        "a verdict whose confidence is below this needs review: 0.5 to 0.95 (the editor's 50% to 95%), anything else is refused: 'Review threshold must be between 50% and 95%'. Null or absent: an existing team keeps its own, a new one gets 0.7",
    }),
  ),
});

const TeamMemberInput = Type.Object({
  first_name: Type.Optional(Text(1_000)),
  last_name: Type.Optional(Text(1_000)),
  email: Type.Optional(Text(1_000)),
  crm_id: Type.Optional(Type.Union([Text(1_000), Type.Null()])),
  target: Typed('daily target: a whole number ≥ 0; empty means 0'),
});

export const TeamSaveBody = Type.Object({
  team: Type.Optional(TeamInput),
  isNew: Type.Optional(Type.Boolean({ description: 'true to create; a create naming an existing team of the company updates it instead of making a second one' })),
  members: Type.Optional(
    Type.Array(TeamMemberInput, { maxItems: 5_000, description: "the team's members, replacing the ones it has; omitted: an existing team keeps its members" }),
  ),
});

export const CriterionView = Type.Object({ id: Type.String(), name: Type.String(), prompt: Type.String(), weight: Type.Number({ minimum: 0, maximum: 10 }) });

export const CriteriaGroupView = Type.Object({ id: Type.String(), name: Type.String(), criteria: Type.Array(CriterionView) }, { $id: 'CriteriaGroup' });

export const TeamView = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    department: Type.String(),
    criteria_group: Type.Array(CriteriaGroupView),
    success_criteria: Type.Object({ prompt: Type.String() }),
    members: Type.Array(Type.String(), { description: "the members' e-mails, in member order" }),
    call_script: Type.String(),
    crm_id: Type.String(),
    review_threshold: Type.Number({
      minimum: 0.5,
      maximum: 0.95,
      description: 'a verdict whose confidence is below this needs review instead of counting as passed or failed; 0.7 unless the team chose otherwise',
    }),
    version: Type.Integer({ description: 'goes up by one with every change' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Team' },
);

export const TeamMemberView = Type.Object(
  {
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String(),
    crm_id: Type.String(),
    target: Type.Integer({ minimum: 0, description: 'daily target' }),
  },
  { $id: 'TeamMember' },
);

export const TeamsResponse = Type.Array(TeamView);
export const TeamMembersResponse = Type.Array(TeamMemberView);
export const TeamResponse = Type.Object({ team: TeamView, members: TeamMembersResponse });

export const TeamSaveResponse = Type.Object({
  success: Type.Literal(true),
  team: TeamView,
  members: TeamMembersResponse,
  created: Type.Boolean({ description: 'false when the save updated a team that already existed' }),
});

export const TeamDeleteResponse = Type.Object({ success: Type.Literal(true) });

export const AiSuggestionBody = Type.Object({
  criterionName: Type.Optional(Text(1_000)),
  criterionDescription: Type.Optional(Type.Union([Text(5_000), Type.Null()])),
});

export const AiSuggestionResponse = Type.Object({
  success: Type.Literal(true),
  suggestion: Type.String({ description: 'an evaluation prompt of at most 500 characters; replaces the criterion’s prompt' }),
  source: Type.Union([Type.Literal('model'), Type.Literal('offline')], {
    description: "'model' when the configured OpenAI-compatible model wrote it, 'offline' for the built-in engine",
  }),
});

/** A team in the company object (spec part 2 §3): enough for team pickers and criterion columns. */
export const CompanyTeamView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  department: Type.String(),
  members: Type.Array(Type.String()),
  criteria_group: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), criteria: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })) })),
});
