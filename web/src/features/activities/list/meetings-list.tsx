import { useState } from 'react';
import { useDeleteMeetingMutation, useGetTeamMembersQuery, useListMeetingsQuery } from '../../../lib/api/gateway-api.generated';
import type { ActivityMeeting } from '../activity-types';
import { formatMeetingDuration } from '../../../lib/format';
import { formatDate, formatPercent, formatTime } from './activity-format';
import { IdCell, ResultCell, ScoreCell, type Column } from './activity-table';
import { meetingListParams } from './filter-params';
import {
  ActivityList,
  contactsFilter,
  criterionColumns,
  deleteColumn,
  idsFilter,
  needsReviewColumn,
  numberFilters,
  representativeOptions,
  representativesFilter,
  useCopyLink,
  useDeleteFlow,
  useListQueryState,
  usePollWhileProcessing,
  useRefreshOn,
  yesNoFilter,
  type ActivityListProps,
} from './list-parts';

/** Spec part 2 §2.1: the outcome column's header depends on the department. */
function outcomeHeader(department: string | null): string {
  if (department === 'sales') return 'Meeting result';
  if (department === 'hr') return 'Ready to proceed to next round?';
  return 'Outcome';
}

/** The Meetings tab's table (spec part 2 §2.1, §2.2). */
export function MeetingsList({ onSummary, ...props }: ActivityListProps & { onSummary: (meeting: ActivityMeeting) => void }) {
  const { team, department, ids, onIdsChange, refreshSignal } = props;
  const { filters, setFilters, applyFilters, paging, context } = useListQueryState(props);
  // Every change of what is asked reads the list again, cached or not (spec part 2 §4); rows still
  // processing are read again until scored.
  const [pollingInterval, setPollingInterval] = useState(0);
  const result = useListMeetingsQuery(meetingListParams(context, filters), { refetchOnMountOrArgChange: true, pollingInterval, skipPollingIfUnfocused: true });
  usePollWhileProcessing(result.currentData?.data, setPollingInterval);
  const { data: members } = useGetTeamMembersQuery({ id: team.id });
  const [deleteMeeting] = useDeleteMeetingMutation();
  const copyLink = useCopyLink('meetings');
  const deletion = useDeleteFlow('meetings', (id) => deleteMeeting({ id }).unwrap(), () => void result.refetch());
  useRefreshOn(refreshSignal, result.refetch);
  const numbers = numberFilters('meetings', filters, applyFilters);
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
    department === 'hr'
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
    needsReviewColumn<ActivityMeeting>('meetings', filters, applyFilters),
    ...criterionColumns<ActivityMeeting>(
      team,
      filters,
      setFilters,
      (meeting, groupId, criterionId) => meeting.evaluations.find((entry) => entry.group_id === groupId && entry.criterion_id === criterionId)?.result,
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
    deleteColumn('meetings', deletion.request),
  ];

  return <ActivityList tab="meetings" columns={columns} result={result} paging={paging} deleteDialog={deletion.dialog} />;
}
