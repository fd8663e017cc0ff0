// A pod's decision as tables: the outcome and upstream's message, the rejections grouped by
// plugin and reasons (with the nodes of each), and the score breakdown of the top nodes. Fields
// a newer explain schema adds are shown as they are until a table is made for them.
import { useState } from 'preact/hooks';
import type { DecisionView, FilterGroup } from '../../sim/report_model.js';
import { VirtualList } from './virtual_list.js';

export interface DecisionPanelProps {
  view: DecisionView;
  onNode?: (name: string) => void;
}

function NodeList({ nodes, onNode }: { nodes: string[]; onNode?: (name: string) => void }) {
  return (
    <VirtualList items={nodes} rowHeight={20} height={180}
      renderRow={(n) => <a href="#" onClick={(e) => { e.preventDefault(); onNode?.(n); }}>{n}</a>} />
  );
}

function RejectionRow({ g, onNode }: { g: FilterGroup; onNode?: (name: string) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <tr>
        <td>{g.plugin}</td>
        <td><span class={`code code-${g.code}`}>{g.code}</span></td>
        <td>{g.reasons.join('; ')}</td>
        <td class="num">
          <button class="link" onClick={() => setOpen(!open)} title="show the nodes">{g.nodes.length} {open ? '▾' : '▸'}</button>
        </td>
      </tr>
      {open && (
        <tr class="nodes-row"><td colSpan={4}><NodeList nodes={g.nodes} onNode={onNode} /></td></tr>
      )}
    </>
  );
}

export function DecisionPanel({ view, onNode }: DecisionPanelProps) {
  const v = view;
  const extras = Object.entries(v.extra);
  return (
    <div class="decision" data-testid="decision">
      <h3>
        {v.pod} <span class={`badge outcome-${v.outcome}`} data-testid="decision-outcome">{v.outcome}</span>
        {v.node && <> on <b>{v.node}</b></>}
        {v.attempts > 0 && <span class="muted"> after {v.attempts} attempt(s)</span>}
      </h3>
      {v.message && <p class="message" data-testid="decision-message">{v.message}</p>}
      {v.preFilter && (
        <p class="prefilter">PreFilter rejected the pod: <b>{v.preFilter.plugin}</b> ({v.preFilter.code}) {v.preFilter.reasons.join('; ')}</p>
      )}
      {v.nominatedNode && <p>Nominated node: <b>{v.nominatedNode}</b></p>}
      {v.victims.length > 0 && <p>Preemption victims: {v.victims.join(', ')}</p>}
      {v.filterGroups.length > 0 && (
        <>
          <h4>Rejected by Filter: {v.rejectedNodes} node(s)</h4>
          <table class="grid" data-testid="rejection-table">
            <thead><tr><th>plugin</th><th>code</th><th>reasons</th><th>nodes</th></tr></thead>
            <tbody>{v.filterGroups.map((g) => <RejectionRow key={`${g.plugin}/${g.reasons.join()}/${g.code}`} g={g} onNode={onNode} />)}</tbody>
          </table>
        </>
      )}
      {v.scores.rows.length > 0 && (
        <>
          <h4>Scores (weighted): top {v.scores.rows.length} of {v.scoredNodes} scored node(s)</h4>
          <div class="scroll-x">
            <table class="grid" data-testid="score-table">
              <thead><tr><th>node</th><th>total</th>{v.scores.plugins.map((p) => <th key={p}>{p}</th>)}</tr></thead>
              <tbody>
                {v.scores.rows.map(([node, total, ...perPlugin]) => (
                  <tr key={node} class={v.bestNodes.includes(node) ? 'best' : ''}>
                    <td><a href="#" onClick={(e) => { e.preventDefault(); onNode?.(node); }}>{node}</a></td>
                    <td class="num"><b>{total}</b></td>
                    {perPlugin.map((s, i) => <td class="num" key={i}>{s}</td>)}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {v.outcome === 'Scheduled' && v.scores.rows.length === 0 && <p class="muted">One feasible node: upstream skips scoring.</p>}
      {v.bestNodes.length > 0 && <p>Best node(s): {v.bestNodes.join(', ')}</p>}
      {extras.map(([k, value]) => (
        <details key={k} class="extra"><summary>{k}</summary><pre>{JSON.stringify(value, null, 2)}</pre></details>
      ))}
    </div>
  );
}
