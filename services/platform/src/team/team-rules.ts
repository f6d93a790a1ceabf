/**
 * The team editor's limits (spec part 1 §3 and §5), which identity enforces when a team is saved
 * (identity's domain/teams.ts). Here so that a service adding members on a team's behalf (the
 * Close sync) can tell beforehand whom identity would refuse, by the same numbers.
 */
export const TEAM_LIMITS = {
  teamNameMin: 2,
  teamNameMax: 100,
  criterionNameMin: 2,
  criterionNameMax: 100,
  /** A prompt shorter than this cannot say what to check. */
  criterionPromptMin: 10,
  criterionPromptMax: 500,
  groupNameMax: 100,
  successPromptMax: 500,
  callScriptMax: 10_000,
  memberNameMin: 2,
  memberNameMax: 100,
  memberEmailMax: 254,
  crmIdMax: 200,
  /** Weights are 0 to 10 each and add up to exactly this. */
  criterionWeightMax: 10,
  totalWeight: 10,
  /** Bounds that keep one team's save (and its event) a reasonable size. */
  groupsMax: 50,
  criteriaMax: 100,
  membersMax: 1_000,
  targetMax: 100_000,
} as const;

/**
 * The spec's e-mail check: text, @, text, dot, text. "Text" excludes white space and a second @,
 * which is what every browser form check of this kind does; anything stricter belongs to the
 * verification e-mail, the only real proof that an address works.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A verdict whose confidence is below its team's review threshold needs review (scoring's
 * domain/review.ts). A team that never chose one has the default; a manager may choose from 50%
 * (only verdicts less sure than a coin toss) to 95% (all but the surest). Identity enforces the
 * bounds, scoring applies the default to teams and snapshots from before teams had one.
 */
export const REVIEW_THRESHOLD = { default: 0.7, min: 0.5, max: 0.95 } as const;
