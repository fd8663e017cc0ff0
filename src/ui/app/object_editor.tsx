// Create, edit and delete any object in YAML. Writes go through the API server, so its
// validation errors (field path and reason) are shown under the editor as it words them.
import { useEffect, useState } from 'preact/hooks';
import { parse, stringify } from 'yaml';
import { ApiProblem, collectionPath, getJson, objectPath, remove, sendJson, type KindInfo, type KubeObject } from './api.js';
import { YamlEditor } from './yaml_editor.js';

export interface EditTarget {
  kind: string;
  namespace?: string;
  /** Empty for a new object. */
  name: string;
}

/** A new object's starting text per kind (a minimal valid one where it helps). */
function template(k: KindInfo, namespace: string): string {
  const apiVersion = k.group === '' ? k.version : `${k.group}/${k.version}`;
  if (k.kind === 'Pod') {
    return stringify({ apiVersion, kind: 'Pod', metadata: { name: 'new-pod', namespace }, spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '100m', memory: '128Mi' } } }] } });
  }
  if (k.kind === 'Node') {
    const capacity = { cpu: '4', memory: '16Gi', pods: '110' };
    return stringify({ apiVersion, kind: 'Node', metadata: { name: 'new-node', labels: { 'kubernetes.io/hostname': 'new-node' } }, status: { capacity, allocatable: capacity } });
  }
  return stringify({ apiVersion, kind: k.kind, metadata: k.namespaced ? { name: '', namespace } : { name: '' } });
}

function toYaml(o: KubeObject): string {
  const { managedFields: _managed, ...metadata } = o.metadata;
  return stringify({ ...o, metadata });
}

export function ObjectEditor({ kinds, target, onClose }: { kinds: KindInfo[]; target: EditTarget; onClose?: () => void }) {
  const kind = kinds.find((k) => k.kind === target.kind);
  const [original, setOriginal] = useState<KubeObject | null>(null);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [notice, setNotice] = useState('');
  useEffect(() => {
    setProblem(null);
    setNotice('');
    if (!kind) return;
    if (!target.name) {
      setOriginal(null);
      setText(template(kind, target.namespace ?? 'default'));
      return;
    }
    const path = objectPath(kind, { metadata: { name: target.name, namespace: target.namespace } });
    getJson<KubeObject>(path).then((o) => {
      setOriginal(o);
      setText(toYaml(o));
    }, (err: ApiProblem) => setProblem(err));
  }, [kind, target.kind, target.namespace, target.name]);
  if (!kind) return <p class="error">Unknown kind {target.kind}</p>;

  const apply = async () => {
    setProblem(null);
    setNotice('');
    let o: KubeObject;
    try {
      o = parse(text) as KubeObject;
      if (!o || typeof o !== 'object' || !o.metadata) throw new Error('the document must be an object with metadata');
    } catch (err) {
      setProblem(new ApiProblem(400, `YAML: ${(err as Error).message}`));
      return;
    }
    try {
      let saved: KubeObject;
      if (original && o.metadata.name === original.metadata.name) {
        saved = await sendJson<KubeObject>('PUT', objectPath(kind, o), o);
        // The main resource ignores status (as kube-apiserver's does): write it through /status.
        if (o.status !== undefined && JSON.stringify(o.status) !== JSON.stringify(saved.status)) {
          saved = await sendJson<KubeObject>('PUT', `${objectPath(kind, o)}/status`, { ...o, metadata: { ...o.metadata, resourceVersion: saved.metadata.resourceVersion } });
        }
      } else {
        saved = await sendJson<KubeObject>('POST', collectionPath(kind, o.metadata.namespace ?? target.namespace ?? 'default'), o);
      }
      setOriginal(saved);
      setText(toYaml(saved));
      setNotice(`${kind.kind} ${saved.metadata.name} saved (resourceVersion ${saved.metadata.resourceVersion})`);
    } catch (err) {
      setProblem(err instanceof ApiProblem ? err : new ApiProblem(0, (err as Error).message));
    }
  };
  const del = async () => {
    if (!original) return;
    try {
      await remove(objectPath(kind, original));
      setNotice(`${kind.kind} ${original.metadata.name} deleted`);
      setOriginal(null);
      onClose?.();
    } catch (err) {
      setProblem(err as ApiProblem);
    }
  };
  return (
    <div class="object-editor" data-testid="object-editor">
      <div class="toolbar">
        <b>{original ? `${kind.kind} ${keyLabel(original)}` : `New ${kind.kind}`}</b>
        <button class="primary" data-testid="editor-apply" onClick={() => void apply()}>{original ? 'Apply' : 'Create'}</button>
        {original && <button class="danger" data-testid="editor-delete" onClick={() => void del()}>Delete</button>}
        {onClose && <button class="secondary" onClick={onClose}>Close</button>}
      </div>
      <YamlEditor testId="yaml-editor" value={text} onChange={setText} />
      {problem && (
        <div class="error" data-testid="editor-error">
          {problem.message}
          {problem.causes.length > 0 && <ul>{problem.causes.map((c, i) => <li key={i}><b>{c.field}</b>: {c.message}</li>)}</ul>}
        </div>
      )}
      {notice && <div class="ok" data-testid="editor-notice">{notice}</div>}
    </div>
  );
}

function keyLabel(o: KubeObject): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name ?? ''}` : (o.metadata.name ?? '');
}
