// The DRA parts of the benchmark: upstream's parameterized templates, template parameters with
// defaults, steady-state pod creation, and the allocResourceClaims op.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceClaimTemplate, ResourceSlice } from '../api/dra_types.js';
import type { Pod } from '../api/types.js';
import { defaultConfiguration } from '../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../plugins/registry.js';
import { runWorkload, selectWorkloads, type SelectedWorkload } from './runner.js';
import { template } from './templates.js';
import type { TestCase } from './types.js';
import { testCases } from './workloads.js';
import { renderTable } from './report.js';
import { draTestCases } from './dra_workloads.js';

describe('DRA bench templates', () => {
  it('name nodes and slices by index, with the devices and PCI roots asked for', () => {
    assert.equal(template('dra/node-with-dra-test-driver.yaml', { index: 7, params: {} }).metadata?.name, 'scheduler-perf-dra-7');
    const slice = template('dra/resourceslice-basic-devices.yaml', { index: 3, params: { numDevices: 4, numPCIRoots: 2 } }) as ResourceSlice;
    assert.equal(slice.spec.nodeName, 'scheduler-perf-dra-3');
    assert.deepEqual(slice.spec.pool, { name: 'resourceslice-3', generation: 1, resourceSliceCount: 1 });
    assert.deepEqual(slice.spec.devices?.map((d) => d.attributes?.['resource.kubernetes.io/pciRoot']?.string), ['pci0000:00', 'pci0000:01', 'pci0000:00', 'pci0000:01']);
    assert.equal((template('dra/resourceslice-basic-devices.yaml') as ResourceSlice).spec.devices?.length, 10, 'ten devices unless told');
  });

  it('fill a claim template with its requests, selectors and constraints, and share each named claim among five pods', () => {
    const constraints = [{ matchAttribute: 'resource.kubernetes.io/pciRoot' }];
    const t = template('dra/resourceclaimtemplate.yaml', { index: 0, params: { numRequests: 2, constraints } }) as ResourceClaimTemplate;
    assert.deepEqual(t.spec.spec.devices, { constraints, requests: [{ name: 'req-0', exactly: { deviceClassName: 'test-class' } }, { name: 'req-1', exactly: { deviceClassName: 'test-class' } }] });
    const pod = (i: number) => (template('dra/pod-with-claim-ref.yaml', { index: i, params: {} }) as Pod).spec.resourceClaims?.[0]?.resourceClaimName;
    assert.deepEqual([0, 4, 5, 9, 10].map(pod), ['test-claim-0', 'test-claim-0', 'test-claim-1', 'test-claim-1', 'test-claim-2']);
  });
});

describe('DRA bench ops', () => {
  const registry = inTreeRegistry();
  const opts = { registry, config: defaultConfiguration(registry), notYetAvailable: notYetAvailablePlugins, opTimeoutMs: 30_000 };
  const run = (tc: TestCase) => runWorkload({ testCase: tc, workload: tc.workloads[0]!, fullName: `${tc.name}/${tc.workloads[0]!.name}` } satisfies SelectedWorkload, {}, opts);

  // Real time (the bench runner has no injected clock yet): 2 s leaves a loaded machine room to bind and replace a pod.
  it('keeps a steady state: bound pods are replaced, so more pods are measured than were created at first', async () => {
    const r = await run({
      name: 'Steady',
      source: 'test',
      workloadTemplate: [
        { opcode: 'createNodes', countParam: '$initNodes' },
        { opcode: 'createPods', countParam: '$measurePods', steadyStateParam: '$steadyState', durationParam: '$duration', collectMetrics: true },
      ],
      workloads: [{ name: 'w', params: { initNodes: 2, measurePods: 3, steadyState: true, duration: '2s' } }],
    });
    assert.ok(r.measuredPods > 3, `measured ${r.measuredPods} pods`);
    assert.ok(r.measuredSeconds >= 2);
  });

  it('resolves template parameters with their defaults, and allocates no claims where there are none', async () => {
    const r = await run({
      name: 'Defaults',
      source: 'test',
      workloadTemplate: [
        { opcode: 'createNodes', nodeTemplatePath: 'dra/node-with-dra-test-driver.yaml', countParam: '$nodesWithDRA' },
        { opcode: 'createAny', templatePath: 'dra/resourceslice-basic-devices.yaml', countParam: '$nodesWithDRA', templateParams: { numPCIRoots: '$numPCIRoots|2', numDevices: 10 } },
        { opcode: 'allocResourceClaims', namespace: 'init' },
        { opcode: 'createPods', countParam: '$measurePods', collectMetrics: true },
      ],
      workloads: [{ name: 'w', params: { nodesWithDRA: 2, measurePods: 2 } }],
    });
    assert.equal(r.nodes, 2);
    assert.equal(r.measuredPods, 2);
  });

  it('allocates claims outside the scheduler, each device once, and says so when one does not fit', async () => {
    const fill = (claims: number): TestCase => ({
      name: 'Alloc',
      source: 'test',
      workloadTemplate: [
        { opcode: 'createNodes', nodeTemplatePath: 'dra/node-with-dra-test-driver.yaml', count: 2 },
        { opcode: 'createAny', templatePath: 'dra/resourceslice-basic-devices.yaml', count: 2, templateParams: { numDevices: 2 } },
        { opcode: 'createAny', templatePath: 'dra/deviceclass.yaml' },
        { opcode: 'createAny', templatePath: 'dra/resourceclaim.yaml', count: claims, namespace: 'init' },
        { opcode: 'allocResourceClaims', namespace: 'init' },
      ],
      workloads: [{ name: 'w', params: {} }],
    });
    assert.equal((await run(fill(4))).nodes, 2, 'four claims fit the four devices');
    await assert.rejects(run(fill(5)), /allocResourceClaims: could not allocate claim 4 of 5 in init/);
  });

  it('measures a window without pods (PublishResourceSlices): the slices arrive inside it, no pod is counted', async () => {
    const tc = testCases.find((c) => c.name === 'PublishResourceSlices')!;
    const r = await runWorkload({ testCase: tc, workload: { name: 'tiny', params: { nodesWithDRA: 3, nodesWithoutDRA: 1 } }, fullName: 'PublishResourceSlices/tiny' }, {}, opts);
    assert.equal(r.skipped, undefined);
    assert.equal(r.nodes, 4);
    assert.equal(r.measuredPods, 0);
    assert.ok(r.measuredCpuSeconds > 0);
    assert.match(renderTable({ workloads: [r] }), /no pod in the window: the scheduler took its ops' objects in within/);
  });

  it('runs the list-attribute case with DRAListTypeAttributes: each claim gets 32 devices sharing a listed value', async () => {
    const tc = testCases.find((c) => c.name === 'SchedulingWithResourceClaimTemplateListAttributes')!;
    const fast = tc.workloads.find((w) => w.name === 'fast')!;
    const r = await runWorkload({ testCase: tc, workload: { ...fast, params: { ...fast.params, nodesWithDRA: 2, measurePods: 2 } }, fullName: 'ListAttributes/fast' }, {}, opts);
    assert.equal(r.skipped, undefined);
    // 64 devices per node, of which only the last 32 share a value: one claim per node.
    assert.equal(r.measuredPods, 2);
    const slice = template('dra/resourceslice-list-attributes-devices.yaml', { index: 0, params: { numDevices: 3, numNonMatchingDevices: 2, numListValues: 2 } }) as ResourceSlice;
    assert.deepEqual(slice.spec.devices?.map((d) => d.attributes?.['dra.example.com/match']?.strings), [
      ['device-0-value-0', 'device-0-value-1'], ['device-1-value-0', 'device-1-value-1'], ['shared-value', 'device-2-value-0', 'device-2-value-1'],
    ]);
  });

  it('runs CompatibilityGroups with DRADeviceCompatibilityGroups: pre-allocated and measured claims take both "mig" partitions', async () => {
    const tc = testCases.find((c) => c.name === 'CompatibilityGroups')!;
    const r = await runWorkload({ testCase: tc, workload: { name: 'tiny', params: { nodesWithDRA: 3, nodesWithoutDRA: 0, initClaims: 1, measurePods: 2, steadyState: false, duration: '0s' } }, fullName: 'CompatibilityGroups/tiny' }, {}, opts);
    assert.equal(r.skipped, undefined);
    assert.equal(r.measuredPods, 2);
  });

  // The whole chain with DRAWorkloadResourceClaims: the controller makes each group's claim from
  // its template (or the group names one), members resolve to it, the group cycle shares the
  // pending allocation, PreBind reserves it for the group; the op ends only once all are bound.
  for (const name of ['SharedPodGroupResourceClaim', 'SharedPodGroupResourceClaimTemplate']) {
    it(`schedules ${name}/fast: ten groups, each sharing one device`, async () => {
      const tc = draTestCases.find((t) => t.name === name)!;
      const r = await runWorkload({ testCase: tc, workload: tc.workloads.find((w) => w.name === 'fast')!, fullName: `${name}/fast` }, {}, opts);
      assert.equal(r.measuredPods, 10);
    });
  }

  it("lists upstream's DRA workloads with their thresholds, none skipped", () => {
    const dra = selectWorkloads({ filter: 'ResourceClaim', label: 'all' });
    // 21, and the six of SharedPodGroupResourceClaim(Template) (DRAWorkloadResourceClaims).
    assert.equal(dra.length, 27);
    assert.equal(dra.find((w) => w.fullName === 'SchedulingWithResourceClaimTemplate/5000pods_500nodes')?.workload.threshold, 56);
    assert.equal(dra.find((w) => w.fullName === 'SchedulingWithResourceClaimTemplate/full_500nodes')?.workload.threshold, 60);
    assert.ok(dra.every((w) => w.testCase.skip === undefined));
  });
});
