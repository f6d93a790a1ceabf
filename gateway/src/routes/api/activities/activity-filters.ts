/**
 * Reads the list filters of spec part 2 §3 ("Call list filters") and §7 (GET /meetings) into
 * analytics' request. A value that cannot be applied is refused with a sentence naming its
 * parameter (an invalid-argument error, answered 400): a filter silently ignored would show a
 * person rows they did not ask for.
 */
import { invalidArgument } from '@parlance/platform/errors';
import type { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { Comparison, type CriterionFilter, type ListActivitiesRequest, type NumberFilter } from '@parlance/proto/parlance/analytics/v1/activities';

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;

const OPERATORS: Record<string, Comparison> = { lte: Comparison.COMPARISON_LTE, eq: Comparison.COMPARISON_EQ, gte: Comparison.COMPARISON_GTE };
const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

export type Raw = string | string[] | undefined;

/** The query as either list accepts it, with the parameter names of each. */
export interface ListQuery {
  department?: string;
  teamId?: string;
  teamIds?: Raw;
  startDate?: string;
  endDate?: string;
  success?: string;
  criterion?: string;
  duration?: string;
  score?: string;
  scriptMatch?: string;
  contactIds?: Raw;
  /** Representatives' e-mails: `representatives` for calls, `rep_emails` for meetings. */
  representatives?: Raw;
  /** `callIds` or `meetingIds`. */
  ids?: Raw;
  /** "true": only activities with a criterion that needs review (beyond the spec). */
  needsReview?: string;
  page?: string;
  limit?: string;
}

export function listRequestOf(kind: ActivityKind, query: ListQuery): ListActivitiesRequest {
  const start = instant('startDate', query.startDate, 'start');
  const end = instant('endDate', query.endDate, 'end');
  if (start && end && end < start) throw invalidArgument('endDate must not be before startDate.');
  return {
    kind,
    teamIds: unique([...(query.teamId?.trim() ? [query.teamId.trim()] : []), ...listParam(query.teamIds)]),
    department: query.department?.trim() ?? '',
    start,
    end,
    isSuccessful: success(query.success),
    criteria: criteria(query.criterion),
    durationSeconds: numberFilter('duration', query.duration, { min: 0, max: Number.MAX_SAFE_INTEGER }),
    score: numberFilter('score', query.score, { min: 0, max: 1000 }),
    scriptMatch: numberFilter('scriptMatch', query.scriptMatch, { min: 0, max: 100 }),
    representativeEmails: unique(listParam(query.representatives).map((email) => email.toLowerCase())),
    contactIds: unique(listParam(query.contactIds)),
    activityIds: unique(listParam(query.ids)),
    needsReview: needsReview(query.needsReview),
    ...pageOf(query),
  };
}

/** `page` (from 1, default 1) and `limit` (10, 20, 50 or 100, default 20), as every list reads them. */
export function pageOf(query: { page?: string; limit?: string }): { page: number; limit: number } {
  return {
    page: integer(query.page, 1, (page) => page >= 1, 'page must be a whole number from 1.'),
    limit: integer(query.limit, DEFAULT_PAGE_SIZE, (limit) => (PAGE_SIZES as readonly number[]).includes(limit), 'limit must be 10, 20, 50 or 100.'),
  };
}

/** Repeated and comma-separated values alike; trimmed, empty entries dropped. */
export function listParam(raw: Raw): string[] {
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return values.flatMap((value) => value.split(',')).map((value) => value.trim()).filter((value) => value !== '');
}

const unique = (values: string[]) => [...new Set(values)];

/**
 * An ISO 8601 date and time. A date alone is the whole day: from its start for `startDate`, up to
 * the next midnight for `endDate` (analytics' end is exclusive), so a range "2026-10-01 to
 * 2026-12-31" holds all of the 31st.
 */
function instant(name: string, raw: string | undefined, edge: 'start' | 'end'): Date | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime())) throw invalidArgument(`${name} must be a date (ISO 8601), e.g. 2026-10-01 or 2026-10-01T00:00:00Z.`);
  return edge === 'end' && DAY_ONLY.test(value) ? new Date(parsed.getTime() + DAY_MS) : parsed;
}

function success(raw: string | undefined): boolean | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw invalidArgument('success must be true or false.');
}

/** `raw` read as JSON; else a 400 saying `name` must be `shape`. */
export function parseJson(name: string, raw: string, shape: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw invalidArgument(`${name} must be ${shape}.`);
  }
}

/**
 * Only "true" filters; left out (or empty), nothing is filtered. "false" is refused rather than read
 * as no filter: it would read as "only activities with nothing to review", which is not offered.
 */
function needsReview(raw: string | undefined): boolean {
  const value = raw?.trim();
  if (!value) return false;
  if (value === 'true') return true;
  throw invalidArgument('needsReview must be true (only activities with a criterion that needs review), or left out.');
}

const CRITERION_SHAPE = 'a JSON list of {"criterionGroupId", "criterionId", "result": true or false}';

function criteria(raw: string | undefined): CriterionFilter[] {
  if (!raw?.trim()) return [];
  const parsed = parseJson('criterion', raw, CRITERION_SHAPE);
  const entries = Array.isArray(parsed) ? parsed : [parsed];
  return entries.map((entry: unknown) => {
    const { criterionGroupId, criterionId, result } = (entry ?? {}) as Record<string, unknown>;
    if (typeof criterionId !== 'string' || criterionId.trim() === '' || typeof result !== 'boolean' || (criterionGroupId !== undefined && typeof criterionGroupId !== 'string')) {
      throw invalidArgument(`criterion must be ${CRITERION_SHAPE}.`);
    }
    return { groupId: criterionGroupId?.trim() ?? '', criterionId: criterionId.trim(), passed: result };
  });
}

function numberFilter(name: string, raw: string | undefined, range: { min: number; max: number }): NumberFilter | undefined {
  if (!raw?.trim()) return undefined;
  const shape = 'a JSON object {"value": a number, "operator": "lte", "eq" or "gte"}';
  const { value, operator } = (parseJson(name, raw, shape) ?? {}) as Record<string, unknown>;
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number) || typeof operator !== 'string' || !(operator in OPERATORS)) {
    throw invalidArgument(`${name} must be ${shape}.`);
  }
  if (number < range.min || number > range.max) throw invalidArgument(`${name} value must be between ${range.min} and ${range.max}.`);
  return { value: number, comparison: OPERATORS[operator]! };
}

function integer(raw: string | undefined, fallback: number, allowed: (value: number) => boolean, message: string): number {
  const value = raw?.trim();
  if (!value) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || !allowed(parsed)) throw invalidArgument(message);
  return parsed;
}
