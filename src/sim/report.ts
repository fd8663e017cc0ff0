// `simulate --report out.html`: one self-contained HTML file (script, styles and data inline, no
// network) with the run's utilisation, queue, unschedulable pods, preemptions and every pod's
// decision. The data is gzipped JSON in base64, which the page inflates with DecompressionStream.
import { gzipSync } from 'node:zlib';
import type { ComparisonReportData } from './compare_report.js';
import type { ReportData } from './report_model.js';
import { readUiAsset } from './ui_assets.js';

/** Text that may not appear raw inside an inline <script> or <style> element. */
const closingTag = /<\/(script|style)/gi;

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** The page for a simulation's report, or for a comparison of configurations (`compare --report`). */
export function renderReportHtml(data: ReportData | ComparisonReportData): string {
  const script = readUiAsset('report.js').replace(closingTag, '<\\/$1');
  const style = readUiAsset('report.css').replace(closingTag, '<\\/$1');
  const payload = gzipSync(Buffer.from(JSON.stringify(data)), { level: 9 }).toString('base64');
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
<script>${script}</script>
</body>
</html>
`;
}
