// The scheduling queue: how many pods wait where (active, backoff, unschedulable, gated) and why,
// polled from the workbench endpoint while the tab is open (the queue is not an API object).
import { useEffect, useState } from 'preact/hooks';
import { VirtualList } from '../shared/virtual_list.js';
import { getJson, type QueueAnswer } from './api.js';

const pollMs = 1000;

export function QueueView({ onPod }: { onPod: (key: string) => void }) {
  const [q, setQ] = useState<QueueAnswer | null>(null);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    let live = true;
    const load = () => getJson<QueueAnswer>('/ui/api/queue').then((a) => { if (live) { setQ(a); setProblem(''); } }, (e: Error) => live && setProblem(e.message));
    void load();
    const timer = setInterval(() => void load(), pollMs);
    return () => { live = false; clearInterval(timer); };
  }, []);
  if (problem) return <p class="error">{problem}</p>;
  if (!q) return <p class="muted">Loading the queue…</p>;
  return (
    <section>
      <h2>Scheduling queue</h2>
      <div class="cards" data-testid="queue-counts">
        {(Object.entries(q.counts) as [string, number][]).map(([k, v]) => <div class="card" key={k}><div class="muted">{k}</div><div class="stat">{v}</div></div>)}
      </div>
      <h4>Waiting pods ({q.pods.length}{q.more > 0 ? ` listed, ${q.more} more` : ''})</h4>
      <VirtualList testId="queue-list" items={q.pods} rowHeight={26} height={480} renderRow={(p) => (
        <div class="grow" onClick={() => onPod(p.pod)}>
          <span class="badge">{p.queue}</span> <b>{p.pod}</b> <span class="muted">attempts {p.attempts}
            {p.gatingPlugin ? ` · gated by ${p.gatingPlugin}` : p.plugins.length > 0 ? ` · rejected by ${p.plugins.join(', ')}` : ''}</span> {p.message}
        </div>
      )} />
    </section>
  );
}
