/**
 * The straightforward list query the activities benchmark measures beside the service's: the same
 * filters (`activityListConditions`) on the same indexes, the page read as whole rows with OFFSET
 * over the whole range, and the total counted with count(*) over the matching rows — what
 * `listActivities` did before it read totals and page positions from the per-day rollups.
 */
import { count, desc } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import { activityListConditions } from '@parlance/analytics/db/activity-filters';
import { activities } from '@parlance/analytics/db/schema';
import type { ActivityListQuery } from '@parlance/analytics/domain/list-request';

export function naiveListQueries(db: Executor, companyId: string, query: ActivityListQuery) {
  const where = activityListConditions(companyId, query);
  return {
    page: db
      .select()
      .from(activities)
      .where(where)
      .orderBy(desc(activities.occurredAt), desc(activities.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    count: db.select({ total: count() }).from(activities).where(where),
  };
}
