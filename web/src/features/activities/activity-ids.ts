/**
 * The activity screen's query parameters (spec part 2 §2.1): callId selects the Calls tab,
 * meetingId the Meetings tab; both carry comma-separated ids that pre-filter the list.
 */

export type ActivityTab = 'calls' | 'meetings';
/** One activity of a tab: a call or a meeting. */
export type ActivityKind = 'call' | 'meeting';

export const ACTIVITY_KIND: Record<ActivityTab, ActivityKind> = { calls: 'call', meetings: 'meeting' };

export const CALL_ID_PARAM = 'callId';
export const MEETING_ID_PARAM = 'meetingId';

/** The query parameter carrying a tab's ids. */
export const idParamOf = (tab: ActivityTab): string => (tab === 'calls' ? CALL_ID_PARAM : MEETING_ID_PARAM);

/** Comma-separated ids (in the URL, or typed in an ids filter): trimmed, empty entries dropped, duplicates removed (first one kept). */
export function parseIds(raw: string | null | undefined): string[] {
  if (!raw) return [];
  return [...new Set(raw.split(',').map((id) => id.trim()).filter((id) => id !== ''))];
}

/** The ids as a query value, or null when there are none. */
export const idsParam = (ids: readonly string[]): string | null => (ids.length > 0 ? ids.join(',') : null);

/**
 * The tab a URL opens and the ids it pre-filters with. A callId opens Calls, else a meetingId
 * opens Meetings; a link carrying both (no screen makes one) opens Calls. No ids: Calls.
 */
export function activitySelection(search: URLSearchParams): { tab: ActivityTab; callIds: string[]; meetingIds: string[] } {
  const callIds = parseIds(search.get(CALL_ID_PARAM));
  const meetingIds = parseIds(search.get(MEETING_ID_PARAM));
  const tab: ActivityTab = search.has(CALL_ID_PARAM) || !search.has(MEETING_ID_PARAM) ? 'calls' : 'meetings';
  return { tab, callIds, meetingIds };
}

/** The link a row's Id copies (spec part 2 §2.1): this screen, pre-filtered on that one activity. */
export function activityLink(origin: string, tab: ActivityTab, id: string): string {
  return `${origin}/activities?${idParamOf(tab)}=${encodeURIComponent(id)}`;
}
