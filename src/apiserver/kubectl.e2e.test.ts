// kubectl against `simulate --serve`: apply a pod, see it bound in `kubectl get pods -o wide`,
// delete it. Skipped when kubectl is not on PATH (.ci/run installs Debian's kubernetes-client).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Pod } from '../api/types.js';
import { startTestServer, type TestServer } from './test_helpers.js';
import { FeatureGates } from '../config/feature_gates.js';

function kubectlOnPath(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const p = join(dir, 'kubectl');
    if (dir && existsSync(p)) return p;
  }
  return undefined;
}

const kubectl = kubectlOnPath();

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve) => {
    execFile(kubectl!, args, { env, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ stdout, stderr, code: err ? ((err as { code?: number }).code ?? 1) : 0 });
    });
  });
}

const podYaml = `apiVersion: v1
kind: Pod
metadata:
  name: hello
  labels:
    app: hello
spec:
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
    resources:
      requests:
        cpu: 100m
        memory: 64Mi
`;

/** A temporary HOME with a kubeconfig for the server at `url`, and kubectl's environment over it. */
function kubectlHome(url: string): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'kst-kubectl-'));
  writeFileSync(join(dir, 'kubeconfig'), `apiVersion: v1
kind: Config
clusters:
- name: embedded
  cluster:
    server: ${url}
contexts:
- name: embedded
  context:
    cluster: embedded
    user: embedded
    namespace: default
users:
- name: embedded
  user: {}
current-context: embedded
`);
  return { dir, env: { ...process.env, KUBECONFIG: join(dir, 'kubeconfig'), HOME: dir, KUBECACHEDIR: join(dir, 'cache') } };
}

describe('kubectl against simulate --serve', { skip: kubectl ? false : 'kubectl is not on PATH (apt-get install kubernetes-client)', timeout: 60_000 }, () => {
  let s: TestServer;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    s = await startTestServer();
    ({ dir, env } = kubectlHome(s.url));
    writeFileSync(join(dir, 'pod.yaml'), podYaml);
  });
  after(async () => {
    await s?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('applies a pod, shows it bound with -o wide, and deletes it', async () => {
    const nodes = await run(['get', 'nodes'], env);
    assert.equal(nodes.code, 0, nodes.stderr);
    assert.match(nodes.stdout, /^node-a\s+Ready\s/m);

    const bound = new Promise<string>((resolve) => {
      const stop = s.serving.cluster.subscribe((e) => {
        const pod = e.event.object as Pod;
        if (e.event.kind === 'Pod' && pod.metadata.name === 'hello' && pod.spec.nodeName) {
          stop();
          resolve(pod.spec.nodeName);
        }
      });
    });
    const apply = await run(['apply', '-f', join(dir, 'pod.yaml')], env);
    assert.equal(apply.code, 0, apply.stderr);
    assert.match(apply.stdout, /pod\/hello created/);
    const node = await bound;

    // The kubelet stand-in runs the bound pod just after its binding.
    let get = await run(['get', 'pods', '-o', 'wide'], env);
    for (let i = 0; i < 50 && !/^hello .*Running/m.test(get.stdout); i++) get = await run(['get', 'pods', '-o', 'wide'], env);
    assert.equal(get.code, 0, get.stderr);
    const header = get.stdout.split('\n')[0]!;
    assert.match(header, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES/);
    const row = get.stdout.split('\n').find((l) => l.startsWith('hello '));
    assert.ok(row, get.stdout);
    assert.match(row, new RegExp(`^hello\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+10\\.244\\.\\d+\\.\\d+\\s+${node}\\s+<none>\\s+<none>`));

    const reapply = await run(['apply', '-f', join(dir, 'pod.yaml')], env);
    assert.equal(reapply.code, 0, reapply.stderr);
    assert.match(reapply.stdout, /pod\/hello unchanged/);

    const del = await run(['delete', '-f', join(dir, 'pod.yaml')], env);
    assert.equal(del.code, 0, del.stderr);
    assert.match(del.stdout, /pod "hello" deleted/);
    assert.equal(s.serving.cluster.getPod('default', 'hello'), undefined);
  });

  it('applies DRA objects and shows the claim the controller made for a pod, as upstream prints it', async () => {
    writeFileSync(join(dir, 'dra.yaml'), `apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu.example.com
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: one-gpu
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
---
apiVersion: v1
kind: Pod
metadata:
  name: trainer
spec:
  resourceClaims:
  - name: gpu
    resourceClaimTemplateName: one-gpu
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
`);
    const apply = await run(['apply', '-f', join(dir, 'dra.yaml')], env);
    assert.equal(apply.code, 0, apply.stderr);
    assert.match(apply.stdout, /deviceclass.resource.k8s.io\/gpu.example.com created/);
    assert.match(apply.stdout, /resourceclaimtemplate.resource.k8s.io\/one-gpu created/);
    let claims = { stdout: '', stderr: '', code: 1 };
    for (let i = 0; i < 50 && !/trainer-gpu-/.test(claims.stdout); i++) {
      claims = await run(['get', 'resourceclaims'], env);
    }
    assert.equal(claims.code, 0, claims.stderr);
    assert.match(claims.stdout, /^NAME\s+STATE\s+AGE/);
    assert.match(claims.stdout, /^trainer-gpu-[a-z0-9]{5}\s+pending\s/m);
    const classes = await run(['get', 'deviceclasses'], env);
    assert.match(classes.stdout, /^gpu.example.com\s/m);
  });
  it('shows the built-in PriorityClasses, node leases, and tells unscheduled pods apart with a phase field selector', async () => {
    const classes = await run(['get', 'priorityclasses'], env);
    assert.equal(classes.code, 0, classes.stderr);
    assert.match(classes.stdout, /^system-cluster-critical\s+2000000000\s+false\s/m);
    assert.match(classes.stdout, /^system-node-critical\s+2000001000\s+false\s/m);
    const leases = await run(['get', 'leases', '-n', 'kube-node-lease'], env);
    assert.equal(leases.code, 0, leases.stderr);
    assert.match(leases.stdout, /^node-a\s+node-a\s/m);
    writeFileSync(join(dir, 'two.yaml'), `${podYaml.replace(/hello/g, 'small')}---\n${podYaml.replace(/hello/g, 'huge').replace('cpu: 100m', 'cpu: "1000"')}`);
    const apply = await run(['apply', '-f', join(dir, 'two.yaml')], env);
    assert.equal(apply.code, 0, apply.stderr);
    let running = await run(['get', 'pods', '--field-selector', 'status.phase=Running', '-o', 'name'], env);
    for (let i = 0; i < 50 && !running.stdout.includes('pod/small'); i++) running = await run(['get', 'pods', '--field-selector', 'status.phase=Running', '-o', 'name'], env);
    assert.match(running.stdout, /^pod\/small$/m);
    assert.doesNotMatch(running.stdout, /pod\/huge/);
    const pending = await run(['get', 'pods', '--field-selector', 'status.phase=Pending', '-o', 'name'], env);
    assert.equal(pending.code, 0, pending.stderr);
    assert.match(pending.stdout, /^pod\/huge$/m);
    assert.doesNotMatch(pending.stdout, /pod\/small/);
  });

  it('refuses a misspelt nested field under kubectl\'s default strict validation, warns under --validate=warn, and says nothing under --validate=false', async () => {
    const typo = (name: string) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
    resources:
      reqests:
        cpu: "64"
`;
    writeFileSync(join(dir, 'typo.yaml'), typo('typo'));
    const strict = await run(['apply', '-f', join(dir, 'typo.yaml')], env);
    assert.equal(strict.code, 1, strict.stdout);
    assert.match(strict.stderr, /Error from server \(BadRequest\): error when creating ".*typo\.yaml": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec\.containers\[0\]\.resources\.reqests"/);
    assert.equal(s.serving.cluster.getPod('default', 'typo'), undefined);

    const warn = await run(['apply', '--validate=warn', '-f', join(dir, 'typo.yaml')], env);
    assert.equal(warn.code, 0, warn.stderr);
    assert.match(warn.stderr, /Warning: unknown field "spec\.containers\[0\]\.resources\.reqests"/);

    writeFileSync(join(dir, 'typo2.yaml'), typo('typo2'));
    const ignore = await run(['apply', '--validate=false', '-f', join(dir, 'typo2.yaml')], env);
    assert.equal(ignore.code, 0, ignore.stderr);
    assert.doesNotMatch(ignore.stderr, /unknown field/);
  });
});

const crdFile = fileURLToPath(new URL('../../deploy/charts/kube-scheduler-ts/crds/scheduling.x-k8s.io_podgroups.yaml', import.meta.url));

const podGroupsYaml = `apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata:
  name: train
spec:
  podGroupTemplates:
  - name: workers
    schedulingPolicy:
      gang:
        minCount: 2
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata:
  name: train-workers
spec:
  workloadRef:
    workloadName: train
    templateName: workers
  schedulingPolicy:
    gang:
      minCount: 2
---
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: PodGroup
metadata:
  name: gang
spec:
  minMember: 3
`;

describe('kubectl and the pod-group kinds (GenericWorkload on)', { skip: kubectl ? false : 'kubectl is not on PATH (apt-get install kubernetes-client)', timeout: 60_000 }, () => {
  let s: TestServer;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    s = await startTestServer({ featureGates: FeatureGates.parse(['GenericWorkload=true']) });
    ({ dir, env } = kubectlHome(s.url));
    writeFileSync(join(dir, 'groups.yaml'), podGroupsYaml);
  });
  after(async () => {
    await s?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('applies, gets, describes and deletes Workloads and both PodGroups, each under its own group', async () => {
    // scheduler-plugins' PodGroup is served once its CRD is applied, as on a real cluster.
    const crd = await run(['apply', '-f', crdFile], env);
    assert.equal(crd.code, 0, crd.stderr);
    assert.match(crd.stdout, /customresourcedefinition\.apiextensions\.k8s\.io\/podgroups\.scheduling\.x-k8s\.io created/);
    const crds = await run(['get', 'crd'], env);
    assert.equal(crds.code, 0, crds.stderr);
    assert.match(crds.stdout, /podgroups\.scheduling\.x-k8s\.io/);
    const applied = await run(['apply', '-f', join(dir, 'groups.yaml')], env);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /workload\.scheduling\.k8s\.io\/train created/);
    assert.match(applied.stdout, /podgroup\.scheduling\.k8s\.io\/train-workers created/);
    assert.match(applied.stdout, /podgroup\.scheduling\.x-k8s\.io\/gang created/);
    const builtIn = await run(['get', 'podgroups.scheduling.k8s.io'], env);
    assert.equal(builtIn.code, 0, builtIn.stderr);
    assert.match(builtIn.stdout, /^NAME\s+POLICY\s+WORKLOAD\s+STATUS\s+AGE\ntrain-workers\s+Gang\s+train\s+Pending\s+/);
    const gangs = await run(['get', 'pg.scheduling.x-k8s.io'], env);
    assert.equal(gangs.code, 0, gangs.stderr);
    assert.match(gangs.stdout, /^NAME\s+PHASE\s+MINMEMBER\s+RUNNING\s+SUCCEEDED\s+FAILED\s+AGE\ngang\s+Pending\s+3\s+/);
    const described = await run(['describe', 'workload', 'train'], env);
    assert.equal(described.code, 0, described.stderr);
    assert.match(described.stdout, /Min Count:\s+2/);
    const deleted = await run(['delete', '-f', join(dir, 'groups.yaml')], env);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(s.serving.cluster.list('PodGroup').length + s.serving.cluster.list('PodGroup.scheduling.x-k8s.io').length + s.serving.cluster.list('Workload').length, 0);
    assert.equal((await run(['delete', '-f', crdFile], env)).code, 0);
    const gone = await run(['get', 'pg.scheduling.x-k8s.io'], env);
    assert.notEqual(gone.code, 0);
    assert.match(gone.stderr, /the server doesn't have a resource type "pg"/);
  });
});
