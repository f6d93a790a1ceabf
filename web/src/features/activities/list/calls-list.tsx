import { useState } from 'react';
import { useDeleteCallMutation, useGetTeamMembersQuery, useListCallsQuery } from '../../../lib/api/gateway-api.generated';
import type { ActivityCall } from '../activity-types';
import { formatCallDuration, formatDate, formatPercent, formatTime } from './activity-format';
import { ActivityTable, IdCell, Pagination, ResultCell, ScoreCell, type Column } from './activity-table';
import { callListParams, EMPTY_FILTERS, type ColumnFilters } from './filter-params';
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

/** The Calls tab's table (spec part 2 §2.1, §2.2): the team's calls in the range, filtered, a page at a time. */
export function CallsList({ team, department, range, ids, onIdsChange, refreshSignal, onSummary }: ActivityListProps & { onSummary: (call: ActivityCall) => void }) {
  const [filters, setFilters] = useState<ColumnFilters>(EMPTY_FILTERS);
  const applyFilters = (change: Partial<ColumnFilters>) => setFilters((current) => ({ ...current, ...change }));
  const { page, limit, setPage, setLimit } = usePaging(JSON.stringify([team.id, department, range.start, range.end, ids, filters]));

  const params = callListParams({ department, teamId: team.id, startDate: range.start, endDate: range.end, ids, page, limit }, filters);
  // Every change of what is asked reads the list again, cached or not (spec part 2 §4).
  const { currentData, data, isFetching, isError, refetch } = useListCallsQuery(params, { refetchOnMountOrArgChange: true });
  const { data: members } = useGetTeamMembersQuery({ id: team.id });
  const [deleteCall] = useDeleteCallMutation();
  const copyLink = useCopyLink('calls');
  const deletion = useDeleteFlow('calls', (id) => deleteCall({ id }).unwrap(), () => void refetch());

  useRefreshOn(refreshSignal, refetch);

  // Spec part 2 §8: a failed read shows an empty list.
  const loading = isFetching && currentData === undefined;
  const rows = isError ? [] : (currentData?.data ?? []);
  const totalPages = isError ? 0 : (data?.pagination.totalPages ?? 0);
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
    ...teamCriteria(team).map(
      ({ groupId, criterionId, name }): Column<ActivityCall> => ({
        key: `criterion:${groupId}:${criterionId}`,
        header: name,
        filter: criterionFilter(name, filters, { groupId, criterionId }, setFilters),
        cell: (call) => <ResultCell result={call.evaluation.find((group) => group.id === groupId)?.criteria.find((criterion) => criterion.id === criterionId)?.result} />,
      }),
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
    {
      key: 'delete',
      header: 'Delete',
      cell: (call) => (
        <button type="button" className="button button--small activity-delete" aria-label={`Delete call ${call.id}`} onClick={() => deletion.request(call.id)}>
          Delete
        </button>
      ),
    },
  ];

  return (
    <section className="activity-list" aria-label="Calls">
      <ActivityTable caption="Calls" columns={columns} rows={rows} loading={loading} />
      {!loading && rows.length === 0 ? <EmptyState tab="calls" /> : null}
      <Pagination page={page} totalPages={totalPages} pageSize={limit} onPage={setPage} onPageSize={setLimit} />
      {deletion.dialog}
    </section>
  );
}
