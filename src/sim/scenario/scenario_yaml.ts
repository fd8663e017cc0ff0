// A scenario written back as a scenario file (the `{ metadata, config?, objects, nodes, pods,
// pending }` shape of scenarios/README.md) that loadScenario reads to the same decisions.
import { stringify } from 'yaml';
import type { Scenario } from './scenario.js';

export function renderScenarioYaml(sc: Scenario): string {
  const doc: Record<string, unknown> = { metadata: sc.metadata };
  if (sc.config) doc.config = sc.config;
  doc.objects = sc.objects;
  doc.nodes = sc.nodes;
  doc.pods = sc.pods;
  doc.pending = sc.pending;
  // No line folding: long annotations and CEL expressions stay on one line, as written.
  return stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false });
}
