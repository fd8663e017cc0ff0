// `simulate --report out.html`: one self-contained HTML file (script, styles and data inline, no
// network) with the run's utilisation, queue, unschedulable pods, preemptions and every pod's
// decision. The data is gzipped JSON in base64, which the page inflates with DecompressionStream;
// the score tables' column bytes ride beside it, gzipped the same way.
import { gzipSync } from 'node:zlib';
import type { ComparisonReportData } from './compare_report.js';
import type { ReportData } from './report_model.js';
import { readUiAsset } from './ui_assets.js';

/** Text that may not appear raw inside an inline <script> or <style> element. */
const closingTag = /<\/(script|style)/gi;

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

const gzipBase64 = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).toString('base64');

/**
 * The page for a simulation's report (with its score columns, `ReportCollector.build`), or for a
 * comparison of configurations (`compare --report`).
 */
export function renderReportHtml(data: ReportData | ComparisonReportData, columns: Uint8Array = new Uint8Array(0)): string {
  const script = readUiAsset('report.js').replace(closingTag, '<\\/$1');
  const style = readUiAsset('report.css').replace(closingTag, '<\\/$1');
  const payload = gzipBase64(Buffer.from(JSON.stringify(data)));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(data.title)}: kube-scheduler-ts report</title>
<style>${style}</style>
</head>
<body>
<div id="app"><p class="loading">Loading the report…</p></div>
<script id="report-data" type="application/octet-stream" data-encoding="gzip+base64">${payload}</script>
${columns.length > 0 ? `<script id="report-columns" type="application/octet-stream" data-encoding="gzip+base64">${gzipBase64(columns)}</script>\n` : ''}<script>${script}</script>
</body>
</html>
`;
}
