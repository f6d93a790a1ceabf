import { useState } from 'react';
import { useDeleteMeetingMutation, useGetTeamMembersQuery, useListMeetingsQuery } from '../../../lib/api/gateway-api.generated';
import type { ActivityMeeting } from '../activity-types';
import { formatDate, formatMeetingDuration, formatPercent, formatTime } from './activity-format';
import { ActivityTable, IdCell, Pagination, ResultCell, ScoreCell, type Column } from './activity-table';
import { EMPTY_FILTERS, meetingListParams, type ColumnFilters } from './filter-params';
import {
  contactsFilter,
  criterionFilter,
  EmptyState,
  idsFilter,
  numberFilters,
  representativeOptions,
  representativesFilter,
  teamCriteria,
  useCopyLink,
  useDeleteFlow,
  usePaging,
  useRefreshOn,
  yesNoFilter,
  type ActivityListProps,
} from './list-parts';

/** Spec part 2 §2.1: the outcome column's header depends on the department. */
export function outcomeHeader(department: string | null): string {
  if (department === 'sales') return 'Meeting result';
  if (department === 'hr') return 'Ready to proceed to next round?';
  return 'Outcome';
}

/** The Meetings tab's table (spec part 2 §2.1, §2.2). */
export function MeetingsList({ team, department, range, ids, onIdsChange, refreshSignal, onSummary }: ActivityListProps & { onSummary: (meeting: ActivityMeeting) => void }) {
  const [filters, setFilters] = useState<ColumnFilters>(EMPTY_FILTERS);
  const applyFilters = (change: Partial<ColumnFilters>) => setFilters((current) => ({ ...current, ...change }));
  const { page, limit, setPage, setLimit } = usePaging(JSON.stringify([team.id, department, range.start, range.end, ids, filters]));

  const params = meetingListParams({ department, teamId: team.id, startDate: range.start, endDate: range.end, ids, page, limit }, filters);
  const { currentData, data, isFetching, isError, refetch } = useListMeetingsQuery(params, { refetchOnMountOrArgChange: true });
  const { data: members } = useGetTeamMembersQuery({ id: team.id });
  const [deleteMeeting] = useDeleteMeetingMutation();
  const copyLink = useCopyLink('meetings');
  const deletion = useDeleteFlow('meetings', (id) => deleteMeeting({ id }).unwrap(), () => void refetch());
  useRefreshOn(refreshSignal, refetch);

  const loading = isFetching && currentData === undefined;
  const rows = isError ? [] : (currentData?.data ?? []);
  const totalPages = isError ? 0 : (data?.pagination.totalPages ?? 0);
  const numbers = numberFilters('meetings', filters, applyFilters);
  const hr = department === 'hr';
  const outcome = outcomeHeader(department);

  const columns: Column<ActivityMeeting>[] = [
    {
      key: 'id',
      header: 'Id',
      filter: idsFilter('Id', 'Meeting ids', ids, onIdsChange),
      cell: (meeting) => <IdCell id={meeting.id} kind="meeting" onCopy={copyLink} />,
    },
    { key: 'date', header: 'Date', cell: (meeting) => formatDate(meeting.date) },
    { key: 'time', header: 'Time', cell: (meeting) => formatTime(meeting.date) },
    {
      key: 'representative',
      header: 'Representative',
      filter: representativesFilter(representativeOptions(team, members), filters.representatives, (next) => applyFilters({ representatives: next })),
      cell: (meeting) => meeting.representativeName || meeting.rep_email,
    },
    { key: 'contact', header: 'Contact', filter: contactsFilter(filters, applyFilters), cell: (meeting) => meeting.contact.name || meeting.contact_id || '—' },
    hr
      ? { key: 'role', header: 'Role', cell: (meeting) => meeting.role || '—' }
      : { key: 'company', header: 'Company', cell: (meeting) => meeting.contact.company || '—' },
    { key: 'duration', header: 'Duration', filter: numbers.duration, cell: (meeting) => formatMeetingDuration(meeting.duration), className: 'activity-table__number' },
    { key: 'score', header: 'Score', filter: numbers.score, cell: (meeting) => <ScoreCell score={meeting.score} status={meeting.status} />, className: 'activity-table__number' },
    { key: 'scriptMatch', header: 'Script Match', filter: numbers.scriptMatch, cell: (meeting) => formatPercent(meeting.script_match), className: 'activity-table__number' },
    {
      key: 'outcome',
      header: outcome,
      filter: yesNoFilter(outcome, filters.success, (next) => applyFilters({ success: next })),
      cell: (meeting) => <ResultCell result={meeting.is_successful} />,
    },
    ...teamCriteria(team).map(
      ({ groupId, criterionId, name }): Column<ActivityMeeting> => ({
        key: `criterion:${groupId}:${criterionId}`,
        header: name,
        filter: criterionFilter(name, filters, { groupId, criterionId }, setFilters),
        cell: (meeting) => (
          <ResultCell result={meeting.evaluations.find((entry) => entry.group_id === groupId && entry.criterion_id === criterionId)?.result} />
        ),
      }),
    ),
    {
      key: 'link',
      header: 'Link',
      cell: (meeting) =>
        meeting.link ? (
          <a href={meeting.link} target="_blank" rel="noopener noreferrer" aria-label={`Open the link of meeting ${meeting.id} in a new tab`}>
            Open
          </a>
        ) : (
          '—'
        ),
    },
    {
      key: 'summary',
      header: 'Summary & Recommendations',
      cell: (meeting) => (
        <button type="button" className="button button--small" aria-label={`Summary & Recommendations of meeting ${meeting.id}`} onClick={() => onSummary(meeting)}>
          Summary & Recommendations
        </button>
      ),
    },
    {
      key: 'delete',
      header: 'Delete',
      cell: (meeting) => (
        <button type="button" className="button button--small activity-delete" aria-label={`Delete meeting ${meeting.id}`} onClick={() => deletion.request(meeting.id)}>
          Delete
        </button>
      ),
    },
  ];

  return (
    <section className="activity-list" aria-label="Meetings">
      <ActivityTable caption="Meetings" columns={columns} rows={rows} loading={loading} />
      {!loading && rows.length === 0 ? <EmptyState tab="meetings" /> : null}
      <Pagination page={page} totalPages={totalPages} pageSize={limit} onPage={setPage} onPageSize={setLimit} />
      {deletion.dialog}
    </section>
  );
}
