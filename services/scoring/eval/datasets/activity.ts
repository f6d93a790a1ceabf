/**
 * Builds the engine's input from a dataset's turns: the transcript (plain text turns, no times,
 * no words) and a team snapshot with equal weights.
 */
import type { CriteriaGroup } from '@parlance/proto/parlance/identity/v1/teams';
import { SpeakerRole, type Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import { activityKindOf } from '@parlance/platform/activity/activity-kind';
import type { ActivityKindName } from '@parlance/platform/activity/activity-kind';
import type { EvaluationInput, TeamSnapshot } from '../../src/engines/evaluation-engine.js';
import { DEFAULT_REVIEW_THRESHOLD } from '../../src/domain/review.js';
import { atLeastHalfPresent, tokenSet } from '../metrics/content-words.js';
import type { Baseline, EvalCase } from '../systems.js';

export interface Turn {
  speaker: string;
  role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE | SpeakerRole.SPEAKER_ROLE_CONTACT;
  text: string;
}

/** One segment per turn, in order; speakers listed once each, in order of first appearance. */
export function buildTranscript(activityId: string, kind: ActivityKindName, turns: readonly Turn[], sourceFormat: string): Transcript {
  const speakers = new Map<string, SpeakerRole>();
  for (const turn of turns) if (!speakers.has(turn.speaker)) speakers.set(turn.speaker, turn.role);
  return {
    activityId,
    kind: activityKindOf(kind),
    sourceFormat,
    engine: 'text',
    durationMs: 0,
    speakers: [...speakers].map(([label, role]) => ({ label, role })),
    segments: turns.map((turn) => ({ speaker: turn.speaker, text: turn.text, words: [] })),
    warnings: [],
  };
}

/**
 * n weights that total exactly 10: 10/n rounded to two decimals, the remainder on the last
 * (3 → 3.33, 3.33, 3.34). Where rounding up would leave the last one negative (54 criteria and
 * more), 10/n is rounded down instead.
 */
export function equalWeights(count: number): number[] {
  if (count === 0) return [];
  let hundredths = Math.round(1000 / count);
  if (hundredths * (count - 1) > 1000) hundredths = Math.floor(1000 / count);
  const last = 1000 - hundredths * (count - 1);
  return Array.from({ length: count }, (_, index) => (index === count - 1 ? last : hundredths) / 100);
}

export interface CriterionSpec {
  id: string;
  name: string;
  prompt: string;
}

export interface GroupSpec {
  id: string;
  name: string;
  criteria: CriterionSpec[];
}

/** Equal weights over every criterion of every group, in order. */
export function weightedGroups(groups: readonly GroupSpec[]): CriteriaGroup[] {
  const weights = equalWeights(groups.reduce((count, group) => count + group.criteria.length, 0));
  let next = 0;
  return groups.map((group) => ({
    id: group.id,
    name: group.name,
    criteria: group.criteria.map((criterion) => ({ ...criterion, weight: weights[next++]! })),
  }));
}

export interface ActivitySpec {
  activityId: string;
  kind: ActivityKindName;
  turns: readonly Turn[];
  sourceFormat: string;
  team: { id: string; name: string; department: 'sales' | 'hr' | 'support'; groups: readonly GroupSpec[]; successPrompt: string };
  representative: { email: string; name: string };
}

export function buildInput(spec: ActivitySpec): EvaluationInput {
  const team: TeamSnapshot = {
    id: spec.team.id,
    version: 1,
    name: spec.team.name,
    department: spec.team.department,
    criteriaGroups: weightedGroups(spec.team.groups),
    successPrompt: spec.team.successPrompt,
    callScript: '',
    // The team a manager has not tuned: the harness measures verdicts at the default.
    reviewThreshold: DEFAULT_REVIEW_THRESHOLD,
  };
  return {
    activityId: spec.activityId,
    kind: spec.kind,
    transcript: buildTranscript(spec.activityId, spec.kind, spec.turns, spec.sourceFormat),
    team,
    representative: spec.representative,
  };
}

/** The text of every segment spoken by someone with this role. */
export function textsOfRole(input: EvaluationInput, role: SpeakerRole): string[] {
  const roles = new Map(input.transcript.speakers.map((speaker) => [speaker.label, speaker.role]));
  return input.transcript.segments.filter((segment) => roles.get(segment.speaker) === role).map((segment) => segment.text);
}

/** A criterion a dataset writes down in words, which the keyword baseline looks for. */
export interface GuidelineCriterion {
  groupId: string;
  criterionId: string;
  guideline: string;
}

/** The keyword-overlap baseline of the criteria datasets, the same rule for each. */
export function keywordOverlapBaseline<C extends EvalCase>(criteriaOf: (item: C) => GuidelineCriterion[]): Baseline<C> {
  return {
    name: 'keyword-overlap',
    description: "a criterion fails when fewer than half of its guideline's content words appear anywhere in the Agent's turns",
    predict: (item) => {
      const said = tokenSet(textsOfRole(item.input, SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE));
      return {
        verdicts: criteriaOf(item).map(({ groupId, criterionId, guideline }) => ({ groupId, criterionId, passed: atLeastHalfPresent(guideline, said), applicable: true, evidence: [] })),
        isSuccessful: undefined,
        summary: '',
      };
    },
  };
}
