import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Modal } from '../../../components/modal';
import type { Team, TeamMember } from '../../../lib/api/gateway-api.generated';
import { ACTIVITY_KIND, activityLink, parseIds, type ActivityTab } from '../activity-ids';
import { useActivityToast } from '../activity-toast';
import type { ActivityStatus } from '../activity-types';
import { CheckEditor, ChecklistEditor, ColumnFilter, NumberEditor, TextListEditor, YesNoEditor } from './column-filter';
import {
  BOTH,
  criterionPair,
  EMPTY_FILTERS,
  LIMITS,
  NO_NUMBER,
  numberActive,
  withCriterion,
  yesNoActive,
  type ColumnFilters,
  type ListContext,
  type NumberFilter,
  type YesNo,
} from './filter-params';
import { ActivityTable, DEFAULT_PAGE, DEFAULT_PAGE_SIZE, Pagination, ResultCell, ReviewCell, type Column } from './activity-table';

/** What both lists get from the page. */
export type ActivityListProps = {
  team: Team;
  department: string | null;
  range: { start: Date; end: Date };
  /** the ids the URL pre-filters with */
  ids: readonly string[];
  onIdsChange: (ids: string[]) => void;
  /** changes when the page wants the list read again (3 s after an upload) */
  refreshSignal: number;
};

const Noun: Record<ActivityTab, string> = { calls: 'Call', meetings: 'Meeting' };

/** Spec part 2 §8: the messages of deletes and link copies. */
const LIST_MESSAGES = {
  deleted: (tab: ActivityTab) => `${Noun[tab]} deleted successfully.`,
  deleteFailed: (tab: ActivityTab) => `Failed to delete ${ACTIVITY_KIND[tab]}.`,
  copied: (tab: ActivityTab) => `Copied url to this ${ACTIVITY_KIND[tab]}.`,
  empty: { calls: 'No transcripts found with current filters.', meetings: 'No meetings found with current filters.' } as Record<ActivityTab, string>,
};

/**
 * A list's column filters and page, and the query context they make with what the page chose
 * (team, department, dates, ids).
 */
export function useListQueryState({ team, department, range, ids }: ActivityListProps) {
  const [filters, setFilters] = useState<ColumnFilters>(EMPTY_FILTERS);
  const applyFilters = (change: Partial<ColumnFilters>) => setFilters((current) => ({ ...current, ...change }));
  const paging = usePaging(JSON.stringify([team.id, department, range.start, range.end, ids, filters]));
  const context: ListContext = { department, teamId: team.id, startDate: range.start, endDate: range.end, ids, page: paging.page, limit: paging.limit };
  return { filters, setFilters, applyFilters, paging, context };
}

/**
 * Page and page size. The page goes back to 1 whenever what the list shows changes (team, dates,
 * ids, filters: `context`) and when the page size changes (spec part 2 §4).
 */
function usePaging(context: string) {
  const [state, setState] = useState({ context, page: DEFAULT_PAGE, limit: DEFAULT_PAGE_SIZE });
  const page = state.context === context ? state.page : DEFAULT_PAGE;
  return {
    page,
    limit: state.limit,
    setPage: (next: number) => setState((current) => ({ ...current, context, page: next })),
    setLimit: (limit: number) => setState({ context, page: DEFAULT_PAGE, limit }),
  };
}

/**
 * While a row shown is still processing, the list is read again this often, so the row turns into
 * its score without a reload (beyond the spec: a call or meeting is listed as soon as it is
 * received, and scored a little later).
 */
export const PROCESSING_POLL_MS = 5000;

/**
 * Sets the list query's polling interval from the rows it shows: PROCESSING_POLL_MS while one of
 * them is processing, none otherwise.
 */
export function usePollWhileProcessing(rows: readonly { status: ActivityStatus }[] | undefined, setPollingInterval: (ms: number) => void) {
  const processing = rows?.some((row) => row.status === 'processing') ?? false;
  useEffect(() => setPollingInterval(processing ? PROCESSING_POLL_MS : 0), [processing, setPollingInterval]);
}

/** Reads the list again each time `signal` changes after the first render. */
export function useRefreshOn(signal: number, refetch: () => unknown) {
  const seen = useRef(signal);
  useEffect(() => {
    if (seen.current === signal) return;
    seen.current = signal;
    refetch();
  }, [signal, refetch]);
}

/** A click on an Id copies the link to that activity; a failed copy says nothing (spec part 2 §8). */
export function useCopyLink(tab: ActivityTab) {
  const toast = useActivityToast();
  return useCallback(
    (id: string) => {
      const link = activityLink(window.location.origin, tab, id);
      const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
      if (!clipboard?.writeText) return;
      clipboard.writeText(link).then(
        () => toast({ kind: 'success', text: LIST_MESSAGES.copied(tab) }),
        () => undefined,
      );
    },
    [toast, tab],
  );
}

/**
 * Delete with a confirmation first (spec part 2 §2.2, §6): `request(id)` opens the question;
 * Delete sends it, toasts the outcome and calls `onDeleted` so the list is read again.
 */
export function useDeleteFlow(tab: ActivityTab, remove: (id: string) => Promise<unknown>, onDeleted: () => void) {
  const toast = useActivityToast();
  const [target, setTarget] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    if (target === null) return;
    setBusy(true);
    try {
      await remove(target);
      toast({ kind: 'success', text: LIST_MESSAGES.deleted(tab) });
    } catch {
      toast({ kind: 'error', text: LIST_MESSAGES.deleteFailed(tab) });
    } finally {
      setBusy(false);
      setOpen(false);
      onDeleted();
    }
  };

  const dialog = (
    <Modal
      open={open}
      title={`Delete ${ACTIVITY_KIND[tab]}`}
      onClose={() => setOpen(false)}
      onClosed={() => setTarget(null)}
      footer={
        <>
          <button type="button" className="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
          <button type="button" className="button button--danger" disabled={busy} onClick={() => void confirm()}>
            Delete
          </button>
        </>
      }
    >
      <p>{`Are you sure you want to delete this ${ACTIVITY_KIND[tab]}? This action cannot be undone.`}</p>
    </Modal>
  );

  return {
    request: (id: string) => {
      setTarget(id);
      setOpen(true);
    },
    dialog,
  };
}

/**
 * The team's criteria, one column each, named as in the team (spec part 2 §2.1): a yes/no filter,
 * and the row's verdict on that criterion (`resultOf`).
 */
export function criterionColumns<Row>(
  team: Team,
  filters: ColumnFilters,
  setFilters: (update: (current: ColumnFilters) => ColumnFilters) => void,
  resultOf: (row: Row, groupId: string, criterionId: string) => boolean | null | undefined,
): Column<Row>[] {
  return team.criteria_group.flatMap((group) =>
    group.criteria.map((criterion) => ({
      key: `criterion:${group.id}:${criterion.id}`,
      header: criterion.name,
      filter: yesNoFilter(criterion.name, criterionPair(filters, group.id, criterion.id), (next) =>
        setFilters((current) => withCriterion(current, group.id, criterion.id, next)),
      ),
      cell: (row: Row) => <ResultCell result={resultOf(row, group.id, criterion.id)} />,
    })),
  );
}

/**
 * The Needs review column (beyond the spec): a badge on each row with criteria the evaluator was
 * not sure enough of, and a filter for only those rows, kept and sent like the other column filters.
 */
export function needsReviewColumn<Row extends { criteriaNeedingReview: number }>(tab: ActivityTab, filters: ColumnFilters, apply: FilterSetter): Column<Row> {
  const column = 'Needs review';
  return {
    key: 'needsReview',
    header: column,
    filter: (
      <ColumnFilter<boolean> column={column} value={filters.needsReview} empty={false} active={filters.needsReview} onApply={(next) => apply({ needsReview: next })}>
        {(draft, setDraft) => <CheckEditor value={draft} onChange={setDraft} label={`Only ${tab} with criteria to review`} />}
      </ColumnFilter>
    ),
    cell: (row) => <ReviewCell count={row.criteriaNeedingReview} />,
  };
}

/** The Delete column: each row's button asks before deleting it. */
export function deleteColumn<Row extends { id: string }>(tab: ActivityTab, onDelete: (id: string) => void): Column<Row> {
  return {
    key: 'delete',
    header: 'Delete',
    cell: (row) => (
      <button type="button" className="button button--small activity-delete" aria-label={`Delete ${ACTIVITY_KIND[tab]} ${row.id}`} onClick={() => onDelete(row.id)}>
        Delete
      </button>
    ),
  };
}

/** What a list query gives back, as far as the list shows it. */
type ListResult<Row> = { currentData?: { data: Row[] }; data?: { pagination: { totalPages: number } }; isFetching: boolean; isError: boolean };

/**
 * One tab's list under its query: the table (a loading row until the first answer for the current
 * query), the empty state, the pages and the delete question. Spec part 2 §8: a failed read shows
 * an empty list.
 */
export function ActivityList<Row extends { id: string }>({
  tab,
  columns,
  result,
  paging,
  deleteDialog,
}: {
  tab: ActivityTab;
  columns: readonly Column<Row>[];
  result: ListResult<Row>;
  paging: ReturnType<typeof usePaging>;
  deleteDialog: ReactNode;
}) {
  const loading = result.isFetching && result.currentData === undefined;
  const rows = result.isError ? [] : (result.currentData?.data ?? []);
  const totalPages = result.isError ? 0 : (result.data?.pagination.totalPages ?? 0);
  const caption = tab === 'calls' ? 'Calls' : 'Meetings';
  return (
    <div className="activity-list">
      <ActivityTable caption={caption} columns={columns} rows={rows} loading={loading} />
      {!loading && rows.length === 0 ? <EmptyState tab={tab} /> : null}
      <Pagination page={paging.page} totalPages={totalPages} pageSize={paging.limit} onPage={paging.setPage} onPageSize={paging.setLimit} />
      {deleteDialog}
    </div>
  );
}

/** The representatives filter's choices: the team's members, by name, else the team's e-mails. */
export function representativeOptions(team: Team, members: readonly TeamMember[] | undefined): { value: string; label: string }[] {
  if (members && members.length > 0) {
    return members.map((member) => {
      const name = `${member.first_name} ${member.last_name}`.trim();
      return { value: member.email, label: name || member.email };
    });
  }
  return team.members.map((email) => ({ value: email, label: email }));
}

/** The empty state under a table, with the way to connect a source of activities. */
function EmptyState({ tab }: { tab: ActivityTab }) {
  const navigate = useNavigate();
  return (
    <div className="card activity-empty">
      <p>{LIST_MESSAGES.empty[tab]}</p>
      <button type="button" className="button button--primary" onClick={() => void navigate('/integrations')}>
        {tab === 'calls' ? 'Connect CRM' : 'Connect Google Workspace'}
      </button>
    </div>
  );
}

type FilterSetter = (change: Partial<ColumnFilters>) => void;

/** The yes/no dropdown of a success or outcome column. */
export function yesNoFilter(column: string, value: YesNo, onApply: (next: YesNo) => void) {
  return (
    <ColumnFilter column={column} value={value} empty={BOTH} active={yesNoActive(value)} onApply={onApply}>
      {(draft, setDraft) => <YesNoEditor value={draft} onChange={setDraft} />}
    </ColumnFilter>
  );
}

/** The value-and-operator dropdowns of duration, score and script match. */
export function numberFilters(tab: ActivityTab, filters: ColumnFilters, apply: FilterSetter) {
  const limits = LIMITS[tab];
  const one = (column: string, key: 'duration' | 'score' | 'scriptMatch', label: string, step: number | 'any') => (
    <ColumnFilter<NumberFilter> column={column} value={filters[key]} empty={NO_NUMBER} active={numberActive(filters[key])} onApply={(next) => apply({ [key]: next })}>
      {(draft, setDraft) => <NumberEditor value={draft} onChange={setDraft} label={label} min={limits[key].min} max={limits[key].max} step={step} />}
    </ColumnFilter>
  );
  return {
    duration: one('Duration', 'duration', 'Minutes', 1),
    score: one('Score', 'score', 'Score', 'any'),
    scriptMatch: one('Script Match', 'scriptMatch', 'Percent', 'any'),
  };
}

/** A comma-separated ids dropdown (contacts, calls, meetings); applied only when the list of ids changed. */
export function idsFilter(column: string, label: string, ids: readonly string[], onApply: (ids: string[]) => void) {
  const text = ids.join(', ');
  return (
    <ColumnFilter<string>
      column={column}
      value={text}
      empty=""
      active={ids.length > 0}
      equals={(a, b) => parseIds(a).join(',') === parseIds(b).join(',')}
      onApply={(next) => onApply(parseIds(next))}
    >
      {(draft, setDraft) => <TextListEditor value={draft} onChange={setDraft} label={label} />}
    </ColumnFilter>
  );
}

/** The representatives dropdown: the team's members as checkboxes; none ticked means everyone. */
export function representativesFilter(options: readonly { value: string; label: string }[], value: readonly string[], onApply: (next: string[]) => void) {
  return (
    <ColumnFilter<string[]> column="Representative" value={[...value]} empty={[]} active={value.length > 0} onApply={onApply}>
      {(draft, setDraft) => <ChecklistEditor options={options} value={draft} onChange={setDraft} emptyText="This team has no representatives." />}
    </ColumnFilter>
  );
}

/** The contact ids dropdown. */
export function contactsFilter(filters: ColumnFilters, apply: FilterSetter) {
  return idsFilter('Contact', 'Contact ids', parseIds(filters.contactIds), (next) => apply({ contactIds: next.join(', ') }));
}
