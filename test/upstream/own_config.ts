// Our own test cases (src/bench/own_workloads.ts) written as an upstream scheduler_perf
// performance-config.yaml, so that bench:upstream runs them on the pinned release's scheduler_perf
// too: the misc topic's test binary, or the dra topic's for a test case built from its templates,
// run in the folder written here (scheduler_perf reads the config and the templates relative to
// its working directory, as in test/integration/scheduler_perf/<topic>).
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { template } from '../../src/bench/templates.js';
import type { TestCase } from '../../src/bench/types.js';

/** Upstream's topics whose templates a test case of ours may use, by our template keys' prefix. */
const topicTemplates = ['dra'] as const;
type Topic = 'misc' | (typeof topicTemplates)[number];

/** Where a template key of ours lives for upstream, and the topic whose templates it needs (if any). */
function upstreamPath(key: string, ownTemplates: Set<string>): { path: string; topic?: Topic } | null {
  if (key.startsWith('ours/')) {
    ownTemplates.add(key);
    return { path: key };
  }
  const slash = key.indexOf('/');
  if (slash < 0) return { path: `../templates/${key}` };
  const topic = topicTemplates.find((t) => t === key.slice(0, slash));
  return topic === undefined ? null : { path: `templates/${key.slice(slash + 1)}`, topic };
}

const templateField = { createNodes: 'nodeTemplatePath', createPods: 'podTemplatePath', createAny: 'templatePath' } as const;

/**
 * A test case of ours as upstream's config: written under `root` (root/case/performance-config.yaml,
 * our templates in root/case/ours/, root/templates linked to upstream's shared templates and
 * root/case/templates to the topic's), with the topic whose test binary runs it; or why it cannot run there.
 * `schedulerPerf`: upstream's test/integration/scheduler_perf folder.
 */
export function writeOwnConfig(testCase: TestCase, root: string, schedulerPerf: string): { dir: string; topic: Topic } | { error: string } {
  const ownTemplates = new Set<string>();
  const ops: Record<string, unknown>[] = [];
  let topic: Topic = 'misc';
  for (const op of testCase.workloadTemplate) {
    if (!(op.opcode in templateField)) return { error: `${testCase.name}: op ${op.opcode} is not written for upstream yet` };
    const field = templateField[op.opcode as keyof typeof templateField];
    const key = (op as unknown as Record<string, string | undefined>)[field] ?? (op.opcode === 'createNodes' ? 'node-default.yaml' : undefined);
    if (key === undefined) {
      ops.push({ ...op });
      continue;
    }
    const where = upstreamPath(key, ownTemplates);
    if (where === null) return { error: `${testCase.name}: template ${key} is neither ours nor upstream's` };
    if (where.topic !== undefined) {
      if (topic !== 'misc' && topic !== where.topic) return { error: `${testCase.name}: templates of two topics` };
      topic = where.topic;
    }
    ops.push({ ...op, [field]: where.path });
  }
  const dir = join(root, 'case');
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(schedulerPerf, 'templates'), join(root, 'templates'));
  if (topic !== 'misc') symlinkSync(join(schedulerPerf, topic, 'templates'), join(dir, 'templates'));
  // JSON is YAML: a template of ours is written as the object it builds.
  for (const key of ownTemplates) {
    mkdirSync(dirname(join(dir, key)), { recursive: true });
    writeFileSync(join(dir, key), JSON.stringify(template(key)));
  }
  const workloads = testCase.workloads.map((w) => ({ name: w.name, labels: w.labels, params: w.params, ...(w.featureGates ? { featureGates: w.featureGates } : {}) }));
  // scheduler_perf starts the ResourceClaim controller (claims from templates) and serves the
  // resource.k8s.io versions only for a test case that names the gate (util.go mustSetupCluster),
  // as every one of upstream's DRA test cases does.
  const featureGates = topic === 'dra' ? { DynamicResourceAllocation: true } : undefined;
  writeFileSync(join(dir, 'performance-config.yaml'), stringify([{ name: testCase.name, ...(featureGates ? { featureGates } : {}), workloadTemplate: ops, workloads }]));
  return { dir, topic };
}
