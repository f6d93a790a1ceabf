import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../app/hooks';
import { Modal } from '../../../components/modal';
import type { Team, TeamMember } from '../../../lib/api/gateway-api.generated';
import { toastShown } from '../../../lib/ui/toast-slice';
import { activityLink, type ActivityTab } from '../activity-ids';
import { ChecklistEditor, ColumnFilter, NumberEditor, TextListEditor, YesNoEditor } from './column-filter';
import {
  BOTH,
  criterionPair,
  LIMITS,
  NO_NUMBER,
  numberActive,
  textList,
  withCriterion,
  yesNoActive,
  type ColumnFilters,
  type NumberFilter,
  type YesNo,
} from './filter-params';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from './activity-table';

/** Spec part 2 §9: toasts of the activity screen dismiss after 5 s. */
export const ACTIVITY_TOAST_MS = 5000;

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

const NOUN: Record<ActivityTab, 'call' | 'meeting'> = { calls: 'call', meetings: 'meeting' };
const Noun: Record<ActivityTab, string> = { calls: 'Call', meetings: 'Meeting' };

/** Spec part 2 §8: the messages of deletes and link copies. */
export const LIST_MESSAGES = {
  deleted: (tab: ActivityTab) => `${Noun[tab]} deleted successfully.`,
  deleteFailed: (tab: ActivityTab) => `Failed to delete ${NOUN[tab]}.`,
  copied: (tab: ActivityTab) => `Copied url to this ${NOUN[tab]}.`,
  empty: { calls: 'No transcripts found with current filters.', meetings: 'No meetings found with current filters.' } as Record<ActivityTab, string>,
};

/**
 * Page and page size. The page goes back to 1 whenever what the list shows changes (team, dates,
 * ids, filters: `context`) and when the page size changes (spec part 2 §4).
 */
export function usePaging(context: string) {
  const [state, setState] = useState({ context, page: DEFAULT_PAGE, limit: DEFAULT_PAGE_SIZE });
  const page = state.context === context ? state.page : DEFAULT_PAGE;
  return {
    page,
    limit: state.limit,
    setPage: (next: number) => setState((current) => ({ ...current, context, page: next })),
    setLimit: (limit: number) => setState({ context, page: DEFAULT_PAGE, limit }),
  };
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
  const dispatch = useAppDispatch();
  return useCallback(
    (id: string) => {
      const link = activityLink(window.location.origin, tab, id);
      const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
      if (!clipboard?.writeText) return;
      clipboard.writeText(link).then(
        () => dispatch(toastShown({ kind: 'success', text: LIST_MESSAGES.copied(tab), durationMs: ACTIVITY_TOAST_MS })),
        () => undefined,
      );
    },
    [dispatch, tab],
  );
}

/**
 * Delete with a confirmation first (spec part 2 §2.2, §6): `request(id)` opens the question;
 * Delete sends it, toasts the outcome and calls `onDeleted` so the list is read again.
 */
export function useDeleteFlow(tab: ActivityTab, remove: (id: string) => Promise<unknown>, onDeleted: () => void) {
  const dispatch = useAppDispatch();
  const [target, setTarget] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    if (target === null) return;
    setBusy(true);
    try {
      await remove(target);
      dispatch(toastShown({ kind: 'success', text: LIST_MESSAGES.deleted(tab), durationMs: ACTIVITY_TOAST_MS }));
    } catch {
      dispatch(toastShown({ kind: 'error', text: LIST_MESSAGES.deleteFailed(tab), durationMs: ACTIVITY_TOAST_MS }));
    } finally {
      setBusy(false);
      setOpen(false);
      onDeleted();
    }
  };

  const dialog = (
    <Modal
      open={open}
      title={`Delete ${NOUN[tab]}`}
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
      <p>{`Are you sure you want to delete this ${NOUN[tab]}? This action cannot be undone.`}</p>
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

/** The team's criteria, one table column each, named as in the team (spec part 2 §2.1). */
export function teamCriteria(team: Team): { groupId: string; criterionId: string; name: string }[] {
  return team.criteria_group.flatMap((group) => group.criteria.map((criterion) => ({ groupId: group.id, criterionId: criterion.id, name: criterion.name })));
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
export function EmptyState({ tab }: { tab: ActivityTab }) {
  const navigate = useNavigate();
  return (
    <div className="activity-empty">
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
      equals={(a, b) => textList(a).join(',') === textList(b).join(',')}
      onApply={(next) => onApply(textList(next))}
    >
      {(draft, setDraft) => <TextListEditor value={draft} onChange={setDraft} label={label} />}
    </ColumnFilter>
  );
}

/** The yes/no dropdown of one criterion column. */
export function criterionFilter(
  name: string,
  filters: ColumnFilters,
  criterion: { groupId: string; criterionId: string },
  setFilters: (update: (current: ColumnFilters) => ColumnFilters) => void,
) {
  const pair = criterionPair(filters, criterion.groupId, criterion.criterionId);
  return yesNoFilter(name, pair, (next) => setFilters((current) => withCriterion(current, criterion.groupId, criterion.criterionId, next)));
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
  return idsFilter('Contact', 'Contact ids', textList(filters.contactIds), (next) => apply({ contactIds: next.join(', ') }));
}
