import { useId, type ReactNode } from 'react';
import { Spinner } from '../../../components/spinner';
import type { ActivityKind } from '../activity-ids';
import type { ActivityStatus } from '../activity-types';
import { formatScore } from './activity-format';

/** Spec part 2 §9: the page sizes, and the defaults. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
export const DEFAULT_PAGE = 1;

export type Column<Row> = {
  key: string;
  header: string;
  /** the column's filter dropdown, if it has one */
  filter?: ReactNode;
  cell: (row: Row) => ReactNode;
  className?: string;
};

/**
 * One activity table: a header per column with its filter, a row per activity. It scrolls inside
 * its own container, so a wide table never widens the page.
 */
export function ActivityTable<Row extends { id: string }>({
  caption,
  columns,
  rows,
  loading,
}: {
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  /** no rows yet for the current query: a loading row instead */
  loading: boolean;
}) {
  return (
    // Focusable, so the keyboard can scroll a table wider than the screen; named apart from the tab panel it sits in.
    <div className="activity-table__scroll" role="region" aria-label={`${caption} table`} tabIndex={0}>
      <table className="activity-table" aria-busy={loading}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col" className={column.className}>
                <div className="activity-table__heading">
                  <span>{column.header}</span>
                  {column.filter}
                </div>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {loading ? (
            <tr>
              <td colSpan={columns.length} className="activity-table__loading">
                <Spinner /> Loading…
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={row.id}>
                {columns.map((column) => (
                  <td key={column.key} className={column.className}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Previous and Next, 'Page X of Y' and the 'Display' page-size selector (spec part 2 §2.1). */
export function Pagination({
  page,
  totalPages,
  pageSize,
  onPage,
  onPageSize,
}: {
  page: number;
  totalPages: number;
  pageSize: number;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
}) {
  const sizeId = useId();
  const pages = Math.max(1, totalPages);
  return (
    <nav className="activity-pagination" aria-label="Pages">
      <div className="activity-pagination__size">
        <label htmlFor={sizeId}>Display</label>
        <select id={sizeId} className="field__input" value={pageSize} onChange={(event) => onPageSize(Number(event.target.value))}>
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
      <div className="activity-pagination__pages">
        <button type="button" className="button button--small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </button>
        <span aria-live="polite">{`Page ${Math.min(page, pages)} of ${pages}`}</span>
        <button type="button" className="button button--small" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </button>
      </div>
    </nav>
  );
}

/** A yes, no or N/A result: an icon with its text alternative. */
export function ResultCell({ result }: { result: boolean | null | undefined }) {
  if (result === true) {
    return (
      <span className="result result--yes" role="img" aria-label="Yes" title="Yes">
        ✓
      </span>
    );
  }
  if (result === false) {
    return (
      <span className="result result--no" role="img" aria-label="No" title="No">
        ✗
      </span>
    );
  }
  return (
    <span className="result result--na" title="Not applicable">
      N/A
    </span>
  );
}

/** The score, or the row's status while it has none: processing shows '—' and Processing, failed shows Failed. */
export function ScoreCell({ score, status }: { score: number | null; status: ActivityStatus }) {
  if (status === 'failed') return <span className="badge badge--danger">Failed</span>;
  if (status === 'processing') {
    return (
      <span className="activity-status">
        <span aria-hidden="true">—</span> <span className="badge badge--info">Processing</span>
      </span>
    );
  }
  return <>{formatScore(score)}</>;
}

/**
 * How many criteria of the row need review, as a warning badge ("2 to review", named "2 criteria
 * need review"); nothing when none does. The score counts them by the side they lean to, as the
 * summary says.
 */
export function ReviewCell({ count }: { count: number }) {
  if (count <= 0) return null;
  const name = count === 1 ? '1 criterion needs review' : `${count} criteria need review`;
  return (
    <span className="badge badge--warning activity-review" role="img" aria-label={name} title={`${name}: the evaluator was not sure enough. Open the summary to check them.`}>
      {`${count} to review`}
    </span>
  );
}

/** The Id cell: a button that copies the link to this activity. */
export function IdCell({ id, kind, onCopy }: { id: string; kind: ActivityKind; onCopy: (id: string) => void }) {
  return (
    <button type="button" className="button--link activity-id" title={`Copy a link to this ${kind}`} aria-label={`Copy link to ${kind} ${id}`} onClick={() => onCopy(id)}>
      {id}
    </button>
  );
}
