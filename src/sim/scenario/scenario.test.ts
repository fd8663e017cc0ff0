// The scenario loader: every object decoded, admitted and validated as kube-apiserver would, in the
// order the cluster receives them; any problem is one line naming the file, the object, the field
// and the reason.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseScenario, ScenarioError } from './scenario.js';

const node = (name: string, extra = '') => `- metadata: { name: ${name} }\n  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }${extra}\n`;
const podYaml = (name: string, spec = '') => `- metadata: { name: ${name} }\n  spec: { containers: [{ name: c, image: x }]${spec} }\n`;

/** The message a scenario fails with. */
function failure(text: string): ScenarioError {
  try {
    parseScenario(text, 'scenario.yaml');
  } catch (err) {
    assert.ok(err instanceof ScenarioError, `a ScenarioError, got ${String(err)}`);
    assert.doesNotMatch(err.message, /\n/, 'one line');
    return err;
  }
  assert.fail('the scenario was accepted');
}

describe('scenario loading refuses what the API server would, in one line', () => {
  const table: { name: string; text: string; want: string }[] = [
    { name: 'an unparsable node quantity', text: `nodes:\n- metadata: { name: n3 }\n  status: { allocatable: { cpu: "4x" } }\n`,
      want: `scenario.yaml: nodes[0] (Node n3): status.allocatable.cpu: Invalid value: "4x": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'` },
    { name: 'a YAML .inf quantity', text: `nodes:\n- metadata: { name: n1 }\n  status: { allocatable: { pods: .inf } }\n`,
      want: `scenario.yaml: nodes[0] (Node n1): status.allocatable.pods: Invalid value: +Inf: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'` },
    { name: 'two pods with one name', text: `pending:\n${podYaml('web')}${podYaml('web')}`, want: 'scenario.yaml: pending[1] (Pod default/web): pods "web" already exists' },
    { name: 'a bound and a pending pod with one name', text: `nodes:\n${node('n1')}pods:\n${podYaml('web', ', nodeName: n1')}pending:\n${podYaml('web')}`,
      want: 'scenario.yaml: pending[0] (Pod default/web): pods "web" already exists' },
    { name: 'two PriorityClasses with one name', text: `objects:\n- { kind: PriorityClass, metadata: { name: hi }, value: 1 }\n- { kind: PriorityClass, metadata: { name: hi }, value: 2 }\nnodes: []\n`,
      want: 'scenario.yaml: objects[1] (PriorityClass hi): priorityclasses.scheduling.k8s.io "hi" already exists' },
    { name: 'a list given a number', text: `pending:\n- metadata: { name: p }\n  spec: { containers: 5 }\n`,
      want: 'scenario.yaml: pending[0] (Pod default/p): spec.containers: Invalid value: 5: must be of type []v1.Container' },
    { name: 'metadata given a string', text: `pending:\n- metadata: "x"\n  spec: { containers: [] }\n`, want: 'scenario.yaml: pending[0] (Pod): metadata: Invalid value: "x": must be of type v1.ObjectMeta' },
    { name: 'a null list entry', text: 'pending:\n- null\n', want: 'scenario.yaml: pending[0]: must be an object' },
    { name: 'a list that is not one', text: 'nodes: {}\n', want: 'scenario.yaml: nodes: must be a list' },
    { name: 'a spread constraint without topologyKey', text: `pending:\n${podYaml('p', ', topologySpreadConstraints: [{ maxSkew: 1, whenUnsatisfiable: DoNotSchedule }]')}`,
      want: 'scenario.yaml: pending[0] (Pod default/p): spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty' },
    { name: 'whenUnsatisfiable: Sometimes', text: `pending:\n${podYaml('p', ', topologySpreadConstraints: [{ maxSkew: 1, topologyKey: zone, whenUnsatisfiable: Sometimes }]')}`,
      want: 'scenario.yaml: pending[0] (Pod default/p): spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Sometimes": supported values: "DoNotSchedule", "ScheduleAnyway"' },
    { name: 'a missing PriorityClass', text: `pending:\n${podYaml('p', ', priorityClassName: gold')}`,
      want: 'scenario.yaml: pending[0] (Pod default/p): pods "p" is forbidden: no PriorityClass with name gold was found' },
    { name: 'a PodGroup naming a missing PriorityClass', text: 'objects:\n- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: g }, spec: { schedulingPolicy: { basic: {} }, priorityClassName: gold } }\nnodes: []\n',
      want: 'scenario.yaml: objects[0] (PodGroup default/g): podgroups.scheduling.k8s.io "g" is forbidden: no PriorityClass with name gold was found' },
    { name: 'a PodGroup whose priority is not its class value', text: 'objects:\n- { kind: PriorityClass, metadata: { name: hi }, value: 10 }\n- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: g }, spec: { schedulingPolicy: { basic: {} }, priorityClassName: hi, priority: 100 } }\nnodes: []\n',
      want: 'scenario.yaml: objects[1] (PodGroup default/g): podgroups.scheduling.k8s.io "g" is forbidden: priority set in the pod group (100) must match the priority computed (10) based on the priority class set in the spec' },
    { name: 'a negative request', text: `pending:\n${podYaml('p').replace('image: x', 'image: x, resources: { requests: { memory: "-1Gi" } }')}`,
      want: 'scenario.yaml: pending[0] (Pod default/p): spec.containers[0].resources.requests[memory]: Invalid value: "-1Gi": must be greater than or equal to 0' },
    { name: 'an existing pod without a node', text: `pods:\n${podYaml('p')}`,
      want: 'scenario.yaml: pods[0] (p): existing pods need spec.nodeName; put pods to schedule under pending' },
    { name: 'a misspelled top-level field', text: 'nodez: []\nnodes: []\n',
      want: 'scenario.yaml: unknown field "nodez" (known fields: metadata, config, controllers, nodes, pods, pending, objects, steps)' },
    { name: 'misspelt nested fields (reqests, nodeSelecter): refused as strict decoding refuses them, every one named',
      text: `pending:\n${podYaml('p', ', nodeSelecter: { zone: a }').replace('image: x', 'image: x, resources: { reqests: { cpu: "4" } }')}`,
      want: 'scenario.yaml: pending[0] (Pod default/p): strict decoding error: unknown field "spec.containers[0].resources.reqests", unknown field "spec.nodeSelecter"' },
    { name: 'a misspelt field in a workload\'s pod template', text: 'objects:\n- { apiVersion: apps/v1, kind: Deployment, metadata: { name: d }, spec: { selector: { matchLabels: { a: b } }, template: { metadata: { labels: { a: b } }, spec: { containers: [{ name: c, image: x }], tolerationz: [] } } } }\nnodes: []\n',
      want: 'scenario.yaml: objects[0] (Deployment default/d): strict decoding error: unknown field "spec.template.spec.tolerationz"' },
    { name: 'a misspelt field in a DRA claim', text: 'objects:\n- { apiVersion: resource.k8s.io/v1, kind: ResourceClaim, metadata: { name: c }, spec: { devices: { requests: [{ name: r, exactly: { deviceClassName: gpu, count: 1, selektors: [] } }] } } }\nnodes: []\n',
      want: 'scenario.yaml: objects[0] (ResourceClaim default/c): strict decoding error: unknown field "spec.devices.requests[0].exactly.selektors"' },
    { name: 'a step that updates a node with a bad quantity', text: `nodes:\n${node('n1')}steps:\n- after: 5s\n  update:\n  - { kind: Node, metadata: { name: n1 }, status: { allocatable: { cpu: "4x" } } }\n`,
      want: `scenario.yaml: steps[0].update[0] (Node n1): status.allocatable.cpu: Invalid value: "4x": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'` },
    { name: 'a step that creates what exists', text: `nodes:\n${node('n1')}steps:\n- create:\n  - { kind: Node, metadata: { name: n1 } }\n`,
      want: 'scenario.yaml: steps[0].create[0] (Node n1): nodes "n1" already exists' },
    { name: 'a step that updates what does not exist', text: 'nodes: []\nsteps:\n- update:\n  - { kind: Node, metadata: { name: n9 } }\n',
      want: 'scenario.yaml: steps[0].update[0] (Node n9): nodes "n9" not found' },
    { name: 'a step that changes a pod spec', text: `nodes:\n${node('n1')}pending:\n${podYaml('p')}steps:\n- update:\n  - kind: Pod\n    metadata: { name: p }\n    spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "1" } } }] }\n`,
      want: 'scenario.yaml: steps[0].update[0] (Pod default/p): spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)' },
    { name: 'a misspelled step field', text: 'nodes: []\nsteps:\n- afterr: 5s\n', want: 'scenario.yaml: steps[0]: unknown field "afterr" (known fields: after, create, update, delete, addNodes, cordon, uncordon, drain, removeNodes, scale, reconfigure)' },
    { name: 'a YAML alias bomb', text: 'a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nnodes: []\n',
      want: 'scenario.yaml: Excessive alias count indicates a resource exhaustion attack' },
    { name: 'deep nesting', text: `nodes:\n- metadata: { name: n1 }\n  extra: ${'['.repeat(200)}${']'.repeat(200)}\n`, want: 'scenario.yaml: exceeded max depth of 100 nested objects and arrays' },
    { name: 'a __proto__ key', text: 'nodes:\n- metadata: { name: n1, labels: { __proto__: { a: b } } }\n', want: 'scenario.yaml: field "__proto__" is not allowed' },
  ];
  for (const c of table) {
    it(c.name, () => assert.equal(failure(c.text).message, c.want));
  }

  it('nesting deeper than the YAML parser goes (where it gives up depends on the stack)', () => {
    const err = failure(`nodes: ${'['.repeat(5000)}${']'.repeat(5000)}\n`);
    assert.match(err.message, /^scenario\.yaml: exceeded max depth of 100 nested objects and arrays at line 1, column \d+$/);
  });

  it('names every known kind when the kind is unknown', () => {
    const err = failure('objects:\n- { kind: Frobnicator, metadata: { name: f } }\nnodes: []\n');
    assert.match(err.message, /^scenario\.yaml: objects\[0\]: unknown kind "Frobnicator" \(known kinds: CSIDriver, CSINode, CSIStorageCapacity, CompositePodGroup, CustomResourceDefinition, DaemonSet, Deployment, /);
    assert.match(err.message, /PodGroup, PodGroup\.scheduling\.x-k8s\.io, PriorityClass, ReplicaSet, ReplicationController, .*StorageClass, VolumeAttachment, Workload\)$/);
  });

  it('carries the field errors behind the message', () => {
    const err = failure(`nodes:\n- metadata: { name: n1 }\n  spec: { taints: [{ key: a, effect: Never }] }\n`);
    assert.deepEqual(err.causes.map((c) => [c.type, c.field]), [['FieldValueNotSupported', 'metadata.taints[0].effect']]);
  });
});

describe('scenario loading keeps what a cluster would store', () => {
  it('stores the decoded objects: nulls become zero values, namespaces default', () => {
    const sc = parseScenario(`nodes:\n- metadata: { name: n1, labels: null }\n  spec: { taints: null }\npending:\n${podYaml('p', ', tolerations: [{ key: a, operator: Exists }]')}`, 'x.yaml');
    assert.deepEqual(sc.nodes[0], { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, spec: {} });
    assert.equal(sc.pending[0]!.metadata.namespace, 'default');
    assert.equal(sc.source, 'x.yaml');
  });

  it('lets a pod name a PriorityClass created before it, in objects or an earlier step', () => {
    const sc = parseScenario(`nodes: []\nsteps:\n- create:\n  - { kind: PriorityClass, metadata: { name: gold }, value: 100 }\n- create:\n  - kind: Pod\n    metadata: { name: p }\n    spec: { priorityClassName: gold, containers: [{ name: c, image: x }] }\n`, 'x.yaml');
    assert.equal(sc.steps[1]!.create[0]!.metadata?.name, 'p');
    const err = failure(`nodes: []\nsteps:\n- create:\n  - kind: Pod\n    metadata: { name: p }\n    spec: { priorityClassName: gold, containers: [{ name: c, image: x }] }\n- create:\n  - { kind: PriorityClass, metadata: { name: gold }, value: 100 }\n`);
    assert.match(err.message, /steps\[0\]\.create\[0\] \(Pod default\/p\): pods "p" is forbidden: no PriorityClass with name gold was found$/);
  });

  it('lets a step recreate what an earlier step deleted', () => {
    const sc = parseScenario(`nodes:\n${node('n1')}steps:\n- delete: [{ kind: Node, name: n1 }]\n- create: [{ kind: Node, metadata: { name: n1 } }]\n`, 'x.yaml');
    assert.equal(sc.steps.length, 2);
  });

  it('reads a kubectl dump: Lists, documents, a configuration, pending pods in creation order', () => {
    const text = [
      'apiVersion: v1\nkind: List\nitems:\n- { kind: Node, metadata: { name: n1 } }\n- { kind: Pod, metadata: { name: late, creationTimestamp: "2024-01-02T00:00:00Z" }, spec: { containers: [{ name: c, image: x }] } }',
      'kind: Pod\nmetadata: { name: early, creationTimestamp: "2024-01-01T00:00:00Z" }\nspec: { containers: [{ name: c, image: x }] }',
      'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles: [{ schedulerName: default-scheduler }]',
    ].join('\n---\n');
    const sc = parseScenario(text, 'dump.yaml');
    assert.deepEqual(sc.nodes.map((n) => n.metadata.name), ['n1']);
    assert.deepEqual(sc.pending.map((p) => p.metadata.name), ['early', 'late']);
    assert.equal(sc.config?.kind, 'KubeSchedulerConfiguration');
  });

  it('accepts the workload kinds the scheduler reads and the ones a dump carries', () => {
    const sc = parseScenario(`objects:
- kind: Deployment
  metadata: { name: web }
  spec: { selector: { matchLabels: { app: web } }, template: { metadata: { labels: { app: web } }, spec: { containers: [{ name: c, image: x }] } } }
- kind: Job
  metadata: { name: batch }
  spec: { template: { spec: { restartPolicy: Never, containers: [{ name: c, image: x }] } } }
nodes: []
`, 'x.yaml');
    assert.deepEqual(sc.objects.map((o) => o.kind), ['Deployment', 'Job']);
  });
});

describe('scenario loading knows the workload feature gates', () => {
  const off = { topologyAwareWorkloadScheduling: false, draWorkloadResourceClaims: false, podGroupPreemptionPolicy: false, compositePodGroup: false };
  const classes = '- { kind: PriorityClass, metadata: { name: hi }, value: 10, preemptionPolicy: Never }\n';
  const withGroup = (spec: string) => `objects:\n${classes}- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: g }, spec: ${spec} }\nnodes: []\n`;
  const groupSpec = (text: string, gates?: typeof off) => (parseScenario(text, 's.yaml', gates === undefined ? {} : { gates }).objects[1] as { spec: Record<string, unknown> }).spec;
  const policyClash = '{ schedulingPolicy: { basic: {} }, priorityClassName: hi, preemptionPolicy: PreemptLowerPriority }';

  it('checks a group\'s preemption policy against its class only with PodGroupPreemptionPolicy on', () => {
    assert.throws(() => parseScenario(withGroup(policyClash), 's.yaml', { gates: { ...off, podGroupPreemptionPolicy: true } }),
      /objects\[1\] \(PodGroup default\/g\): podgroups\.scheduling\.k8s\.io "g" is forbidden: the string value of PreemptionPolicy \(PreemptLowerPriority\) must not be provided in pod group spec; priority admission controller computed Never from the given PriorityClass name$/);
    assert.deepEqual(groupSpec(withGroup(policyClash), off), { schedulingPolicy: { basic: {} }, priorityClassName: 'hi' }, 'off: the policy is dropped, not checked');
    assert.equal(groupSpec(withGroup(policyClash)).preemptionPolicy, 'PreemptLowerPriority', 'gates unknown: kept for the store to decide');
  });

  it('drops parentCompositePodGroupName instead of refusing it, and the other gated fields when their gates are off', () => {
    const text = withGroup('{ schedulingPolicy: { basic: {} }, parentCompositePodGroupName: p, schedulingConstraints: { topology: [{ key: rack }] } }');
    assert.deepEqual(groupSpec(text), { schedulingPolicy: { basic: {} }, schedulingConstraints: { topology: [{ key: 'rack' }] } });
    assert.deepEqual(groupSpec(text, off), { schedulingPolicy: { basic: {} } });
    assert.deepEqual(groupSpec(text, { ...off, topologyAwareWorkloadScheduling: true }), { schedulingPolicy: { basic: {} }, schedulingConstraints: { topology: [{ key: 'rack' }] } });
  });

  it('loads a composite tree with CompositePodGroup on, field by field as strict decoding reads it', () => {
    const on = { ...off, topologyAwareWorkloadScheduling: true, compositePodGroup: true };
    const tree = '{ compositePodGroupTemplates: [{ name: slice, schedulingPolicy: { gang: { minGroupCount: 2 } }, podGroupTemplates: [{ name: workers, schedulingPolicy: { gang: { minCount: 4 } } }] }] }';
    const text = (cpgSpec: string) => `objects:
- { apiVersion: scheduling.k8s.io/v1beta1, kind: Workload, metadata: { name: w }, spec: ${tree} }
- { apiVersion: scheduling.k8s.io/v1alpha3, kind: CompositePodGroup, metadata: { name: slice-0 }, spec: ${cpgSpec} }
nodes: []
`;
    const sc = parseScenario(text('{ workloadRef: { workloadName: w, templateName: slice }, schedulingPolicy: { gang: { minGroupCount: 2 } } }'), 's.yaml', { gates: on });
    assert.deepEqual(sc.objects.map((o) => o.kind), ['Workload', 'CompositePodGroup']);
    assert.equal((sc.objects[0] as { spec: { compositePodGroupTemplates: unknown[] } }).spec.compositePodGroupTemplates.length, 1);
    assert.throws(() => parseScenario(text('{ workloadRef: { workloadName: w, templateName: slice }, schedulingPolicy: { gang: { minGroupCount: 2, minCount: 1 } } }'), 's.yaml', { gates: on }),
      /objects\[1\] \(CompositePodGroup default\/slice-0\): strict decoding error: unknown field "spec\.schedulingPolicy\.gang\.minCount"$/);
    assert.throws(() => parseScenario(text('{ schedulingPolicy: { basic: {} } }'), 's.yaml', { gates: on }), /spec\.workloadRef: Required value$/);
    // Off: the Workload loses its composite templates and so has none.
    assert.throws(() => parseScenario(text('{ workloadRef: { workloadName: w, templateName: slice }, schedulingPolicy: { basic: {} } }'), 's.yaml', { gates: off }),
      /objects\[0\] \(Workload default\/w\): spec: Invalid value: "": must specify one of: `podGroupTemplates`, `compositePodGroupTemplates`$/);
  });

  it('drops a Workload template\'s gated fields on create and on a step\'s update', () => {
    const text = `objects:
- { apiVersion: scheduling.k8s.io/v1beta1, kind: Workload, metadata: { name: w }, spec: { podGroupTemplates: [{ name: t, schedulingPolicy: { basic: {} }, preemptionPolicy: Never }] } }
nodes: []
steps:
- update:
  - { apiVersion: scheduling.k8s.io/v1beta1, kind: Workload, metadata: { name: w }, spec: { podGroupTemplates: [{ name: t, schedulingPolicy: { basic: {} }, preemptionPolicy: Never }] } }
`;
    const off2 = parseScenario(text, 's.yaml', { gates: off });
    assert.deepEqual((off2.objects[0] as { spec: unknown }).spec, { podGroupTemplates: [{ name: 't', schedulingPolicy: { basic: {} } }] });
    assert.deepEqual((off2.steps[0]!.update[0] as { spec: unknown }).spec, { podGroupTemplates: [{ name: 't', schedulingPolicy: { basic: {} } }] });
    const on = parseScenario(text, 's.yaml', { gates: { ...off, podGroupPreemptionPolicy: true } });
    assert.deepEqual((on.steps[0]!.update[0] as { spec: unknown }).spec, { podGroupTemplates: [{ name: 't', schedulingPolicy: { basic: {} }, preemptionPolicy: 'Never' }] });
  });
});

describe('scenario loading: dynamic resource allocation kinds', () => {
  const classYaml = '- { apiVersion: resource.k8s.io/v1, kind: DeviceClass, metadata: { name: gpu.example.com }, spec: { selectors: [{ cel: { expression: \'device.driver == "gpu.example.com"\' } }] } }\n';
  const sliceYaml = (name: string, node: string) =>
    `- { apiVersion: resource.k8s.io/v1, kind: ResourceSlice, metadata: { name: ${name} }, spec: { driver: gpu.example.com, nodeName: ${node}, pool: { name: ${node}, generation: 1, resourceSliceCount: 1 }, devices: [{ name: gpu-0, attributes: { model: { string: a100 } }, capacity: { memory: { value: 40Gi } } }] } }\n`;
  const templateYaml = '- { apiVersion: resource.k8s.io/v1, kind: ResourceClaimTemplate, metadata: { name: one-gpu }, spec: { spec: { devices: { requests: [{ name: gpu, exactly: { deviceClassName: gpu.example.com } }] } } } }\n';

  it('accepts classes, slices, templates and claims in objects, and pods that use them', () => {
    const sc = parseScenario(`objects:\n${classYaml}${sliceYaml('n1-gpu', 'n1')}${templateYaml}` +
      '- { apiVersion: resource.k8s.io/v1, kind: ResourceClaim, metadata: { name: shared }, spec: { devices: { requests: [{ name: gpu, exactly: { deviceClassName: gpu.example.com, allocationMode: All } }] } } }\n' +
      `nodes:\n${node('n1')}pending:\n${podYaml('p', ', resourceClaims: [{ name: gpu, resourceClaimTemplateName: one-gpu }]')}`, 'x.yaml');
    assert.deepEqual(sc.objects.map((o) => o.kind), ['DeviceClass', 'ResourceSlice', 'ResourceClaimTemplate', 'ResourceClaim']);
    assert.equal(sc.objects[3]!.metadata?.namespace, 'default');
    assert.equal(sc.objects[0]!.metadata?.namespace, undefined);
  });

  it('reads them from a kubectl dump List', () => {
    const sc = parseScenario(`apiVersion: v1\nkind: List\nitems:\n${classYaml}${sliceYaml('s', 'n1')}`, 'dump.yaml');
    assert.deepEqual(sc.objects.map((o) => o.kind), ['DeviceClass', 'ResourceSlice']);
  });

  const table: { name: string; text: string; want: string }[] = [
    {
      name: 'a slice that does not say where its devices are',
      text: 'objects:\n- { kind: ResourceSlice, metadata: { name: s }, spec: { driver: gpu.example.com, pool: { name: p, generation: 1, resourceSliceCount: 1 } } }\n',
      want: 'scenario.yaml: objects[0] (ResourceSlice s): spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required',
    },
    {
      name: 'a claim request without a class',
      text: 'objects:\n- { kind: ResourceClaim, metadata: { name: c }, spec: { devices: { requests: [{ name: gpu, exactly: {} }] } } }\n',
      want: 'scenario.yaml: objects[0] (ResourceClaim default/c): spec.devices.requests[0].exactly.deviceClassName: Required value',
    },
    {
      name: 'a count of the wrong type',
      text: 'objects:\n- { kind: ResourceClaimTemplate, metadata: { name: t }, spec: { spec: { devices: { requests: [{ name: gpu, exactly: { deviceClassName: c, count: two } }] } } } }\n',
      want: 'scenario.yaml: objects[0] (ResourceClaimTemplate default/t): spec.spec.devices.requests[0].exactly.count: Invalid value: "two": must be of type int64',
    },
    {
      name: 'a step that changes a claim\'s spec',
      text: 'objects:\n- { kind: ResourceClaim, metadata: { name: c }, spec: { devices: { requests: [{ name: gpu, exactly: { deviceClassName: a } }] } } }\nsteps:\n- update:\n  - { kind: ResourceClaim, metadata: { name: c }, spec: { devices: { requests: [{ name: gpu, exactly: { deviceClassName: b } }] } } }\n',
      want: 'scenario.yaml: steps[0].update[0] (ResourceClaim default/c): spec: Invalid value: {"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"b","allocationMode":"ExactCount","count":1}}]}}: field is immutable',
    },
  ];
  for (const c of table) it(c.name, () => assert.equal(failure(c.text).message, c.want));
});
