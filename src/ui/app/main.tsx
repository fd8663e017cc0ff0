// The workbench served by `simulate --serve` at /ui/: nodes, pods with their decisions, the
// queue, events, any object in YAML, the scheduler configuration and scenario import/export,
// all live through the API's watches.
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import '../shared/style.css';
import { getJson, type KindInfo } from './api.js';
import { EventsView } from './events.js';
import { podSummary, useCollection } from './live.js';
import { NodesView } from './nodes.js';
import type { EditTarget } from './object_editor.js';
import { ObjectsView } from './objects.js';
import { PodsView } from './pods.js';
import { QueueView } from './queue.js';
import { ConfigView, ScenarioView } from './settings.js';

const tabs = ['Nodes', 'Pods', 'Queue', 'Events', 'Objects', 'Configuration', 'Scenario'] as const;
type Tab = (typeof tabs)[number];

function App() {
  const [tab, setTab] = useState<Tab>('Pods');
  const [kinds, setKinds] = useState<KindInfo[]>([]);
  const [selectedPod, setSelectedPod] = useState('');
  const [target, setTarget] = useState<EditTarget>({ kind: 'Node', name: '' });
  const nodes = useCollection('/api/v1/nodes');
  const pods = useCollection('/api/v1/pods', podSummary);
  const events = useCollection('/apis/events.k8s.io/v1/events');
  useEffect(() => {
    getJson<KindInfo[]>('/ui/api/kinds').then((k) => setKinds(k.filter((x) => !(x.kind === 'Event' && x.group === ''))), () => setKinds([]));
  }, []);
  const showPod = (key: string) => {
    setSelectedPod(key);
    setTab('Pods');
  };
  const edit = (t: EditTarget) => {
    setTarget(t);
    setTab('Objects');
  };
  const pending = useMemo(() => pods.reduce((n, p) => (p.spec?.nodeName ? n : n + 1), 0), [pods]);
  return (
    <>
      <header class="top">
        <h1>kube-scheduler-ts workbench</h1>
        <nav class="tabs">
          {tabs.map((t) => <button key={t} class={t === tab ? 'active' : ''} data-testid={`tab-${t}`} onClick={() => setTab(t)}>{t}</button>)}
        </nav>
        <span class="muted" data-testid="status-line">{nodes.length} nodes · {pods.length} pods · {pending} pending</span>
      </header>
      <main>
        {tab === 'Nodes' && <NodesView nodes={nodes} pods={pods} onSelect={(name) => edit({ kind: 'Node', name })} />}
        {tab === 'Pods' && (
          <PodsView pods={pods} selected={selectedPod} onSelect={setSelectedPod} onNode={(name) => edit({ kind: 'Node', name })}
            onEdit={(key) => {
              const [namespace, name] = key ? key.split('/') : ['default', ''];
              edit({ kind: 'Pod', namespace, name: name ?? '' });
            }} />
        )}
        {tab === 'Queue' && <QueueView onPod={showPod} />}
        {tab === 'Events' && <EventsView events={events} onPod={showPod} />}
        {tab === 'Objects' && <ObjectsView kinds={kinds} target={target} onTarget={setTarget} />}
        {tab === 'Configuration' && <ConfigView />}
        {tab === 'Scenario' && <ScenarioView />}
      </main>
    </>
  );
}

const root = document.getElementById('app')!;
root.textContent = '';
render(<App />, root);
