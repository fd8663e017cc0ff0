// The page of `simulate --report`: inflates the embedded data and renders the report.
import { render } from 'preact';
import '../shared/style.css';
import { isComparisonReport, type ComparisonReportData } from '../../sim/report/compare_report.js';
import type { ReportData } from '../../sim/report/report_model.js';
import { ComparisonReport } from './comparison.js';
import { Report } from './report.js';

/** The inflated bytes of an embedded gzip+base64 element; empty when the page has none (a comparison, an older report). */
async function readEmbedded(id: string): Promise<Response> {
  const el = document.getElementById(id);
  if (!el?.textContent) return new Response(new Uint8Array(0));
  const binary = atob(el.textContent.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip')));
}

async function readReport(): Promise<{ data: ReportData | ComparisonReportData; columns: DataView }> {
  const text = await (await readEmbedded('report-data')).text();
  if (!text) throw new Error('the report holds no data');
  const columns = new DataView(await (await readEmbedded('report-columns')).arrayBuffer());
  return { data: JSON.parse(text) as ReportData | ComparisonReportData, columns };
}

const root = document.getElementById('app')!;
readReport().then(
  ({ data, columns }) => {
    root.textContent = '';
    render(isComparisonReport(data) ? <ComparisonReport data={data} /> : <Report data={data} columns={columns} />, root);
  },
  (err: Error) => render(<p class="error">Could not read the report: {err.message}</p>, root),
);
