import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import type { Chart as HighchartsChart, Options } from 'highcharts';
import { Spinner } from '../../../components/spinner';
import type HighchartsSetup from './highcharts-setup';
import './chart.css';

type HighchartsModule = { default: typeof HighchartsSetup };

/** Highcharts 13 ships `Exporting#exportChart` (modules/exporting) without declaring it. */
type LocalExporting = { exportChart(options: { type: 'image/png'; filename: string }, chartOptions: object): Promise<void> };

let loading: Promise<HighchartsModule> | undefined;
/** Highcharts arrives once, on the first chart drawn. */
const loadHighcharts = () => (loading ??= import('./highcharts-setup'));

/** What a screen can ask of a drawn chart: its exports, made in the browser. */
export interface ChartHandle {
  /** Downloads the chart's data as `{filename}.csv`. */
  downloadCsv(filename: string): void;
  /** Downloads the chart as `{filename}.png`. */
  downloadPng(filename: string): Promise<void>;
  /** The chart's data as CSV text, as `downloadCsv` writes it. */
  csv(): string;
}

export interface ChartProps {
  /** Highcharts options; the chart is redrawn when they change. */
  options: Options;
  /** Names the chart's region for assistive technology. */
  label: string;
  height?: number;
}

/** Spec part 2 §9: charts are 400 px high. */
export const CHART_HEIGHT = 400;

/**
 * One Highcharts chart in a labelled figure. Highcharts is loaded on first use; while it loads a
 * spinner holds the chart's place, so the layout does not jump.
 */
export const Chart = forwardRef<ChartHandle, ChartProps>(function Chart({ options, label, height = CHART_HEIGHT }, ref) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<HighchartsChart | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let cancelled = false;
    void loadHighcharts().then(({ default: Highcharts }) => {
      if (cancelled || !container.current) return;
      const merged: Options = { ...options, chart: { height, ...options.chart } };
      if (chart.current) chart.current.update(merged, true, true);
      else chart.current = Highcharts.chart(container.current, merged);
      setReady(true);
    });
    return () => {
      cancelled = true;
    };
  }, [options, height]);

  useEffect(
    () => () => {
      chart.current?.destroy();
      chart.current = null;
    },
    [],
  );

  useImperativeHandle(
    ref,
    () => {
      const drawn = () => {
        if (!chart.current) throw new Error('The chart is not drawn yet.');
        return chart.current;
      };
      return {
        downloadCsv(filename) {
          const current = drawn();
          current.update({ exporting: { filename } }, false);
          current.exporting.downloadCSV();
        },
        async downloadPng(filename) {
          await (drawn().exporting as unknown as LocalExporting).exportChart({ type: 'image/png', filename }, {});
        },
        csv: () => drawn().exporting.getCSV(),
      };
    },
    [],
  );

  return (
    <figure className="dashboard-chart" aria-label={label} style={{ minHeight: height }}>
      {!ready && (
        <div className="dashboard-chart-loading">
          <Spinner label={`Loading ${label}`} />
        </div>
      )}
      <div ref={container} className="dashboard-chart-canvas" />
    </figure>
  );
});
