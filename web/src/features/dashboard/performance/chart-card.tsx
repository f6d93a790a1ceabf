import { useRef, type ReactNode } from 'react';
import type { Options } from 'highcharts';
import { useAppDispatch } from '../../../app/hooks';
import { Spinner } from '../../../components/spinner';
import { toastShown } from '../../../lib/ui/toast-slice';
import { Chart, type ChartHandle } from '../charts/chart';

/** What a chart card shows: a hint (nothing to ask yet), a spinner, a 'no data' line, or the chart. */
export type ChartState = { kind: 'idle'; hint: string } | { kind: 'loading' } | { kind: 'empty' } | { kind: 'ready'; options: Options };

export const NO_CHART_DATA = 'No data for the selected filters.';

interface ChartCardProps {
  headingId: string;
  /** The heading's content (the criteria chart's holds its selector). */
  heading: ReactNode;
  /** Names the chart's figure, and its export buttons ('Export {label} as CSV'). */
  label: string;
  state: ChartState;
  /** File names without extension: the chart adds '.csv' and '.png'. */
  csvName: string;
  pngName: string;
}

/**
 * A chart of the performance screen with its CSV and PNG buttons (spec part 2 §2.10). Both files
 * are made in the browser by the chart itself; a failure is told in a toast.
 */
export function ChartCard({ headingId, heading, label, state, csvName, pngName }: ChartCardProps) {
  const chart = useRef<ChartHandle>(null);
  const dispatch = useAppDispatch();
  const ready = state.kind === 'ready';
  const failed = (format: string) => dispatch(toastShown({ kind: 'error', text: `Could not export the ${label} as ${format}. Please try again.` }));

  const exportCsv = () => {
    try {
      chart.current?.downloadCsv(csvName);
    } catch {
      failed('CSV');
    }
  };
  const exportPng = async () => {
    try {
      await chart.current?.downloadPng(pngName);
    } catch {
      failed('PNG');
    }
  };

  return (
    <section className="card performance-card" aria-labelledby={headingId}>
      <div className="performance-card__header">
        {heading}
        <div className="button-row">
          <button type="button" className="button button--small" aria-label={`Export ${label} as CSV`} disabled={!ready} onClick={exportCsv}>
            CSV
          </button>
          <button type="button" className="button button--small" aria-label={`Export ${label} as PNG`} disabled={!ready} onClick={() => void exportPng()}>
            PNG
          </button>
        </div>
      </div>
      {state.kind === 'ready' ? (
        <Chart ref={chart} options={state.options} label={label} />
      ) : (
        <div className="performance-card__placeholder">
          {state.kind === 'loading' ? <Spinner label={`Loading ${label}`} /> : <p>{state.kind === 'idle' ? state.hint : NO_CHART_DATA}</p>}
        </div>
      )}
    </section>
  );
}
