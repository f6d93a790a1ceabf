import { useState } from 'react';
import { useDeleteCallMutation, useGetTeamMembersQuery, useListCallsQuery } from '../../../lib/api/gateway-api.generated';
import type { ActivityCall } from '../activity-types';
import { formatCallDuration } from '../../../lib/format';
import { formatDate, formatPercent, formatTime } from './activity-format';
import { IdCell, ResultCell, ScoreCell, type Column } from './activity-table';
import { callListParams } from './filter-params';
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

/** The Calls tab's table (spec part 2 §2.1, §2.2): the team's calls in the range, filtered, a page at a time. */
export function CallsList({ onSummary, ...props }: ActivityListProps & { onSummary: (call: ActivityCall) => void }) {
  const { team, ids, onIdsChange, refreshSignal } = props;
  const { filters, setFilters, applyFilters, paging, context } = useListQueryState(props);
  // Every change of what is asked reads the list again, cached or not (spec part 2 §4); rows still
  // processing are read again until scored.
  const [pollingInterval, setPollingInterval] = useState(0);
  const result = useListCallsQuery(callListParams(context, filters), { refetchOnMountOrArgChange: true, pollingInterval, skipPollingIfUnfocused: true });
  usePollWhileProcessing(result.currentData?.data, setPollingInterval);
  const { data: members } = useGetTeamMembersQuery({ id: team.id });
  const [deleteCall] = useDeleteCallMutation();
  const copyLink = useCopyLink('calls');
  const deletion = useDeleteFlow('calls', (id) => deleteCall({ id }).unwrap(), () => void result.refetch());
  useRefreshOn(refreshSignal, result.refetch);
  const numbers = numberFilters('calls', filters, applyFilters);

  const columns: Column<ActivityCall>[] = [
    {
      key: 'id',
      header: 'Id',
      filter: idsFilter('Id', 'Call ids', ids, onIdsChange),
      cell: (call) => <IdCell id={call.id} kind="call" onCopy={copyLink} />,
    },
    { key: 'date', header: 'Date', cell: (call) => formatDate(call.audio_date) },
    { key: 'time', header: 'Time', cell: (call) => formatTime(call.audio_date) },
    {
      key: 'representative',
      header: 'Representative',
      filter: representativesFilter(representativeOptions(team, members), filters.representatives, (next) => applyFilters({ representatives: next })),
      cell: (call) => call.representativeName || call.representative,
    },
    {
      key: 'contact',
      header: 'Contact',
      filter: contactsFilter(filters, applyFilters),
      cell: (call) => call.contactName || call.contact_id || '—',
    },
    { key: 'duration', header: 'Duration', filter: numbers.duration, cell: (call) => formatCallDuration(call.audio_duration), className: 'activity-table__number' },
    { key: 'score', header: 'Score', filter: numbers.score, cell: (call) => <ScoreCell score={call.score} status={call.status} />, className: 'activity-table__number' },
    { key: 'scriptMatch', header: 'Script Match', filter: numbers.scriptMatch, cell: (call) => formatPercent(call.script_match), className: 'activity-table__number' },
    {
      key: 'successful',
      header: 'Successful',
      filter: yesNoFilter('Successful', filters.success, (next) => applyFilters({ success: next })),
      cell: (call) => <ResultCell result={call.is_successful} />,
    },
    needsReviewColumn<ActivityCall>('calls', filters, applyFilters),
    ...criterionColumns<ActivityCall>(
      team,
      filters,
      setFilters,
      (call, groupId, criterionId) => call.evaluation.find((group) => group.id === groupId)?.criteria.find((criterion) => criterion.id === criterionId)?.result,
    ),
    {
      key: 'summary',
      header: 'Summary',
      cell: (call) => (
        <button type="button" className="button button--small" aria-label={`Summary of call ${call.id}`} onClick={() => onSummary(call)}>
          Summary
        </button>
      ),
    },
    deleteColumn('calls', deletion.request),
  ];

  return <ActivityList tab="calls" columns={columns} result={result} paging={paging} deleteDialog={deletion.dialog} />;
}
