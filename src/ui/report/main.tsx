// The page of `simulate --report`: inflates the embedded data and renders the report.
import { render } from 'preact';
import '../shared/style.css';
import { isComparisonReport, type ComparisonReportData } from '../../sim/compare_report.js';
import type { ReportData } from '../../sim/report_model.js';
import { ComparisonReport } from './comparison.js';
import { Report } from './report.js';

async function readEmbeddedData(): Promise<ReportData | ComparisonReportData> {
  const el = document.getElementById('report-data');
  if (!el?.textContent) throw new Error('the report holds no data');
  const binary = atob(el.textContent.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return JSON.parse(await new Response(stream).text()) as ReportData | ComparisonReportData;
}

const root = document.getElementById('app')!;
readEmbeddedData().then(
  (data) => {
    root.textContent = '';
    render(isComparisonReport(data) ? <ComparisonReport data={data} /> : <Report data={data} />, root);
  },
  (err: Error) => render(<p class="error">Could not read the report: {err.message}</p>, root),
);
