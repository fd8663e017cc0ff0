// The scheduler configuration (edit and apply: the pending pods are scheduled again by a new
// scheduler) and the cluster as a scenario file (import to replace it, export to save it).
import { useEffect, useState } from 'preact/hooks';
import { getJson, sendText } from './api.js';
import { YamlEditor } from './yaml_editor.js';

export function ConfigView() {
  const [text, setText] = useState('');
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  useEffect(() => {
    getJson<{ yaml: string }>('/ui/api/config').then((c) => setText(c.yaml), (e: Error) => setResult({ ok: false, message: e.message }));
  }, []);
  const apply = () => sendText<{ message: string }>('PUT', '/ui/api/config', text).then(
    (r) => setResult({ ok: true, message: r.message }), (e: Error) => setResult({ ok: false, message: e.message }));
  return (
    <section>
      <div class="toolbar">
        <h2>Scheduler configuration</h2>
        <button class="primary" data-testid="config-apply" onClick={() => void apply()}>Apply and re-schedule</button>
      </div>
      <p class="muted">A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1). Applying it replaces the scheduler; bound pods stay, pending ones are tried again.</p>
      <YamlEditor testId="config-editor" value={text} onChange={setText} />
      {result && <div class={result.ok ? 'ok' : 'error'} data-testid="config-result">{result.message}</div>}
    </section>
  );
}

export function ScenarioView() {
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const importFile = async (file: File) => {
    try {
      const r = await sendText<{ message: string }>('POST', '/ui/api/scenario', await file.text());
      setResult({ ok: true, message: r.message });
    } catch (e) {
      setResult({ ok: false, message: (e as Error).message });
    }
  };
  return (
    <section>
      <h2>Scenario</h2>
      <p>Export the cluster as it is now (nodes, bound and pending pods, other objects, the configuration) as one scenario file, which <code>simulate</code>, <code>explain</code> and this page read back.</p>
      <p><a class="primary" href="/ui/api/scenario" download="cluster-scenario.yaml" data-testid="scenario-export">Export the cluster as a scenario</a></p>
      <p>Import a scenario file: it replaces every object of the cluster and its pending pods are scheduled.</p>
      <input type="file" accept=".yaml,.yml,.json" data-testid="scenario-import" onChange={(e) => {
        const f = (e.currentTarget as HTMLInputElement).files?.[0];
        if (f) void importFile(f);
      }} />
      {result && <div class={result.ok ? 'ok' : 'error'} data-testid="scenario-result">{result.message}</div>}
    </section>
  );
}
