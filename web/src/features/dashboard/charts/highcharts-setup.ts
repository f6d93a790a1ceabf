/**
 * Highcharts with its exporting modules, configured once. Loaded only by `Chart` (chart.tsx) with a
 * dynamic import, so Highcharts is a chunk of its own that only the dashboard screens download.
 *
 * Every export is made in the browser (`local`, no fallback): a chart's data never leaves the
 * customer's machine for an export server (issue 15). CSV comes from export-data, PNG from the
 * offline-exporting module drawing the chart's SVG on a canvas.
 */
import Highcharts from 'highcharts/esm/highcharts.js';
import 'highcharts/esm/modules/exporting.js';
import 'highcharts/esm/modules/offline-exporting.js';
import 'highcharts/esm/modules/export-data.js';
import 'highcharts/esm/modules/accessibility.js';

Highcharts.setOptions({
  credits: { enabled: false },
  // The screens draw their own CSV and PNG buttons (spec part 2 §2.10), so no context menu.
  exporting: {
    enabled: false,
    local: true,
    fallbackToExportServer: false,
    error: (_options, error) => {
      throw error instanceof Error ? error : new Error(String(error));
    },
  },
  lang: { thousandsSep: ',' },
  // Drawn at once: a chart that grows in for a second shows wrong figures meanwhile (and in
  // screenshots and exports taken then).
  plotOptions: { series: { animation: false } },
  chart: { style: { fontFamily: 'inherit' } },
});

export default Highcharts;
