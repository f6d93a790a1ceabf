/**
 * What each filter of ListActivities means in SQL, one condition per filter, all combined with
 * AND. Every value travels as a query parameter.
 */
import { and, arrayContains, eq, gt, gte, inArray, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import { QueryBuilder, type PgColumn } from 'drizzle-orm/pg-core';
import { isUuid } from '@parlance/platform/db/uuid';
import type { CriterionResult } from '../domain/activity-state.js';
import type { ActivityListQuery, NumberComparison } from '../domain/list-request.js';
import { activities, teams } from './schema.js';

const COMPARE = { lte, eq, gte } as const;

/**
 * `criteriaOnRows`: test criteria on each row the other conditions leave, without the criteria's
 * GIN indexes. For a range of a few days: a common criterion's posting list covers all time and
 * costs more to read than the few days' rows do.
 */
export function activityListConditions(companyId: string, query: ActivityListQuery, { criteriaOnRows = false } = {}): SQL | undefined {
  return and(
    eq(activities.companyId, companyId),
    eq(activities.kind, query.kind),
    // Stated here so the list indexes, which leave tombstones out, apply.
    isNull(activities.deletedAt),
    teamCondition(activities.teamId, companyId, query),
    query.start ? gte(activities.occurredAt, query.start) : undefined,
    query.end ? lt(activities.occurredAt, query.end) : undefined,
    // A null (N/A) success matches neither yes nor no.
    query.isSuccessful === null ? undefined : eq(activities.isSuccessful, query.isSuccessful),
    ...query.criteria.map((criterion) => criterionCondition(criterion, criteriaOnRows)),
    numberCondition(activities.durationSeconds, query.durationSeconds),
    numberCondition(activities.score, query.score),
    numberCondition(activities.scriptMatch, query.scriptMatch),
    query.representativeEmails.length > 0 ? isAnyOf(activities.representativeEmail, query.representativeEmails, 'text') : undefined,
    query.contactIds.length > 0 ? isAnyOf(activities.contactId, query.contactIds, 'text') : undefined,
    // An id that is not a UUID names no activity; if none is one, nothing matches.
    query.activityIds.length > 0 ? isAnyOf(activities.id, query.activityIds.filter(isUuid), 'uuid') : undefined,
    // Tested on the rows the other conditions leave, with no index of its own: the rollups find the
    // days a page of them lies in (activity_day_counts.needing_review, schema.ts says why).
    query.needsReview ? gt(activities.criteriaNeedingReview, 0) : undefined,
  );
}

/** The teams asked for; else the department's current teams; else every team. `teamId` is the column it holds for (activities' or a rollup's). */
export function teamCondition(teamId: PgColumn, companyId: string, { teamIds, department }: ActivityListQuery): SQL | undefined {
  // One team, as the web asks, with `=`: an index scan for `= any(…)` does not keep the index's order (before Postgres 17).
  if (teamIds.length === 1) return eq(teamId, teamIds[0]!);
  if (teamIds.length > 1) return isAnyOf(teamId, teamIds, 'text');
  if (department === null) return undefined;
  const departmentTeams = new QueryBuilder()
    .select({ teamId: teams.teamId })
    .from(teams)
    .where(and(eq(teams.companyId, companyId), eq(teams.department, department), eq(teams.deleted, false)));
  return inArray(teamId, departmentTeams);
}

/**
 * `column = any(values)`: one parameter however many values, so that a list's statement reads the
 * same for any number of them and is prepared once (activity-list.ts).
 */
function isAnyOf(column: PgColumn, values: readonly string[], type: 'text' | 'uuid'): SQL {
  return sql`${column} = any(${sql.param(values)}::${sql.raw(type)}[])`;
}

/**
 * The criterion's id finds the rows through its GIN index (unless `onRows`); a group, when named,
 * is confirmed in the results, since criterion ids are unique only within a team.
 */
function criterionCondition({ groupId, criterionId, passed }: CriterionResult, onRows: boolean): SQL | undefined {
  const criterionIds = passed ? activities.passedCriteria : activities.failedCriteria;
  const verdict = JSON.stringify([{ groupId, criterionId, passed }]);
  // `= any` means the same as `@> array[…]` but is not one the GIN index answers.
  const listed = onRows ? sql`${criterionId} = any(${criterionIds})` : arrayContains(criterionIds, [criterionId]);
  return and(listed, groupId === '' ? undefined : sql`${activities.results} @> ${verdict}::jsonb`);
}

/** A null (unknown) value matches no comparison. The value is compared as a double, like a proto double. */
function numberCondition(column: PgColumn, filter: NumberComparison | null): SQL | undefined {
  if (!filter) return undefined;
  return COMPARE[filter.comparison](column, sql`${filter.value}::double precision`);
}
