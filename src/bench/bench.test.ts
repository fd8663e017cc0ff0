// Smoke run of the benchmark harness on upstream's tiny workloads (no timing asserted), and the
// metric arithmetic on injected times.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultConfiguration } from '../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../plugins/registry.js';
import { DurationRecorder, ThroughputCollector, percentile, summarizeThroughput } from './metrics.js';
import { parseReport, renderComparison, renderJson, renderTable, thresholdCell } from './report.js';
import { runWorkload, selectWorkloads, skipReason, withOverrides, workloadGates, type BenchReport } from './runner.js';
import { template as templateAt } from './templates.js';
import type { TemplateContext } from './dra_templates.js';
import { upstreamCatalog } from './upstream_catalog.js';
import type { WorkloadParam } from './types.js';
import { skippedTestCases, testCases } from './workloads.js';
import { ownSource } from './own_workloads.js';

describe('bench metrics', () => {
  it('takes percentiles as upstream: element ceil(n*p/100)-1, no interpolation', () => {
    const v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    assert.equal(percentile(v, 50), 5);
    assert.equal(percentile(v, 90), 9);
    assert.equal(percentile(v, 99), 10);
    assert.equal(percentile([], 50), 0);
    assert.deepEqual(summarizeThroughput([30, 10, 20]), { average: 20, p50: 20, p90: 30, p95: 30, p99: 30, samples: 3 });
  });

  it('samples once per second from the first window with a scheduled pod, merging windows without progress', () => {
    const c = new ThroughputCollector(0, 0);
    assert.equal(c.due(999), false);
    assert.equal(c.due(1000), true);
    c.sample(1000, 0); // nothing scheduled yet: sampling has not started
    c.sample(2000, 40); // the first window with progress is discarded, as upstream does
    c.sample(3000, 140);
    c.sample(4000, 140); // nothing scheduled: merged into the next window
    c.sample(5000, 340); // 200 pods over 2 s, recorded once per merged window
    const s = c.finish(5500, 390); // the partial last window is dropped
    assert.deepEqual(s, { average: 100, p50: 100, p90: 100, p95: 100, p99: 100, samples: 3 });
  });

  it('uses the whole op as one sample when it is too short for a full window', () => {
    const c = new ThroughputCollector(0, 5);
    c.sample(1000, 50);
    assert.deepEqual(c.finish(1250, 105), { average: 80, p50: 80, p90: 80, p95: 80, p99: 80, samples: 0 });
  });

  it('records attempt durations past the initial capacity', () => {
    const r = new DurationRecorder();
    for (let i = 2000; i >= 1; i--) r.add(i / 1000);
    assert.deepEqual(r.summary(), { p50: 1, p90: 1.8, p99: 1.98, count: 2000 });
  });
});

describe('bench catalog', () => {
  it('names only templates that exist and counts by parameters the workloads set', () => {
    // Templates filled as a one-object op fills them (some need `.Count`).
    const template = (path: string, ctx: TemplateContext = { index: 0, params: {} }) => templateAt(path, { count: 1, ...ctx });
    for (const tc of testCases) {
      if (tc.defaultPodTemplatePath) template(tc.defaultPodTemplatePath);
      // A parameterized template is filled as the first workload would fill it.
      const w = tc.workloads[0]!;
      const ctx = (op: object) => {
        const params: Record<string, WorkloadParam | undefined> = { ...w.params };
        for (const [k, v] of Object.entries('templateParams' in op ? (op.templateParams as Record<string, unknown> ?? {}) : {})) {
          params[k] = typeof v === 'string' && v.startsWith('$') ? w.params[v.slice(1).split('|')[0]!] : v as WorkloadParam;
        }
        return { index: 0, params };
      };
      for (const op of tc.workloadTemplate) {
        if ('podTemplatePath' in op && op.podTemplatePath) template(op.podTemplatePath, ctx(op));
        if (op.opcode === 'createPodGroups') assert.equal(template(op.templatePath, ctx(op)).kind, 'PodGroup');
        if ('nodeTemplatePath' in op && op.nodeTemplatePath) template(op.nodeTemplatePath);
        if (op.opcode === 'createPods' && op.persistentVolumeTemplatePath) {
          assert.equal(template(op.persistentVolumeTemplatePath).kind, 'PersistentVolume');
          assert.equal(template(op.persistentVolumeClaimTemplatePath!).kind, 'PersistentVolumeClaim');
        }
        if (op.opcode === 'createAny' || op.opcode === 'updateAny') template(op.templatePath);
        if (op.opcode === 'churn') op.templatePaths.forEach((p) => template(p));
        if ('countParam' in op && op.countParam) {
          for (const w of tc.workloads) assert.ok(op.countParam.slice(1) in w.params, `${tc.name}/${w.name} lacks ${op.countParam}`);
        }
      }
    }
  });

  it("runs or names with a reason every test case of upstream's scheduler_perf, with upstream's workloads", () => {
    const ours = new Map(testCases.map((tc) => [tc.name, tc]));
    const skipped = new Map(skippedTestCases.map((s) => [s.name, s.reason]));
    for (const name of skipped.keys()) assert.ok(!ours.has(name), `${name} is both run and skipped`);
    assert.equal(ours.size + skipped.size, testCases.length + skippedTestCases.length, 'a test case listed twice');
    for (const up of upstreamCatalog) {
      const tc = ours.get(up.name);
      if (!tc) {
        assert.ok(skipped.get(up.name), `${up.name} (${up.source}) is neither run nor skipped with a reason`);
        continue;
      }
      assert.equal(tc.source, up.source, up.name);
      assert.deepEqual(tc.workloads.map((w) => w.name), up.workloads.map((w) => w.name), up.name);
    }
    const upstreamNames = new Set(upstreamCatalog.map((c) => c.name));
    for (const name of [...ours.keys(), ...skipped.keys()]) {
      if (ours.get(name)?.source === ownSource) continue;
      assert.ok(upstreamNames.has(name), `${name} is not an upstream test case`);
    }
    assert.equal(upstreamCatalog.length, 61);
  });

  it("carries v1.37.2's thresholds (the affinity ones were an older release's)", () => {
    const threshold = (name: string) => selectWorkloads({ filter: `^${name}$`, label: 'all' })[0]?.workload.threshold;
    assert.equal(threshold('SchedulingPodAntiAffinity/5000Nodes_2000Pods'), 180);
    assert.equal(threshold('SchedulingPodAffinity/5000Nodes_5000Pods'), 70);
    assert.equal(threshold('SchedulingPreferredPodAffinity/5000Nodes_5000Pods'), 160);
    assert.equal(threshold('SchedulingPreferredPodAntiAffinity/5000Nodes_5000Pods'), 190);
    assert.equal(threshold('SchedulingNodeAffinity/5000Nodes_10000Pods'), 540);
    assert.equal(threshold('MixedSchedulingBasePod/5000Nodes_5000Pods'), 540);
    // A per-topic threshold applies under the case's topic.
    assert.equal(threshold('SchedulingWithResourceClaimTemplate/5000pods_500nodes'), 56);
  });

  it("runs a workload with upstream's feature gates, and skips one whose gates we cannot honour", () => {
    const [basic, asyncCalls] = selectWorkloads({ filter: '^SchedulingBasic/5Nodes', label: 'all' });
    assert.equal(workloadGates(basic!.testCase, basic!.workload, undefined).toString(), '');
    // SchedulerAsyncAPICalls changes when status writes reach the API server, not decisions: taken.
    const asyncGates = workloadGates(asyncCalls!.testCase, asyncCalls!.workload, undefined);
    assert.ok(typeof asyncGates !== 'string' && asyncGates.enabled('SchedulerAsyncAPICalls'));
    const alpha = { ...basic!.workload, featureGates: { TaintTolerationComparisonOperators: true } };
    assert.match(workloadGates(basic!.testCase, alpha, undefined) as string, /^upstream runs it with TaintTolerationComparisonOperators=true: feature gate TaintTolerationComparisonOperators=true is not supported/);
    const [ext] = selectWorkloads({ filter: '^SchedulingWithExtendedResource/fast', label: 'all' });
    const gates = workloadGates(ext!.testCase, ext!.workload, undefined);
    assert.ok(typeof gates !== 'string' && gates.enabled('DRAExtendedResource') && gates.enabled('DynamicResourceAllocation'));
  });

  it('lists the workloads of issue 6 in the default set', () => {
    const names = new Set(selectWorkloads({}).map((s) => s.testCase.name));
    for (const n of ['SchedulingBasic', 'SchedulingPodAntiAffinity', 'SchedulingPodAffinity', 'SchedulingPreferredPodAffinity',
      'SchedulingPreferredPodAntiAffinity', 'SchedulingNodeAffinity', 'TopologySpreading', 'PreferredTopologySpreading',
      'DefaultTopologySpreading', 'MixedSchedulingBasePod', 'Unschedulable', 'PreemptionBasic', 'SchedulingWithMixedChurn',
      'SchedulingWhileGated']) assert.ok(names.has(n), n);
    assert.deepEqual(selectWorkloads({ filter: '^SchedulingBasic/5000Nodes$' }).map((s) => s.fullName), ['SchedulingBasic/5000Nodes']);
  });

  it("shows upstream's threshold, or the test case's for scale", () => {
    assert.equal(thresholdCell('SchedulingBasic/5000Nodes_10000Pods'), '680');
    assert.equal(thresholdCell('SchedulingBasic/5000Nodes'), '(680)');
    assert.equal(thresholdCell('Unschedulable/5kNodes/100Init/1kPods'), '(590)');
    assert.equal(thresholdCell('PreemptionBasic/1000Nodes'), '');
    assert.equal(thresholdCell('NoSuchCase/1Node'), '');
  });

  it('applies size overrides only to the parameters a workload has', () => {
    const gated = testCases.find((t) => t.name === 'SchedulingWhileGated')!.workloads[0]!;
    assert.deepEqual(withOverrides(gated, { nodes: 3, initPods: 2, measurePods: 7 }).params, { gatedPods: 10, deletingPods: 10, measurePods: 7 });
    assert.equal(withOverrides({ name: 'dra', params: { nodesWithDRA: 500, nodesWithoutDRA: 0 } }, { nodes: 5000 }).params.nodesWithDRA, 5000);
    assert.equal(withOverrides({ name: 'ndf', params: { nodes: 5000, numNodeDeclaredFeatures: 20 } }, { nodes: 500 }).params.nodes, 500);
    const preemption = testCases.find((t) => t.name === 'PreemptionBasic')!;
    assert.equal(skipReason(preemption, new Set(['DefaultPreemption'])), 'needs DefaultPreemption (not built yet)');
    assert.equal(skipReason(preemption, new Set()), null);
  });
});

/**
 * What the metrics window of upstream's tiny event-handling workloads counts: the pods of its
 * namespaces with its labels bound while it is open (PodDelete: 4 x 20 measured + 2 x 15 blocked
 * pods labelled unsched, its blockers not; PodUpdate: 6 x 10, the blockers unlabelled; the node
 * cases: 6 x 20 unlabelled pods, no selector; PodAdd: 2 x 10, not the unblockers; Starvation
 * (either): the 50 victims, not the cloggers made before the window).
 */
const windowPods: Readonly<Record<string, number>> = {
  'EventHandlingPodDelete/2Nodes_20Pods': 110,
  'EventHandlingPodUpdate/1Node_10Pods': 60,
  'EventHandlingNodeAdd/2Nodes_20Pods': 120,
  'EventHandlingPodAdd/10Pods': 20,
  'EventHandlingNodeUpdate/2Nodes_20Pods': 120,
  'StarvationIndependent/10Nodes_100Cloggers': 50,
  'StarvationPodGroup/10Nodes_100Cloggers_Podgroup': 50,
};

describe('bench smoke run', () => {
  const registry = inTreeRegistry();
  const opts = { registry, config: defaultConfiguration(registry), notYetAvailable: notYetAvailablePlugins, opTimeoutMs: 60_000 };

  // Upstream's pull-request job: integration-test and short (a few integration-test workloads are performance-sized).
  for (const sw of selectWorkloads({ label: 'integration-test' }).filter((s) => s.workload.labels?.includes('short'))) {
    it(`runs ${sw.fullName}`, async () => {
      const r = await runWorkload(sw, {}, opts);
      const gates = workloadGates(sw.testCase, sw.workload, undefined);
      const want = skipReason(sw.testCase, notYetAvailablePlugins) ?? (typeof gates === 'string' ? gates : null);
      if (want !== null) {
        assert.equal(r.skipped, want);
        return;
      }
      assert.equal(r.skipped, undefined);
      const measured = sw.testCase.workloadTemplate.find((op) => op.opcode === 'createPods' && op.collectMetrics);
      if (measured?.opcode === 'createPods') {
        const param = (name: string | undefined) => (name === undefined ? 1 : sw.workload.params[name.slice(1)] as number);
        assert.equal(r.measuredPods, (measured.countParam ? param(measured.countParam) : measured.count!) * param(measured.countMultiplierParam));
      } else assert.equal(r.measuredPods, windowPods[sw.fullName], 'the pods a metrics window counts');
      assert.ok(r.nodes >= 1);
      assert.ok(r.throughput.average > 0);
      assert.ok(r.attempts >= r.measuredPods);
      assert.ok(r.attemptSeconds.p50 <= r.attemptSeconds.p90 && r.attemptSeconds.p90 <= r.attemptSeconds.p99);
      assert.ok(r.peakRssBytes > 0);
    });
  }

  it('gives up on a workload that cannot make progress instead of hanging', async () => {
    const [sw] = selectWorkloads({ filter: '^SchedulingBasic/5Nodes$', label: 'integration-test' });
    // Without nodes the initial pods are retried after backoff until the op times out.
    await assert.rejects(runWorkload(sw!, { nodes: 0 }, { ...opts, opTimeoutMs: 50 }), /timed out after \d+s waiting for 5 pods in namespace namespace-1/);
  });

  it('round-trips the JSON report and compares runs', async () => {
    const [sw] = selectWorkloads({ filter: '^SchedulingBasic/5Nodes$', label: 'integration-test' });
    const r = await runWorkload(sw!, {}, opts);
    const report: BenchReport = { workloads: [r] };
    const back = parseReport(renderJson(report), 'x.json');
    assert.deepEqual(Object.keys(back.workloads[0]!.throughput), ['average', 'p50', 'p90', 'p95', 'p99']);
    assert.deepEqual(Object.keys(back.workloads[0]!.attemptSeconds), ['p50', 'p90', 'p99']);
    assert.match(renderTable(report), /SchedulingBasic\/5Nodes/);
    const doubled: BenchReport = { workloads: [{ ...r, throughput: { ...r.throughput, average: r.throughput.average * 2 } }] };
    assert.match(renderComparison(doubled, report), /SchedulingBasic\/5Nodes\s+\d+\s+\d+\s+2\.00/);
    assert.throws(() => parseReport('{"workloads": [{}]}', 'bad.json'), /bad\.json: workloads\[0\]/);
  });
});
