// The scheduler configuration (edit and apply: the pending pods are scheduled again by a new
// scheduler) and the cluster as a scenario file (import to replace it, export to save it).
import { useEffect, useState } from 'preact/hooks';
import { getJson, sendText } from './api.js';
import { YamlEditor } from './yaml_editor.js';

/** A running profile as the server resolved it: plugins per extension point, Score weights. */
interface EffectiveProfile {
  schedulerName: string;
  plugins: Record<string, string[]>;
  scoreWeights: Record<string, number>;
}

function EffectiveProfiles({ profiles }: { profiles: EffectiveProfile[] }) {
  return (
    <>
      <h3>Effective profiles</h3>
      <p class="muted">What the running scheduler does with the configuration above, defaults applied: each extension point's plugins in the order they run, each Score plugin with its weight.</p>
      {profiles.map((p) => (
        <div key={p.schedulerName} data-testid={`profile-${p.schedulerName}`}>
          <h4>{p.schedulerName}</h4>
          <table class="grid">
            <thead><tr><th>extension point</th><th>plugins</th></tr></thead>
            <tbody>{Object.entries(p.plugins).map(([point, names]) => (
              <tr key={point}><td>{point}</td><td>{names.map((n) => (point === 'score' ? `${n} ×${p.scoreWeights[n] ?? 1}` : n)).join(', ') || '-'}</td></tr>
            ))}</tbody>
          </table>
        </div>
      ))}
    </>
  );
}

export function ConfigView() {
  const [text, setText] = useState('');
  const [profiles, setProfiles] = useState<EffectiveProfile[]>([]);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const load = (withText: boolean) => getJson<{ yaml: string; profiles: EffectiveProfile[] }>('/ui/api/config').then((c) => {
    if (withText) setText(c.yaml);
    setProfiles(c.profiles);
  }, (e: Error) => setResult({ ok: false, message: e.message }));
  useEffect(() => {
    void load(true);
  }, []);
  const apply = () => sendText<{ message: string }>('PUT', '/ui/api/config', text).then(
    (r) => { setResult({ ok: true, message: r.message }); void load(false); }, (e: Error) => setResult({ ok: false, message: e.message }));
  return (
    <section>
      <div class="toolbar">
        <h2>Scheduler configuration</h2>
        <button class="primary" data-testid="config-apply" onClick={() => void apply()}>Apply and re-schedule</button>
      </div>
      <p class="muted">A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1). Applying it replaces the scheduler; bound pods stay, pending ones are tried again.</p>
      <YamlEditor testId="config-editor" value={text} onChange={setText} />
      {result && <div class={result.ok ? 'ok' : 'error'} data-testid="config-result">{result.message}</div>}
      <EffectiveProfiles profiles={profiles} />
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
