/**
 * The column filters of the activity tables and their translation into the list query (spec
 * part 2 §2.2, §3 "Call list filters", §5 "Duration filter" … "Filter sending", §7 GET /meetings).
 * Pure: the tables keep a `ColumnFilters` value and send `callListParams(...)` or `meetingListParams(...)`.
 */
import type { ListCallsApiArg, ListMeetingsApiArg } from '../../../lib/api/gateway-api.generated';
import { parseIds, type ActivityTab } from '../activity-ids';

export type Operator = 'lte' | 'eq' | 'gte';

export const OPERATORS: readonly { value: Operator; symbol: string; label: string }[] = [
  { value: 'lte', symbol: '≤', label: 'at most' },
  { value: 'eq', symbol: '=', label: 'exactly' },
  { value: 'gte', symbol: '≥', label: 'at least' },
];

/** A yes/no pair of toggles. Both ticked (the default) means no filter. */
export type YesNo = { yes: boolean; no: boolean };
export const BOTH: YesNo = { yes: true, no: true };

/** A value as typed (empty: no filter) and its operator. */
export type NumberFilter = { value: string; operator: Operator };
export const NO_NUMBER: NumberFilter = { value: '', operator: 'gte' };

/** The toggles of one criterion of the team, named by its group and its own id. */
export type CriterionFilter = { groupId: string; criterionId: string; pair: YesNo };

export type ColumnFilters = {
  success: YesNo;
  /** a criterion absent here is not filtered */
  criteria: CriterionFilter[];
  /** minutes */
  duration: NumberFilter;
  score: NumberFilter;
  /** percent */
  scriptMatch: NumberFilter;
  /** representatives' e-mails; none: everyone */
  representatives: string[];
  /** contact ids as typed, comma-separated */
  contactIds: string;
  /** only activities with a criterion that needs review (beyond the spec) */
  needsReview: boolean;
};

export const EMPTY_FILTERS: ColumnFilters = {
  success: BOTH,
  criteria: [],
  duration: NO_NUMBER,
  score: NO_NUMBER,
  scriptMatch: NO_NUMBER,
  representatives: [],
  contactIds: '',
  needsReview: false,
};

/** Spec part 2 §5: what each value filter accepts, per list. */
export const LIMITS: Record<ActivityTab, Record<'duration' | 'score' | 'scriptMatch', { min: number; max: number }>> = {
  calls: { duration: { min: 0, max: 100 }, score: { min: 0, max: 1000 }, scriptMatch: { min: 0, max: 100 } },
  meetings: { duration: { min: 0, max: 500 }, score: { min: 0, max: 100 }, scriptMatch: { min: 0, max: 100 } },
};

/** The toggles of one criterion: both ticked unless set. */
export function criterionPair(filters: ColumnFilters, groupId: string, criterionId: string): YesNo {
  return filters.criteria.find((entry) => entry.groupId === groupId && entry.criterionId === criterionId)?.pair ?? BOTH;
}

/** The filters with one criterion's toggles set. */
export function withCriterion(filters: ColumnFilters, groupId: string, criterionId: string, pair: YesNo): ColumnFilters {
  const same = (entry: CriterionFilter) => entry.groupId === groupId && entry.criterionId === criterionId;
  const criteria = filters.criteria.some(same)
    ? filters.criteria.map((entry) => (same(entry) ? { groupId, criterionId, pair } : entry))
    : [...filters.criteria, { groupId, criterionId, pair }];
  return { ...filters, criteria };
}

/** true or false when exactly one of the pair is ticked; undefined (not sent) otherwise. */
export function yesNoValue(pair: YesNo): boolean | undefined {
  return pair.yes === pair.no ? undefined : pair.yes;
}

/** Whether a yes/no pair filters at all. */
export const yesNoActive = (pair: YesNo): boolean => yesNoValue(pair) !== undefined;

/** The typed number ('1,5' reads 1.5); undefined when empty or not a number. */
function typedNumber(filter: NumberFilter): number | undefined {
  const text = filter.value.trim().replace(',', '.');
  if (text === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** The typed number, held within the limits; undefined when empty or not a number. */
function numberValue(filter: NumberFilter, limits: { min: number; max: number }): number | undefined {
  const value = typedNumber(filter);
  return value === undefined ? undefined : Math.min(limits.max, Math.max(limits.min, value));
}

/** Whether a value filter narrows the list (its header shows it). */
export const numberActive = (filter: NumberFilter): boolean => typedNumber(filter) !== undefined;

export type ListContext = {
  department: string | null;
  teamId: string;
  startDate: Date;
  endDate: Date;
  /** the activity ids the URL pre-filters with */
  ids: readonly string[];
  page: number;
  limit: number;
};

/** The filters as the list query sends them; nothing is sent for a filter that does not filter. */
function filterValues(tab: ActivityTab, filters: ColumnFilters) {
  const limits = LIMITS[tab];
  const values: Partial<Record<'success' | 'criterion' | 'duration' | 'score' | 'scriptMatch' | 'contactIds' | 'needsReview', string>> & { representatives?: string } = {};

  const success = yesNoValue(filters.success);
  if (success !== undefined) values.success = String(success);

  const criteria = filters.criteria.flatMap(({ groupId, criterionId, pair }) => {
    const result = yesNoValue(pair);
    return result === undefined ? [] : [{ criterionGroupId: groupId, criterionId, result }];
  });
  if (criteria.length > 0) values.criterion = JSON.stringify(criteria);

  // Duration is typed in minutes, rounded to whole minutes and sent in seconds.
  const minutes = numberValue(filters.duration, limits.duration);
  if (minutes !== undefined) values.duration = JSON.stringify({ value: Math.round(minutes) * 60, operator: filters.duration.operator });
  const score = numberValue(filters.score, limits.score);
  if (score !== undefined) values.score = JSON.stringify({ value: score, operator: filters.score.operator });
  const scriptMatch = numberValue(filters.scriptMatch, limits.scriptMatch);
  if (scriptMatch !== undefined) values.scriptMatch = JSON.stringify({ value: scriptMatch, operator: filters.scriptMatch.operator });

  const representatives = [...new Set(filters.representatives)];
  if (representatives.length > 0) values.representatives = representatives.join(',');
  const contactIds = parseIds(filters.contactIds);
  if (contactIds.length > 0) values.contactIds = contactIds.join(',');
  // Sent only when it filters: the gateway refuses any value but true.
  if (filters.needsReview) values.needsReview = 'true';
  return values;
}

function common(context: ListContext) {
  return {
    ...(context.department ? { department: context.department } : {}),
    teamId: context.teamId,
    startDate: context.startDate.toISOString(),
    endDate: context.endDate.toISOString(),
  };
}

/** The query of GET /api/calls/: lists comma-joined, JSON filters as text. */
export function callListParams(context: ListContext, filters: ColumnFilters): ListCallsApiArg {
  const params: ListCallsApiArg = { ...common(context), ...filterValues('calls', filters), page: String(context.page), limit: String(context.limit) };
  if (context.ids.length > 0) params.callIds = context.ids.join(',');
  return params;
}

/** The query of GET /api/meetings: as the calls', with repEmails and meetingIds. */
export function meetingListParams(context: ListContext, filters: ColumnFilters): ListMeetingsApiArg {
  const { representatives, ...values } = filterValues('meetings', filters);
  const params: ListMeetingsApiArg = { ...common(context), ...values, page: String(context.page), limit: String(context.limit) };
  if (representatives) params.repEmails = representatives;
  if (context.ids.length > 0) params.meetingIds = context.ids.join(',');
  return params;
}
