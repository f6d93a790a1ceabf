import { useId } from 'react';
import { Link } from 'react-router';
import type { Options } from 'highcharts';
import { Spinner } from '../../components/spinner';
import { Chart } from './charts/chart';
import type { PerformanceRouteState } from './metrics';

export const PERFORMANCE_PATH = '/dashboard/performance';

interface ChartCardProps {
  title: string;
  /** The chart's options; null when there is nothing to draw. */
  options: Options | null;
  loading: boolean;
  /** What the card says instead of an empty chart. */
  empty: string;
  /** The router state of its 'View Full' link. */
  viewFull: PerformanceRouteState;
}

/** A dashboard chart in a card: its heading, a 'View Full' link to the performance screen, and the chart or why there is none. */
export function ChartCard({ title, options, loading, empty, viewFull }: ChartCardProps) {
  const headingId = useId();
  return (
    <section className="card dashboard-card" aria-labelledby={headingId}>
      <header className="dashboard-card__header">
        <h2 id={headingId} className="dashboard-card__title">
          {title}
        </h2>
        <Link className="dashboard-card__link" to={PERFORMANCE_PATH} state={viewFull} aria-describedby={headingId}>
          View Full
        </Link>
      </header>
      {loading ? (
        <div className="dashboard-card__state">
          <Spinner label={`Loading ${title}`} />
        </div>
      ) : options ? (
        <Chart options={options} label={title} />
      ) : (
        <p className="dashboard-card__state">{empty}</p>
      )}
    </section>
  );
}
