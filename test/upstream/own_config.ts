// Our own test cases (src/bench/own_workloads.ts) written as an upstream scheduler_perf
// performance-config.yaml, so that bench:upstream runs them on the pinned release's scheduler_perf
// too (its misc topic's test binary, in the folder written here: it reads the config and the
// templates relative to its working directory, as in test/integration/scheduler_perf/misc).
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { template } from '../../src/bench/templates.js';
import type { Op, TestCase } from '../../src/bench/types.js';

/** Where a template key of ours lives for upstream: its common templates, or a file written beside the config. */
function upstreamPath(key: string, ownTemplates: Map<string, string>): string | null {
  if (key.startsWith('ours/')) {
    const file = `templates/${key.slice('ours/'.length)}`;
    ownTemplates.set(file, key);
    return file;
  }
  // Only upstream's shared templates (test/integration/scheduler_perf/templates); a topic's own
  // (dra/...) would need that topic's binary and its feature gates.
  return key.includes('/') ? null : `../templates/${key}`;
}

/** An op as upstream's YAML spells it, or a reason it cannot be. */
function upstreamOp(op: Op, ownTemplates: Map<string, string>): Record<string, unknown> | string {
  switch (op.opcode) {
    case 'createNodes': {
      const path = upstreamPath(op.nodeTemplatePath ?? 'node-default.yaml', ownTemplates);
      if (path === null) return `node template ${op.nodeTemplatePath} is not one of upstream's shared templates`;
      return { ...op, nodeTemplatePath: path };
    }
    case 'createPods': {
      if (op.podTemplatePath === undefined) return { ...op };
      const path = upstreamPath(op.podTemplatePath, ownTemplates);
      if (path === null) return `pod template ${op.podTemplatePath} is not one of upstream's shared templates`;
      return { ...op, podTemplatePath: path };
    }
    default:
      return `op ${op.opcode} is not written for upstream yet`;
  }
}

/**
 * Writes `testCase` under `root` (root/ours/performance-config.yaml, its templates, and root/templates
 * pointing at upstream's `sharedTemplates`); the folder to run the test binary in, or why it cannot run there.
 */
export function writeOwnConfig(testCase: TestCase, root: string, sharedTemplates: string): { dir: string } | { error: string } {
  const ownTemplates = new Map<string, string>();
  const ops: Record<string, unknown>[] = [];
  for (const op of testCase.workloadTemplate) {
    const written = upstreamOp(op, ownTemplates);
    if (typeof written === 'string') return { error: `${testCase.name}: ${written}` };
    ops.push(written);
  }
  const dir = join(root, 'ours');
  mkdirSync(join(dir, 'templates'), { recursive: true });
  symlinkSync(sharedTemplates, join(root, 'templates'));
  // JSON is YAML: a template of ours is written as the object it builds.
  for (const [file, key] of ownTemplates) writeFileSync(join(dir, file), JSON.stringify(template(key)));
  const workloads = testCase.workloads.map((w) => ({ name: w.name, labels: w.labels, params: w.params, ...(w.featureGates ? { featureGates: w.featureGates } : {}) }));
  writeFileSync(join(dir, 'performance-config.yaml'), stringify([{ name: testCase.name, workloadTemplate: ops, workloads }]));
  return { dir };
}
