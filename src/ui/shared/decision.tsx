// A pod's decision as tables: the outcome and upstream's message, the rejections grouped by
// plugin and reasons (with the nodes of each), and the score breakdown of the top nodes. Fields
// a newer explain schema adds are shown as they are until a table is made for them.
import { useState } from 'preact/hooks';
import type { ExplainStatus } from '../../sim/explain/explain.js';
import type { AllFiltersGroup, DecisionView, FilterGroup, PreemptionGroup } from '../../sim/report/report_model.js';
import { DeviceShortfallTable, PodDevicesTable } from './devices.js';
import { VirtualList } from './virtual_list.js';

export interface DecisionPanelProps {
  view: DecisionView;
  onNode?: (name: string) => void;
}

/** Score rows drawn at first; the rest on request (a pod's table may hold every scored node). */
const scoreRowsShown = 100;
/** Best nodes named; past this the count of the other tied ones. */
const bestNodesNamed = 10;

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

/** A count of nodes that opens their list. */
function NodesCell({ nodes, onNode, colSpan }: { nodes: string[]; onNode?: (name: string) => void; colSpan: number }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button class="link" onClick={() => setOpen(!open)} title="show the nodes">{nodes.length} {open ? '▾' : '▸'}</button>
      {open && <div class="nodes-popup" style={{ minWidth: `${Math.min(colSpan, 3) * 120}px` }}><NodeList nodes={nodes} onNode={onNode} /></div>}
    </>
  );
}

const statusText = (s: ExplainStatus) => s.reasons.join('; ') || s.code;

/** Every Filter plugin's verdict: one row per set of nodes judged alike, one column per plugin. */
function AllFiltersTable({ plugins, groups, onNode }: { plugins: string[]; groups: AllFiltersGroup[]; onNode?: (name: string) => void }) {
  const columns = plugins.length > 0 ? plugins : [...new Set(groups.flatMap((g) => g.rejections.map((r) => r.plugin)))];
  return (
    <div class="scroll-x">
      <table class="grid" data-testid="all-filters-table">
        <thead><tr><th>nodes</th>{columns.map((p) => <th key={p}>{p}</th>)}</tr></thead>
        <tbody>{groups.map((g, i) => (
          <tr key={i}>
            <td class="num"><NodesCell nodes={g.nodes} onNode={onNode} colSpan={columns.length} /></td>
            {columns.map((p) => {
              const r = g.rejections.find((x) => x.plugin === p);
              return <td key={p} class={r ? 'rejects' : 'passes'}>{r ? statusText(r) : '✓'}</td>;
            })}
          </tr>
        ))}</tbody>
      </table>
    </div>
  );
}

function PreemptionSection({ p, onNode }: { p: NonNullable<DecisionView['preemption']>; onNode?: (name: string) => void }) {
  const why = (g: PreemptionGroup) => (g.stillRejectedBy.length > 0 ? g.stillRejectedBy.map((s) => `${s.plugin}: ${statusText(s)}`).join(' · ') : g.status ? `${g.status.plugin}: ${statusText(g.status)}` : '');
  return (
    <div data-testid="preemption">
      <h4>Preemption{p.chosen ? `: chose ${p.chosen}` : ''}{p.decidedBy ? ` (decided by ${p.decidedBy})` : ''}</h4>
      {p.notEligible && <p>Not eligible to preempt: {p.notEligible}</p>}
      {p.nodes.length > 0 && (
        <table class="grid" data-testid="preemption-nodes">
          <thead><tr><th>verdict</th><th>why</th><th>nodes</th></tr></thead>
          <tbody>{p.nodes.map((g, i) => (
            <tr key={i}><td>{g.verdict}</td><td>{why(g)}</td><td class="num"><NodesCell nodes={g.nodes} onNode={onNode} colSpan={1} /></td></tr>
          ))}</tbody>
        </table>
      )}
      {p.candidates.length > 0 && (
        <>
          <h4>Candidates, in the scheduler's order</h4>
          <table class="grid" data-testid="preemption-candidates">
            <thead><tr><th>node</th><th>victims</th><th class="num">PDB violations</th><th class="num">highest victim priority</th><th class="num">sum of priorities</th><th>ruled out by</th></tr></thead>
            <tbody>{p.candidates.map((c) => (
              <tr key={c.node} class={c.node === p.chosen ? 'best' : ''}>
                <td>{c.node}</td><td>{c.victims.join(', ')}</td><td class="num">{c.pdbViolations}</td><td class="num">{c.highestVictimPriority}</td>
                <td class="num">{c.sumOfVictimPriorities}</td><td>{c.eliminatedBy ?? (c.node === p.chosen ? 'chosen' : '')}</td>
              </tr>
            ))}</tbody>
          </table>
        </>
      )}
    </div>
  );
}

function AttemptsTable({ attempts }: { attempts: DecisionView['attemptList'] }) {
  return (
    <table class="grid" data-testid="attempts">
      <thead><tr><th class="num">#</th><th class="num">time (s)</th><th>outcome</th><th>node</th><th>requeued by</th><th>message</th></tr></thead>
      <tbody>{attempts.map((a) => (
        <tr key={a.attempt}>
          <td class="num">{a.attempt}</td><td class="num">{a.time}</td><td>{a.outcome}</td><td>{a.node || a.nominatedNode}</td>
          <td>{a.requeuedBy ? `${a.requeuedBy.event} (${a.requeuedBy.plugin})` : ''}</td><td>{a.message}</td>
        </tr>
      ))}</tbody>
    </table>
  );
}

/** Rows best first, ties by name, except the node the pod went to leads its tie (drawn by lot among them). */
function chosenFirstAmongTies(rows: DecisionView['scores']['rows'], chosen: string): DecisionView['scores']['rows'] {
  const at = rows.findIndex((r) => r[0] === chosen);
  if (at <= 0) return rows;
  const first = rows.findIndex((r) => r[1] === rows[at]![1]);
  if (first === at) return rows;
  return [...rows.slice(0, first), rows[at]!, ...rows.slice(first, at), ...rows.slice(at + 1)];
}

function ScoreTableView({ v, onNode }: { v: DecisionView; onNode?: (name: string) => void }) {
  const hasDetails = Object.keys(v.scoreDetails).length > 0;
  const [showDetails, setShowDetails] = useState(false);
  const [rowsShown, setRowsShown] = useState(scoreRowsShown);
  const kept = v.scores.rows.length;
  const rows = chosenFirstAmongTies(v.scores.rows, v.node).slice(0, rowsShown);
  return (
    <>
      <h4>Scores ({showDetails ? 'raw → normalized × weight = weighted' : 'weighted'}): {kept} of {v.scoredNodes} scored node(s)
        {hasDetails && <> <button class="link" data-testid="score-details-toggle" onClick={() => setShowDetails(!showDetails)}>{showDetails ? 'weighted only' : 'raw and normalized'}</button></>}
      </h4>
      {kept < v.scoredNodes && (
        <p class="muted" data-testid="score-rows-note">Showing the best {kept} of {v.scoredNodes} nodes scored; <code>explain --pod {v.pod}</code> lists every one.</p>
      )}
      <div class="scroll-x">
        <table class="grid" data-testid="score-table">
          <thead><tr><th>node</th><th>total</th>{v.scores.plugins.map((p) => <th key={p}>{p}</th>)}</tr></thead>
          <tbody>
            {rows.map(([node, total, ...perPlugin]) => (
              <tr key={node} class={v.bestNodes.includes(node) ? 'best' : ''}>
                <td><a href="#" onClick={(e) => { e.preventDefault(); onNode?.(node); }}>{node}</a></td>
                <td class="num"><b>{total}</b></td>
                {perPlugin.map((s, i) => {
                  const d = showDetails ? v.scoreDetails[node]?.[v.scores.plugins[i]!] : undefined;
                  return <td class="num" key={i}>{d ? <><small class="muted">{d.raw} → {d.normalized} ×{d.weight} =</small> {d.weighted}</> : s}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length < kept && (
        <button class="link" data-testid="score-rows-more" onClick={() => setRowsShown(rowsShown + 10 * scoreRowsShown)}>
          show {Math.min(kept - rows.length, 10 * scoreRowsShown)} more rows
        </button>
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
      {v.allFilterGroups.length > 0 && (
        <>
          <h4>Every Filter plugin's verdict (diagnosis: the plugins after the first rejection run too)</h4>
          <AllFiltersTable plugins={v.filterPlugins} groups={v.allFilterGroups} onNode={onNode} />
        </>
      )}
      {v.scores.rows.length > 0 && <ScoreTableView key={v.pod} v={v} onNode={onNode} />}
      {v.outcome === 'Scheduled' && v.scores.rows.length === 0 && <p class="muted">One feasible node: upstream skips scoring.</p>}
      {v.bestNodes.length > 0 && (
        <p data-testid="best-nodes">Best node(s): {v.bestNodes.slice(0, bestNodesNamed).join(', ')}
          {v.bestNodes.length > bestNodesNamed && <span class="muted"> and {v.bestNodes.length - bestNodesNamed} more tied</span>}</p>
      )}
      {v.devices.length > 0 && (
        <>
          <h4>Devices allocated, per claim</h4>
          <PodDevicesTable devices={v.devices} />
        </>
      )}
      {v.deviceGroups.length > 0 && (
        <>
          <h4>Why the nodes DynamicResources rejected had no devices</h4>
          <DeviceShortfallTable groups={v.deviceGroups} nodesCell={(nodes) => <NodesCell nodes={nodes} onNode={onNode} colSpan={1} />} />
        </>
      )}
      {v.preemption && <PreemptionSection p={v.preemption} onNode={onNode} />}
      {v.attemptList.length > 0 && (
        <>
          <h4>Attempts</h4>
          <AttemptsTable attempts={v.attemptList} />
        </>
      )}
      {extras.map(([k, value]) => (
        <details key={k} class="extra"><summary>{k}</summary><pre>{JSON.stringify(value, null, 2)}</pre></details>
      ))}
    </div>
  );
}
