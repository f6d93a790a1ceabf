/** Between analytics' activity rows (protobuf) and the Call and Meeting JSON of spec part 2 §3. */
import type { Static } from 'typebox';
import type { ActivityRow, ListActivitiesRequest, ListActivitiesResponse } from '@parlance/proto/parlance/analytics/v1/activities';
import type { Call, Improvements, Meeting } from '../../../schemas/activities.schema.js';

type Status = Static<typeof Call>['status'];
const STATUSES: readonly Status[] = ['processing', 'scored', 'failed'];

export function listView<T>(filters: ListActivitiesRequest, answer: ListActivitiesResponse, view: (row: ActivityRow) => T) {
  return {
    data: answer.rows.map(view),
    pagination: { page: filters.page, limit: filters.limit, total: answer.total, totalPages: answer.totalPages },
  };
}

export function callView(row: ActivityRow): Static<typeof Call> {
  // The spec groups a call's verdicts by criteria group, in the order they came.
  const groups = new Map<string, { id: string; result: boolean }[]>();
  for (const result of row.results) {
    const criteria = groups.get(result.groupId) ?? [];
    criteria.push({ id: result.criterionId, result: result.passed });
    groups.set(result.groupId, criteria);
  }
  return {
    id: row.id,
    audio_date: isoOf(row.occurredAt),
    audio_duration: row.durationSeconds,
    representative: row.representativeEmail,
    representativeName: row.representativeName,
    contact_id: row.contactId,
    contactName: row.contactName,
    score: row.score ?? null,
    script_match: row.scriptMatch ?? null,
    is_successful: row.isSuccessful ?? null,
    evaluation: [...groups].map(([id, criteria]) => ({ id, criteria })),
    criteriaNeedingReview: row.criteriaNeedingReview,
    teamId: row.teamId,
    fileName: row.fileName,
    media: row.media === 'audio' ? 'audio' : 'text',
    status: statusOf(row),
  };
}

export function meetingView(row: ActivityRow): Static<typeof Meeting> {
  return {
    id: row.id,
    date: isoOf(row.occurredAt),
    rep_email: row.representativeEmail,
    representativeName: row.representativeName,
    contact: { name: row.contactName, company: row.contactCompany },
    contact_id: row.contactId,
    role: row.contactRole,
    duration: row.durationSeconds,
    score: row.score ?? null,
    script_match: row.scriptMatch ?? null,
    is_successful: row.isSuccessful ?? null,
    evaluations: row.results.map((result) => ({ group_id: result.groupId, criterion_id: result.criterionId, result: result.passed })),
    criteriaNeedingReview: row.criteriaNeedingReview,
    link: row.link,
    transcript: row.transcript,
    summary: { summary: row.summary, improvements: improvementsView(row) },
    title: row.title,
    teamId: row.teamId,
    status: statusOf(row),
  };
}

function improvementsView(row: ActivityRow): Static<typeof Improvements> {
  return row.improvements.map((group) => ({
    id: group.groupId,
    name: group.groupName,
    criteria: group.criteria.map((criterion) => ({ id: criterion.criterionId, name: criterion.criterionName, suggestion: criterion.suggestion })),
  }));
}

const isoOf = (date: Date | undefined) => (date ?? new Date(0)).toISOString();

function statusOf(row: ActivityRow): Status {
  return (STATUSES as readonly string[]).includes(row.status) ? (row.status as Status) : 'processing';
}
