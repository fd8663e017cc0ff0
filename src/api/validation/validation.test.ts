// Object validation against upstream's wording (pkg/apis/*/validation tests): each case names the
// object, what is wrong with it, and the field errors kube-apiserver gives.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Node, Pod } from '../types.js';
import { checkCreate, checkUpdate, decodeObject, fieldErrorString, kindValidation, knownKinds, markFromApiServer, podSchedulingProblem, nodeSchedulingProblem, shapes } from './index.js';

function pod(spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return { metadata: { name: 'p', namespace: 'default', ...metadata }, spec: { containers: [{ name: 'c', image: 'pause' }], ...spec } };
}

function container(extra: Record<string, unknown>): Record<string, unknown> {
  return { containers: [{ name: 'c', image: 'pause', ...extra }] };
}

const tsc = (c: Record<string, unknown>) => ({ topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', ...c }] });

/** The field errors of creating `obj` as `kind` (decode errors included), as strings. */
function errorsOf(kind: string, obj: unknown): string[] {
  const r = checkCreate(kindValidation(kind)!, obj);
  return r.ok ? [] : r.errors.map(fieldErrorString);
}

interface Case {
  name: string;
  kind: string;
  obj: unknown;
  want: string[];
}

const lowerSubdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const emptyName = 'name part must be non-empty';
const emptyNameRegex = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const cases: Case[] = [
  { name: 'a minimal pod is valid', kind: 'Pod', obj: pod(), want: [] },
  { name: 'a pod name must be a DNS subdomain', kind: 'Pod', obj: pod({}, { name: 'Bad_Name' }), want: [`metadata.name: Invalid value: "Bad_Name": ${lowerSubdomain}`] },
  { name: 'a pod needs containers', kind: 'Pod', obj: pod({ containers: [] }), want: ['spec.containers: Required value'] },
  { name: 'a null container decodes to an empty one, which lacks name and image', kind: 'Pod', obj: pod({ containers: [null] }),
    want: ['spec.containers[0].name: Required value', 'spec.containers[0].image: Required value'] },
  { name: 'container names are unique', kind: 'Pod', obj: pod({ containers: [{ name: 'c', image: 'x' }, { name: 'c', image: 'y' }] }), want: ['spec.containers[1].name: Duplicate value: "c"'] },
  { name: 'a spread constraint needs a topology key', kind: 'Pod', obj: pod(tsc({ topologyKey: undefined })), want: ['spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty'] },
  { name: 'whenUnsatisfiable takes two values', kind: 'Pod', obj: pod(tsc({ whenUnsatisfiable: 'Sometimes' })),
    want: ['spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Sometimes": supported values: "DoNotSchedule", "ScheduleAnyway"'] },
  { name: 'maxSkew is at least one', kind: 'Pod', obj: pod(tsc({ maxSkew: 0 })), want: ['spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero'] },
  { name: 'minDomains needs DoNotSchedule', kind: 'Pod', obj: pod(tsc({ whenUnsatisfiable: 'ScheduleAnyway', minDomains: 2 })),
    want: ['spec.topologySpreadConstraints[0].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway'] },
  { name: 'nodeAffinityPolicy takes Honor or Ignore', kind: 'Pod', obj: pod(tsc({ nodeAffinityPolicy: 'Always' })),
    want: ['spec.topologySpreadConstraints[0].nodeAffinityPolicy: Unsupported value: "Always": supported values: "Honor", "Ignore"'] },
  { name: 'two constraints may not share key and action', kind: 'Pod',
    obj: pod({ topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }, { maxSkew: 2, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }] }),
    want: ['spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"'] },
  { name: 'matchLabelKeys need a labelSelector', kind: 'Pod', obj: pod(tsc({ matchLabelKeys: ['app'] })),
    want: ['spec.topologySpreadConstraints[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set'] },
  { name: 'a toleration operator is Equal or Exists', kind: 'Pod', obj: pod({ tolerations: [{ key: 'a', operator: 'Maybe' }] }),
    want: ['spec.tolerations[0].operator: Unsupported value: "Maybe": supported values: "Equal", "Exists"'] },
  { name: 'an empty toleration key needs Exists', kind: 'Pod', obj: pod({ tolerations: [{ operator: 'Equal', value: 'x' }] }),
    want: ['spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"'] },
  { name: 'tolerationSeconds needs NoExecute', kind: 'Pod', obj: pod({ tolerations: [{ key: 'a', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }] }),
    want: ["spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set"] },
  { name: 'a toleration effect is one of the taint effects', kind: 'Pod', obj: pod({ tolerations: [{ key: 'a', operator: 'Exists', effect: 'NoWay' }] }),
    want: ['spec.tolerations[0].effect: Unsupported value: "NoWay": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"'] },
  { name: 'requests are not negative', kind: 'Pod', obj: pod(container({ resources: { requests: { cpu: '-1' } } })),
    want: ['spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0'] },
  { name: 'requests do not exceed limits', kind: 'Pod', obj: pod(container({ resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } })),
    want: ['spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1'] },
  { name: 'extended resources need equal limits', kind: 'Pod', obj: pod(container({ resources: { requests: { 'example.com/gpu': '1' } } })),
    want: ['spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources'] },
  { name: 'extended resources are whole', kind: 'Pod', obj: pod(container({ resources: { requests: { 'example.com/gpu': '500m' }, limits: { 'example.com/gpu': '500m' } } })),
    want: ['spec.containers[0].resources.limits[example.com/gpu]: Invalid value: 500m: must be an integer', 'spec.containers[0].resources.requests[example.com/gpu]: Invalid value: 500m: must be an integer'] },
  { name: 'unprefixed resources must be standard', kind: 'Pod', obj: pod(container({ resources: { requests: { gpu: '1' } } })),
    want: ['spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified', 'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers'] },
  { name: 'host ports are in range', kind: 'Pod', obj: pod(container({ ports: [{ containerPort: 80, hostPort: 70000 }] })),
    want: ['spec.containers[0].ports[0].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive'] },
  { name: 'node selector operators are known', kind: 'Pod',
    obj: pod({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Near', values: ['a'] }] }] } } } }),
    want: ['spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator'] },
  { name: 'required node affinity has a term', kind: 'Pod', obj: pod({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } } }),
    want: ['spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term'] },
  { name: 'Gt takes one value', kind: 'Pod',
    obj: pod({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'cpus', operator: 'Gt', values: ['1', '2'] }] }] } } } }),
    want: ["spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"] },
  { name: 'preferred weights are 1-100', kind: 'Pod', obj: pod({ affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: {} }] } } }),
    want: ['spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100'] },
  { name: 'a pod affinity term needs a topology key', kind: 'Pod',
    obj: pod({ affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'x' } } }] } } }),
    want: [
      'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty',
      `spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": ${emptyName}`,
      `spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": ${emptyNameRegex}`,
    ] },
  { name: 'label selector operators are known', kind: 'Pod',
    obj: pod({ affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', labelSelector: { matchExpressions: [{ key: 'app', operator: 'Equals', values: ['x'] }] } }] } } }),
    want: ['spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator'] },
  { name: 'a volume needs a source', kind: 'Pod', obj: pod({ volumes: [{ name: 'v' }] }), want: ['spec.volumes[0]: Required value: must specify a volume type'] },
  { name: 'a claim volume names its claim', kind: 'Pod', obj: pod({ volumes: [{ name: 'v', persistentVolumeClaim: {} }] }), want: ['spec.volumes[0].persistentVolumeClaim.claimName: Required value'] },
  { name: 'mounts name a volume of the pod', kind: 'Pod', obj: pod(container({ volumeMounts: [{ name: 'data', mountPath: '/d' }] })), want: ['spec.containers[0].volumeMounts[0].name: Not found: "data"'] },

  { name: 'a node taint needs an effect', kind: 'Node', obj: { metadata: { name: 'n' }, spec: { taints: [{ key: 'a' }] } }, want: ['metadata.taints[0].effect: Required value'] },
  { name: 'taints are unique by key and effect', kind: 'Node', obj: { metadata: { name: 'n' }, spec: { taints: [{ key: 'a', effect: 'NoSchedule' }, { key: 'a', value: 'b', effect: 'NoSchedule' }] } },
    want: ['metadata.taints[1]: Duplicate value: {"key":"a","value":"b","effect":"NoSchedule"}: taints must be unique by key and effect pair'] },
  { name: 'a null taint decodes to an empty one', kind: 'Node', obj: { metadata: { name: 'n' }, spec: { taints: [null] } },
    want: [`metadata.taints[0].key: Invalid value: "": ${emptyName}`, `metadata.taints[0].key: Invalid value: "": ${emptyNameRegex}`, 'metadata.taints[0].effect: Required value'] },
  { name: 'allocatable is not negative', kind: 'Node', obj: { metadata: { name: 'n' }, status: { allocatable: { cpu: '-1' } } },
    want: ['status.allocatable.cpu: Invalid value: "-1": must be greater than or equal to 0'] },
  { name: 'pods are counted whole', kind: 'Node', obj: { metadata: { name: 'n' }, status: { capacity: { pods: '1500m' } } }, want: ['status.capacity.pods: Invalid value: 1500m: must be an integer'] },

  { name: 'a priority value is bounded for users', kind: 'PriorityClass', obj: { metadata: { name: 'high' }, value: 2000000000 },
    want: ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000'] },
  { name: 'system- names are reserved', kind: 'PriorityClass', obj: { metadata: { name: 'system-mine' }, value: 5 },
    want: ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class"] },
  { name: 'a budget sets minAvailable or maxUnavailable', kind: 'PodDisruptionBudget', obj: { metadata: { name: 'b', namespace: 'default' }, spec: { minAvailable: 1, maxUnavailable: 1 } },
    want: ['spec: Invalid value: {"minAvailable":1,"maxUnavailable":1}: minAvailable and maxUnavailable cannot be both set'] },
  { name: 'a budget percentage is at most 100%', kind: 'PodDisruptionBudget', obj: { metadata: { name: 'b', namespace: 'default' }, spec: { minAvailable: '101%' } },
    want: ['spec.minAvailable: Invalid value: "101%": must not be greater than 100%'] },
  { name: 'a claim has access modes and a storage request', kind: 'PersistentVolumeClaim', obj: { metadata: { name: 'c', namespace: 'default' }, spec: {} },
    want: ['spec.accessModes: Required value: at least 1 access mode is required', 'spec.resources[storage]: Required value'] },
  { name: 'a volume has a source', kind: 'PersistentVolume', obj: { metadata: { name: 'v' }, spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } } },
    want: ['spec: Required value: must specify a volume type'] },
  { name: 'a storage class has a provisioner and a known binding mode', kind: 'StorageClass', obj: { metadata: { name: 's' }, volumeBindingMode: 'Later' },
    want: ['provisioner: Required value', 'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"'] },
  { name: 'a replica set selects its template', kind: 'ReplicaSet',
    obj: { metadata: { name: 'r', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } } },
    want: ['spec.template.metadata.labels: Invalid value: {"app":"b"}: `selector` does not match template `labels`'] },
  { name: 'a job template restarts on failure or never', kind: 'Job', obj: { metadata: { name: 'j', namespace: 'default' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'x' }] } } } },
    want: ['spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"'] },
  { name: 'a job gang minCount is at least 1 and at most parallelism (WorkloadWithJob)', kind: 'Job',
    obj: { metadata: { name: 'j', namespace: 'default' }, spec: { parallelism: 2, scheduling: { schedulingPolicy: { gang: { minCount: 3 } } }, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } } },
    want: ['spec.scheduling.schedulingPolicy.gang.minCount: Invalid value: 3: must not be greater than parallelism (2)'] },
  { name: 'a job gang minCount of 0', kind: 'Job',
    obj: { metadata: { name: 'j', namespace: 'default' }, spec: { scheduling: { schedulingPolicy: { gang: { minCount: 0 } } }, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } } },
    want: ['spec.scheduling.schedulingPolicy.gang.minCount: Invalid value: 0: must be greater than or equal to 1'] },
  { name: 'declared features are sorted, unique, UpperCamelCase', kind: 'Node',
    obj: { metadata: { name: 'n' }, status: { declaredFeatures: ['Zeta', 'Alpha', 'Alpha', 'lower'] } },
    want: [
      'status.declaredFeatures[1]: Invalid value: "Alpha": list must be sorted alphabetically',
      'status.declaredFeatures[2]: Duplicate value: "Alpha"',
      'status.declaredFeatures[3]: Invalid value: "lower": invalid feature name "lower": must start with an UpperCamelCase segment, with subsequent segments separated by \'/\' (e.g., MyFeature or MyFeature/mySubFeature), and contain only alphanumeric characters and slashes',
    ] },
  { name: 'declared features with sub-features are valid', kind: 'Node', obj: { metadata: { name: 'n' }, status: { declaredFeatures: ['Feature', 'Feature/sub1'] } }, want: [] },
  { name: 'a service has ports', kind: 'Service', obj: { metadata: { name: 's', namespace: 'default' }, spec: { selector: { app: 'a' } } }, want: ['spec.ports: Required value'] },
  { name: 'a headless service needs none', kind: 'Service', obj: { metadata: { name: 's', namespace: 'default' }, spec: { clusterIP: 'None' } }, want: [] },
  { name: 'namespace names are DNS labels', kind: 'Namespace', obj: { metadata: { name: 'a.b' } },
    want: ["metadata.name: Invalid value: \"a.b\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"] },
];

describe('object validation as kube-apiserver validates', () => {
  for (const c of cases) {
    it(`${c.kind}: ${c.name}`, () => {
      assert.deepEqual(errorsOf(c.kind, c.obj), c.want);
    });
  }

  it('every kind a scenario or the API may hold has a validation', () => {
    for (const k of knownKinds()) assert.ok(kindValidation(k), k);
    assert.ok(knownKinds().includes('Deployment') && knownKinds().includes('CSIStorageCapacity'));
  });

  it('an update may not change a pod spec beyond what upstream allows', () => {
    const k = kindValidation('Pod')!;
    const old = pod() as unknown as KubeObject;
    const changed = pod({ nodeName: 'n1' });
    const r = checkUpdate(k, old, changed);
    assert.equal(r.ok, false);
    assert.match(fieldErrorString(r.errors[0]!), /^spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\]\.image`/);
    assert.equal(checkUpdate(k, old, pod({ tolerations: [{ key: 'a', operator: 'Exists' }] })).ok, true);
  });

  it('a PriorityClass keeps its value', () => {
    const k = kindValidation('PriorityClass')!;
    const r = checkUpdate(k, { metadata: { name: 'p' }, value: 1 } as KubeObject, { metadata: { name: 'p' }, value: 2 });
    assert.deepEqual(r.ok ? [] : r.errors.map(fieldErrorString), ['value: Forbidden: may not be changed in an update.']);
  });
});

describe('decoding as encoding/json decodes the typed objects', () => {
  const table: { name: string; obj: unknown; field: string; message: string }[] = [
    { name: 'a number where a list belongs', obj: { metadata: { name: 'p' }, spec: { containers: 5 } }, field: 'spec.containers',
      message: 'json: cannot unmarshal number into Go struct field PodSpec.spec.containers of type []v1.Container' },
    { name: 'a string where metadata belongs', obj: { metadata: 'x' }, field: 'metadata', message: 'json: cannot unmarshal string into Go struct field Pod.metadata of type v1.ObjectMeta' },
    { name: 'an object where a list belongs', obj: { spec: { tolerations: {} } }, field: 'spec.tolerations',
      message: 'json: cannot unmarshal object into Go struct field PodSpec.spec.tolerations of type []v1.Toleration' },
    { name: 'a word where a number belongs', obj: pod(tsc({ maxSkew: 'one' })), field: 'spec.topologySpreadConstraints[0].maxSkew',
      message: 'json: cannot unmarshal string into Go struct field TopologySpreadConstraint.spec.topologySpreadConstraints.maxSkew of type int32' },
    { name: 'a fraction where an integer belongs', obj: pod(tsc({ maxSkew: 1.5 })), field: 'spec.topologySpreadConstraints[0].maxSkew',
      message: 'json: cannot unmarshal number 1.5 into Go struct field TopologySpreadConstraint.spec.topologySpreadConstraints.maxSkew of type int32' },
    { name: 'a number as a label value', obj: { metadata: { name: 'p', labels: { tier: 2 } } }, field: 'metadata.labels.tier',
      message: 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string' },
    { name: 'an unparsable quantity', obj: pod(container({ resources: { requests: { cpu: '4x' } } })), field: 'spec.containers[0].resources.requests.cpu',
      message: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'" },
    { name: 'an object as a quantity', obj: { metadata: { name: 'n' }, status: { allocatable: { cpu: { n: 1 } } } }, field: 'status.allocatable.cpu',
      message: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'" },
    { name: 'a malformed timestamp', obj: { metadata: { name: 'p', creationTimestamp: 'yesterday' } }, field: 'metadata.creationTimestamp',
      message: 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"' },
  ];
  for (const c of table) {
    it(c.name, () => {
      const r = decodeObject(c.obj && (c.obj as { status?: unknown }).status ? shapes.node : shapes.pod, c.obj);
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.equal(r.issue.field, c.field);
      assert.equal(r.issue.message, c.message);
    });
  }

  it('turns nulls into Go zero values and drops null fields', () => {
    const r = decodeObject<Pod>(shapes.pod, { metadata: { name: 'p', labels: null }, spec: { containers: [{ name: 'c', image: 'x', ports: [null] }], tolerations: [null], affinity: null } });
    assert.ok(r.ok);
    if (!r.ok) return;
    assert.deepEqual(r.value, { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x', ports: [{}] }], tolerations: [{}] } });
  });

  it('keeps fields it does not model as given', () => {
    const r = decodeObject<Record<string, unknown>>(shapes.pod, { metadata: { name: 'p' }, spec: { containers: [], future: { x: [1] } }, extra: 'y' });
    assert.ok(r.ok);
    if (r.ok) assert.deepEqual(r.value, { metadata: { name: 'p' }, spec: { containers: [], future: { x: [1] } }, extra: 'y' });
  });
});

describe('what a scheduler checks before it trusts an object from elsewhere', () => {
  it('accepts pods upstream plugin tests use though the API would refuse them', () => {
    const p = pod({ ...container({ resources: { requests: { 'example.com/gpu': '1' } } }),
      affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: '', namespaces: ['DiffNameSpace'] }] } } }) as unknown as Pod;
    assert.equal(podSchedulingProblem(p), null);
  });

  it('refuses what the plugins cannot evaluate, in the API server wording', () => {
    assert.equal(podSchedulingProblem(pod(tsc({ topologyKey: undefined })) as unknown as Pod),
      'Pod "p" is invalid: spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty');
    assert.equal(podSchedulingProblem(pod(container({ resources: { requests: { cpu: '-2' } } })) as unknown as Pod),
      'Pod "p" is invalid: spec.containers[0].resources.requests[cpu]: Invalid value: "-2": must be greater than or equal to 0');
    assert.equal(podSchedulingProblem(pod({ tolerations: [null] }) as unknown as Pod),
      'Pod "p" is invalid: spec.tolerations[0]: Invalid value: null: must be of type v1.Toleration');
    assert.equal(podSchedulingProblem(pod(container({ resources: { requests: { cpu: '4x' } } })) as unknown as Pod, true),
      `Pod "p" is invalid: spec.containers[0].resources.requests.cpu: Invalid value: "4x": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
  });

  it('checks a node the same way', () => {
    assert.equal(nodeSchedulingProblem({ metadata: { name: 'n' }, spec: { taints: [{ key: 'a', effect: 'NoSchedule' }] } }), null);
    assert.equal(nodeSchedulingProblem({ metadata: { name: 'n' }, spec: { taints: [null as never] } }), 'Node "n" is invalid: spec.taints[0]: Invalid value: null: must be of type v1.Taint');
    assert.match(nodeSchedulingProblem({ metadata: { name: 'n' }, status: { allocatable: { cpu: '4x' } } }) ?? '', /^Node "n" is invalid: status\.allocatable\.cpu: Invalid value: "4x": quantities must match/);
  });

  it('passes unchecked what an API server sent (it validated it), and only that object', () => {
    const cases: { name: string; make: () => Pod | Node; problem: (o: Pod | Node) => string | null }[] = [
      { name: 'pod', make: () => pod(tsc({ topologyKey: undefined })) as unknown as Pod, problem: (o) => podSchedulingProblem(o as Pod) },
      { name: 'node', make: () => ({ metadata: { name: 'n' }, spec: { taints: [null as never] } }), problem: (o) => nodeSchedulingProblem(o as Node) },
    ];
    for (const c of cases) {
      const served = c.make();
      markFromApiServer(served);
      assert.equal(c.problem(served), null, c.name);
      assert.notEqual(c.problem(structuredClone(served)), null, `${c.name}: a copy is checked`);
    }
  });
});
