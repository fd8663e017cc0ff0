// Our table of the pinned release's feature gates (src/api/feature_gate_specs.ts) against the
// one its kube-scheduler registers, as the harness lists it.
import { featureSpecs, type FeatureSpec } from '../../src/api/feature_gate_specs.js';
import type { UpstreamGate } from './harness.js';

const describe = (s: FeatureSpec | UpstreamGate) =>
  `default ${s.default}, ${s.preRelease === '' ? 'GA' : s.preRelease}${s.lockToDefault ? ', locked' : ''}${s.dependsOn?.length ? `, depends on ${s.dependsOn.join(' ')}` : ''}`;

/** One line per gate the two tables disagree on; none when they agree. */
export function compareGateTables(upstream: readonly UpstreamGate[]): string[] {
  const diffs: string[] = [];
  const seen = new Set<string>();
  for (const u of upstream) {
    seen.add(u.name);
    const ours = featureSpecs[u.name];
    if (!ours) diffs.push(`${u.name}: missing (upstream: ${describe(u)})`);
    else if (describe(ours) !== describe(u)) diffs.push(`${u.name}: ours ${describe(ours)}, upstream ${describe(u)}`);
  }
  for (const name of Object.keys(featureSpecs)) if (!seen.has(name)) diffs.push(`${name}: not a gate of the pinned release`);
  return diffs;
}
