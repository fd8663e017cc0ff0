// Pods: a searchable, virtualised list; the selected pod's decision tables (its last attempt's
// explain record, fetched again whenever the pod changes) and its YAML.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { decisionFromExplain } from '../../sim/report/report_model.js';
import { treeLines } from '../../sim/explain/explain_text.js';
import { DecisionPanel } from '../shared/decision.js';
import { VirtualList } from '../shared/virtual_list.js';
import { ApiProblem, getJson, type ExplainAnswer, type KubeObject } from './api.js';
import { keyOf } from './live.js';

function podState(p: KubeObject): string {
  if (p.spec?.nodeName) return 'Scheduled';
  const conditions = (p.status?.conditions as { type: string; status: string; reason?: string }[] | undefined) ?? [];
  const c = conditions.find((x) => x.type === 'PodScheduled');
  if (c?.status === 'False') return c.reason === 'SchedulingGated' ? 'Gated' : 'Unschedulable';
  return 'Pending';
}

function Decision({ pod, onNode }: { pod: KubeObject; onNode: (n: string) => void }) {
  const [answer, setAnswer] = useState<ExplainAnswer | null>(null);
  const [problem, setProblem] = useState('');
  const key = keyOf(pod);
  useEffect(() => {
    let live = true;
    const [ns, name] = key.split('/');
    getJson<ExplainAnswer>(`/ui/api/explain/${encodeURIComponent(ns!)}/${encodeURIComponent(name!)}`).then(
      (a) => { if (live) { setAnswer(a); setProblem(''); } },
      (err: ApiProblem) => { if (live) { setAnswer(null); setProblem(err.message); } },
    );
    return () => { live = false; };
  }, [key, pod.metadata.resourceVersion]);
  if (problem) return <p class="muted" data-testid="decision-missing">{problem}</p>;
  if (!answer) return <p class="muted">Loading the decision…</p>;
  const panel = <DecisionPanel view={decisionFromExplain(answer.explain, answer.attempts, 50, answer.scoredNodes)} onNode={onNode} />;
  if (answer.tree === undefined) return panel;
  // A tree member: the tree's last cycle (child groups, placements tried with their scores, what stopped it) above the pod's own tables.
  return (
    <div>
      <h3>Its CompositePodGroup tree</h3>
      <pre class="tree" data-testid="decision-tree">{treeLines(answer.tree).join('\n')}</pre>
      {panel}
    </div>
  );
}

export function PodsView({ pods, selected, onSelect, onEdit, onNode }: {
  pods: KubeObject[]; selected: string; onSelect: (key: string) => void; onEdit: (key: string) => void; onNode: (n: string) => void;
}) {
  const [query, setQuery] = useState('');
  const [state, setState] = useState('');
  const shown = useMemo(() => {
    const q = query.trim();
    return q || state ? pods.filter((p) => keyOf(p).includes(q) && (!state || podState(p) === state)) : pods;
  }, [pods, query, state]);
  const pod = pods.find((p) => keyOf(p) === selected);
  return (
    <section class="split">
      <div>
        <div class="toolbar">
          <h2>Pods ({pods.length})</h2>
          <input type="search" placeholder="search pods" data-testid="pod-search" value={query} onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)} />
          <select value={state} onChange={(e) => setState((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">all</option>
            {['Scheduled', 'Unschedulable', 'Pending', 'Gated'].map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
          <button class="secondary" onClick={() => onEdit('')}>New pod</button>
        </div>
        <VirtualList testId="pod-list" items={shown} rowHeight={26} height={560} renderRow={(p) => {
          const s = podState(p);
          return (
            <div class={`grow ${keyOf(p) === selected ? 'selected' : ''}`} data-testid={`pod-row-${keyOf(p)}`} onClick={() => onSelect(keyOf(p))}>
              <span class={`badge outcome-${s}`}>{s}</span> {keyOf(p)} {p.spec?.nodeName ? <span class="muted">→ {p.spec.nodeName as string}</span> : null}
            </div>
          );
        }} />
      </div>
      <div>
        {pod ? (
          <>
            <div class="toolbar">
              <button class="secondary" data-testid="edit-pod" onClick={() => onEdit(selected)}>Edit YAML</button>
            </div>
            <Decision pod={pod} onNode={onNode} />
          </>
        ) : <p class="muted">Select a pod to see why it is where it is.</p>}
      </div>
    </section>
  );
}
