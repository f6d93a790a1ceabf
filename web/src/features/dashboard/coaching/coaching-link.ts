/**
 * How the dashboard links to a representative's coaching view: the path carries the e-mail, the
 * router state the tab and the period the dashboard was showing, so the view opens on the same.
 */
import type { DayRange } from '../dashboard-filters';
import type { ActivityType } from '../metrics';

export interface CoachingRouteState {
  activityType: ActivityType;
  range?: DayRange;
}

/** /dashboard/representatives/{email}, the e-mail encoded as one path segment. */
export const coachingPath = (email: string): string => `/dashboard/representatives/${encodeURIComponent(email)}`;

/** The router state of a coaching link, or undefined when it is not one (a link typed or bookmarked). */
export function readCoachingState(state: unknown): CoachingRouteState | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const { activityType, range } = state as Partial<CoachingRouteState>;
  if (activityType !== 'calls' && activityType !== 'meetings') return undefined;
  const validRange = range && typeof range.from === 'string' && typeof range.to === 'string' && typeof range.preset === 'string' ? range : undefined;
  return { activityType, ...(validRange ? { range: validRange } : {}) };
}
