/**
 * A ListActivities request checked and put in the terms the list query uses. A filter that cannot
 * be applied is refused with a sentence naming it (INVALID_ARGUMENT); a filter left empty means
 * no filter.
 */
import { invalidArgument } from '@parlance/platform/errors';
import { Comparison, type ListActivitiesRequest, type NumberFilter } from '@parlance/proto/parlance/analytics/v1/activities';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { activityKindName, type ActivityKindName } from '@parlance/platform/activity/activity-kind';
import type { CriterionResult } from './activity-state.js';

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEPARTMENTS = ['sales', 'hr', 'support'] as const;

export type Department = (typeof DEPARTMENTS)[number];
export type ComparisonName = 'lte' | 'eq' | 'gte';

export interface NumberComparison {
  comparison: ComparisonName;
  value: number;
}

export interface ActivityListQuery {
  kind: ActivityKindName;
  /** Empty: every team of `department`, or of the company when that is null too. */
  teamIds: string[];
  department: Department | null;
  /** Inclusive. */
  start: Date | null;
  /** Exclusive. */
  end: Date | null;
  isSuccessful: boolean | null;
  /** All must hold. An empty group id matches the criterion in any group. */
  criteria: CriterionResult[];
  durationSeconds: NumberComparison | null;
  score: NumberComparison | null;
  scriptMatch: NumberComparison | null;
  /** Lower-case. */
  representativeEmails: string[];
  contactIds: string[];
  activityIds: string[];
  /** Only activities with at least one criterion that needs review. */
  needsReview: boolean;
  page: number;
  limit: number;
}

export const LIST_MESSAGES = {
  kind: 'The kind must be call or meeting.',
  page: 'The page must be 1 or more.',
  limit: 'The limit (page size) must be 10, 20, 50 or 100.',
  department: 'The department must be sales, hr or support.',
  range: 'The end of the date range is before its start.',
  criterion: 'A criterion filter must name its criterion.',
  comparison: (label: string) => `The ${label} filter needs a comparison: ≤, = or ≥.`,
  value: (label: string) => `The ${label} filter needs a number.`,
} as const;

const COMPARISONS: Partial<Record<Comparison, ComparisonName>> = {
  [Comparison.COMPARISON_LTE]: 'lte',
  [Comparison.COMPARISON_EQ]: 'eq',
  [Comparison.COMPARISON_GTE]: 'gte',
};

export function readListRequest(request: ListActivitiesRequest): ActivityListQuery {
  const { page, limit, start, end } = request;
  const kind = readKind(request.kind);
  readPage(page, limit);
  const department = readDepartment(request.department);
  if (start && end && end.getTime() < start.getTime()) throw invalidArgument(LIST_MESSAGES.range, { field: 'end' });
  if (request.criteria.some((criterion) => criterion.criterionId === '')) throw invalidArgument(LIST_MESSAGES.criterion, { field: 'criteria' });
  return {
    kind,
    teamIds: request.teamIds,
    department,
    start: start ?? null,
    end: end ?? null,
    isSuccessful: request.isSuccessful ?? null,
    criteria: request.criteria.map(({ groupId, criterionId, passed }) => ({ groupId, criterionId, passed })),
    durationSeconds: numberComparison(request.durationSeconds, 'duration', 'durationSeconds'),
    score: numberComparison(request.score, 'score', 'score'),
    scriptMatch: numberComparison(request.scriptMatch, 'script match', 'scriptMatch'),
    representativeEmails: request.representativeEmails.map((email) => email.trim().toLowerCase()),
    contactIds: request.contactIds,
    activityIds: request.activityIds,
    needsReview: request.needsReview,
    page,
    limit,
  };
}

/** A call or a meeting; any other kind is refused. */
export function readKind(kind: ActivityKind): ActivityKindName {
  if (kind !== ActivityKind.ACTIVITY_KIND_CALL && kind !== ActivityKind.ACTIVITY_KIND_MEETING) throw invalidArgument(LIST_MESSAGES.kind, { field: 'kind' });
  return activityKindName(kind);
}

/** One of the departments, or null for any (empty). */
export function readDepartment(department: string): Department | null {
  if (department === '') return null;
  if (!isDepartment(department)) throw invalidArgument(LIST_MESSAGES.department, { field: 'department', allowed: DEPARTMENTS });
  return department;
}

/** A page of any list: from 1, of 10, 20, 50 or 100 rows. */
export function readPage(page: number, limit: number): { page: number; limit: number } {
  if (page < 1) throw invalidArgument(LIST_MESSAGES.page, { field: 'page' });
  if (!(PAGE_SIZES as readonly number[]).includes(limit)) throw invalidArgument(LIST_MESSAGES.limit, { field: 'limit', allowed: PAGE_SIZES });
  return { page, limit };
}

/** The number of pages `total` rows fill: none for no rows. */
export function pageCount(total: number, limit: number): number {
  return Math.ceil(total / limit);
}

function numberComparison(filter: NumberFilter | undefined, label: string, field: string): NumberComparison | null {
  if (!filter) return null;
  const comparison = COMPARISONS[filter.comparison];
  if (!comparison) throw invalidArgument(LIST_MESSAGES.comparison(label), { field });
  if (!Number.isFinite(filter.value)) throw invalidArgument(LIST_MESSAGES.value(label), { field });
  return { comparison, value: filter.value };
}

function isDepartment(value: string): value is Department {
  return (DEPARTMENTS as readonly string[]).includes(value);
}
