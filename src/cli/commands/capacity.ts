// `capacity`: how many more copies of a pod fit (and what stops the next one), or how many nodes
// like a given one must be added so every pending pod fits.
import { readFileSync } from 'node:fs';
import type { Node, Pod } from '../../api/types.js';
import { kindKeyOf } from '../../api/kinds.js';
import { admitPod } from '../../cluster/memory/admission.js';
import { FeatureGates } from '../../config/feature_gates.js';
import { notYetAvailablePlugins } from '../../plugins/registry.js';
import { countFits, nodesNeeded, removableNodes, type FitCount, type NodeRemoval, type NodesNeeded } from '../../sim/whatif/capacity.js';
import { checkGangTemplate, countGangFits, gangMemberKeys, withGang, type GangFitCount, type GangTemplate } from '../../sim/whatif/capacity_gangs.js';
import { isCompositePodGroup, podGroupMinCount, type PodGroup, type SchedulingGroup } from '../../api/scheduling.js';
import type { FreeResources } from '../../sim/whatif/free_resources.js';
import { parseScenario, ScenarioError } from '../../sim/scenario/scenario.js';
import { treeLines } from '../../sim/explain/explain_text.js';
import { parseCommand } from '../command_spec.js';
import { UsageError, type CliIO } from '../io.js';
import { registryWithPlugins } from '../plugins.js';
import { loadOptions, loadScenarioAndConfig, positive } from './cluster_flags.js';
import { capacitySpec } from './specs.js';
import { progressLine } from './progress.js';

/** A file of objects read as a scenario (the run's gates drop the fields of those off); a missing file is a ScenarioError naming it. */
function readScenarioFile(path: string, featureGates?: FeatureGates): ReturnType<typeof parseScenario> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ScenarioError(`${path}: ${(err as Error).message}`);
  }
  return parseScenario(text, path, loadOptions(featureGates));
}

function readOne(path: string, kind: 'Pod'): Pod;
function readOne(path: string, kind: 'Node'): Node;
function readOne(path: string, kind: 'Pod' | 'Node'): Pod | Node {
  const sc = readScenarioFile(path);
  const found = kind === 'Pod' ? [...sc.pending, ...sc.pods] : sc.nodes;
  const total = sc.nodes.length + sc.pods.length + sc.pending.length + sc.objects.length;
  if (found.length !== 1 || total !== 1) throw new ScenarioError(`${path}: must hold exactly one ${kind}`);
  return found[0]!;
}

export async function capacityCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(capacitySpec, argv);
  const addNodes = values['add-nodes-like'] !== undefined || values['node-template'] !== undefined;
  // --gang asks on its own (how many fit) or with a node template (what to add for one).
  const questions = [values.pod, values['add-nodes-like'], values['node-template'], values.removable || undefined, addNodes ? undefined : values.gang].filter((v) => v !== undefined).length;
  if (questions !== 1) throw new UsageError('give exactly one of --pod, --gang, --add-nodes-like, --node-template and --removable (--gang may go with --add-nodes-like or --node-template)');
  if (values.gang !== undefined && (values.pod !== undefined || values.removable === true)) throw new UsageError('--gang goes alone or with --add-nodes-like or --node-template');
  if (values.members !== undefined && values.gang === undefined) throw new UsageError('--members goes with --gang');
  if (values.nodes !== undefined && values.removable !== true) throw new UsageError('--nodes goes with --removable');
  if (values.placements === true && values.removable !== true) throw new UsageError('--placements goes with --removable');
  const output = values.output ?? 'text';
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  const registry = await registryWithPlugins(values.plugins ?? []);
  const featureGates = FeatureGates.parse(values['feature-gates'] ?? []);
  const { scenario, config } = await loadScenarioAndConfig(values, positionals, registry, io, featureGates);
  const progress = progressLine(io, values.progress === true);
  const opts = { config, registry, notYetAvailable: notYetAvailablePlugins, featureGates, seed, admitPod, onProgress: progress?.update };
  const answer = async (): Promise<string> => {
    const gang = values.gang === undefined ? null : readGang(values.gang, values.members, featureGates);
    if (gang !== null && !addNodes) {
      const report = await countGangFits(scenario, gang, { ...opts, max: positive('max', values.max, 10_000, true) });
      return output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderGangFits(report);
    }
    if (values.pod !== undefined) {
      const report = await countFits(scenario, readOne(values.pod, 'Pod'), { ...opts, max: positive('max', values.max, 100_000, true) });
      return output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderFits(report);
    }
    if (values.removable === true) {
      const nodes = values.nodes?.split(',').map((n) => n.trim()).filter((n) => n !== '');
      for (const n of nodes ?? []) if (!scenario.nodes.some((x) => x.metadata.name === n)) throw new ScenarioError(`--nodes: nodes "${n}" not found in ${scenario.source ?? scenario.name}`);
      const report = await removableNodes(scenario, { ...opts, nodes, placements: values.placements === true });
      return output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderRemovable(report);
    }
    const template = values['node-template'] !== undefined
      ? readOne(values['node-template'], 'Node')
      : scenario.nodes.find((n) => n.metadata.name === values['add-nodes-like']);
    if (template === undefined) throw new ScenarioError(`--add-nodes-like: nodes "${values['add-nodes-like']}" not found in ${scenario.source ?? scenario.name}`);
    const limit = positive('limit', values.limit, 10_000, true);
    const report = gang === null
      ? await nodesNeeded(scenario, template, { ...opts, limit })
      : await nodesNeeded(withGang(scenario, gang), template, { ...opts, limit, only: new Set(gangMemberKeys(gang)) });
    const subject = gang === null ? 'every pending pod fits' : `the ${gangMemberKeys(gang).length} member(s) of ${gang.root.metadata.namespace ?? 'default'}/${gang.root.metadata.name ?? 'gang'} fit`;
    return output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderNodesNeeded(report, subject);
  };
  let text: string;
  try {
    text = await answer();
  } finally {
    progress?.end();
  }
  io.stdout(text);
  return 0;
}

/**
 * FILE's gang: a PodGroup and the Pod its members copy, or a CompositePodGroup tree (the root,
 * the composites and PodGroups under it, one Pod per PodGroup); with --members (default each
 * PodGroup's minCount, or 1) members per PodGroup.
 */
function readGang(path: string, membersFlag: string | undefined, featureGates: FeatureGates): GangTemplate {
  const sc = readScenarioFile(path, featureGates);
  const groups: SchedulingGroup[] = [];
  for (const o of sc.objects) {
    const kind = kindKeyOf(o);
    if (kind === 'PodGroup' || kind === 'CompositePodGroup') groups.push({ ...(o as unknown as SchedulingGroup), kind } as SchedulingGroup);
    else if (kind !== 'Workload') throw new ScenarioError(`${path}: ${kind} "${o.metadata?.name ?? ''}": a gang file holds PodGroups, CompositePodGroups, Pods and their Workload only`);
  }
  const pods = [...sc.pending, ...sc.pods];
  if (sc.nodes.length > 0) throw new ScenarioError(`${path}: a gang file holds no nodes`);
  const composite = groups.some(isCompositePodGroup);
  if (!composite && (groups.length !== 1 || pods.length !== 1)) throw new ScenarioError(`${path}: must hold exactly one PodGroup and one Pod (or a CompositePodGroup tree)`);
  if (composite && !featureGates.enabled('CompositePodGroup')) throw new UsageError(`${path}: a CompositePodGroup tree needs --feature-gates GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true`);
  const names = new Set(groups.map((g) => `${g.kind}/${g.metadata.name ?? ''}`));
  const roots = groups.filter((g) => g.spec.parentCompositePodGroupName === undefined);
  for (const g of groups) {
    const parent = g.spec.parentCompositePodGroupName;
    if (parent !== undefined && !names.has(`CompositePodGroup/${parent}`)) throw new ScenarioError(`${path}: ${g.kind} "${g.metadata.name ?? ''}": spec.parentCompositePodGroupName: Not found: "${parent}": not a CompositePodGroup of the file`);
  }
  if (roots.length !== 1) throw new ScenarioError(`${path}: must hold one root group (without spec.parentCompositePodGroupName), not ${roots.length}: ${roots.map((g) => g.metadata.name ?? '').join(', ')}`);
  const members = new Map<string, { pod: Pod; count: number }>();
  for (const pod of pods) {
    // A lone gang's Pod need not name its PodGroup: every member is made to.
    const group = composite ? pod.spec.schedulingGroup?.podGroupName : groups[0]!.metadata.name;
    const pg = groups.find((g) => g.kind === 'PodGroup' && g.metadata.name === group) as PodGroup | undefined;
    if (pg === undefined) throw new ScenarioError(`${path}: Pod "${pod.metadata.name ?? ''}": spec.schedulingGroup.podGroupName: Not found: "${group ?? ''}": not a PodGroup of the file`);
    if (members.has(group!)) throw new ScenarioError(`${path}: Pod "${pod.metadata.name ?? ''}": spec.schedulingGroup.podGroupName: Duplicate value: "${group}": one Pod per PodGroup (its members copy it; --members says how many)`);
    const count = membersFlag === undefined ? podGroupMinCount(pg) : positive('members', membersFlag, 1, true);
    members.set(group!, { pod, count });
  }
  const gang = { root: roots[0]!, below: groups.filter((g) => g !== roots[0]), members };
  checkGangTemplate(gang, path);
  return gang;
}

function renderGangFits(r: GangFitCount): string {
  const quorum = r.kind === 'CompositePodGroup' ? `minGroupCount ${r.minCount}` : `minCount ${r.minCount}`;
  const lines = [`${r.fits} more ${r.kind === 'CompositePodGroup' ? 'tree' : 'group'}(s) like ${r.group} fit, each all or nothing (${r.members} member(s), ${quorum})${r.pending.scheduled + r.pending.unschedulable > 0 ? `, after the scenario's ${r.pending.scheduled + r.pending.unschedulable} pending pods: ${r.pending.scheduled} scheduled, ${r.pending.unschedulable} not` : ''}.`];
  if (r.placements.length > 0) {
    lines.push('', 'Members per node:');
    for (const p of r.placements.slice(0, 20)) lines.push(`  ${p.node}  ${p.members}`);
    if (r.placements.length > 20) lines.push(`  ... ${r.placements.length - 20} more nodes`);
  }
  const g = r.stoppedBy;
  if (g === null) lines.push('', 'Stopped at --max.');
  else if ('children' in g) {
    lines.push('', `The next tree does not fit (${g.placed} of ${r.members} member(s) would be placed):`, ...treeLines(g, '  '));
  } else {
    lines.push('', `The next group does not fit (${g.placed} of ${g.members.length} member(s) would be placed).`);
    if (g.stoppedBy !== null) lines.push(`  Stopped by: ${g.stoppedBy.plugin === '' ? '' : `${g.stoppedBy.plugin}: `}${g.stoppedBy.message}`);
    if (g.firstRejected !== null) lines.push(`  First rejected: ${g.firstRejected.pod} (${g.firstRejected.plugins.join(', ')}): ${g.firstRejected.message}`);
  }
  lines.push('', ...renderFree(r.free));
  return `${lines.join('\n')}\n`;
}

/** The free-resources table: cpu, memory, pods and each extended resource. */
function renderFree(free: FreeResources): string[] {
  const show = (resource: string, v: number) => (resource === 'memory' ? `${(v / 2 ** 30).toFixed(v % 2 ** 30 === 0 ? 0 : 1)}Gi` : resource === 'cpu' ? String(Number(v.toFixed(3))) : String(v));
  const rows = free.map((f) => [f.resource, show(f.resource, f.allocatable), show(f.resource, f.requested), show(f.resource, f.free), `${show(f.resource, f.largestOnOneNode.free)} (${f.largestOnOneNode.node})`]);
  const header = ['RESOURCE', 'ALLOCATABLE', 'REQUESTED', 'FREE', 'MOST FREE ON ONE NODE'];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) => `  ${cells.map((x, c) => (c === cells.length - 1 ? x : x.padEnd(widths[c]!))).join('  ')}`;
  return ['Left on the nodes:', line(header), ...rows.map(line)];
}

function renderFits(r: FitCount): string {
  const lines = [`${r.fits} more cop${r.fits === 1 ? 'y' : 'ies'} of ${r.pod} fit${r.pending.scheduled + r.pending.unschedulable > 0 ? ` (after the scenario's ${r.pending.scheduled + r.pending.unschedulable} pending pods: ${r.pending.scheduled} scheduled, ${r.pending.unschedulable} not)` : ''}.`];
  if (r.placements.length > 0) {
    lines.push('', 'Copies per node:');
    for (const p of r.placements.slice(0, 20)) lines.push(`  ${p.node}  ${p.copies}`);
    if (r.placements.length > 20) lines.push(`  ... ${r.placements.length - 20} more nodes`);
  }
  if (r.stoppedBy === null) {
    lines.push('', 'Stopped at --max.');
  } else {
    lines.push('', `The next copy does not fit: ${r.stoppedBy.message}`);
    const byReason = new Map<string, string[]>();
    for (const n of r.stoppedBy.nodes) {
      const why = `${n.plugin}: ${n.reasons.join('; ')}`;
      byReason.set(why, [...(byReason.get(why) ?? []), n.node]);
    }
    for (const [why, nodes] of [...byReason].sort((a, b) => b[1].length - a[1].length)) {
      lines.push(`  ${nodes.length} node(s) ${why}  (${nodes.slice(0, 5).join(', ')}${nodes.length > 5 ? ', ...' : ''})`);
    }
  }
  lines.push('', ...renderFree(r.free));
  return `${lines.join('\n')}\n`;
}

function renderNodesNeeded(r: NodesNeeded, subject: string): string {
  const lines: string[] = [];
  if (r.nodes === 0) lines.push(`Already ${subject}: no node needs adding.`);
  else if (r.nodes === null) {
    lines.push(`${r.probes.at(-1)?.nodes ?? 0} added nodes like ${r.template} still leave ${r.probes.at(-1)?.unschedulable ?? 0} pod(s) unschedulable: more nodes of this kind do not help them.`);
    for (const p of r.leftOut.slice(0, 10)) lines.push(`  ${p.pod}: ${p.message}`);
    if (r.leftOut.length > 10) lines.push(`  ... ${r.leftOut.length - 10} more`);
  }
  else lines.push(`Add ${r.nodes} node(s) like ${r.template}: then ${subject} (${r.unschedulableWithout} do not without them).`);
  lines.push('', 'Simulations run (nodes added → pods left unschedulable):');
  for (const p of r.probes) lines.push(`  ${p.nodes} → ${p.unschedulable}`);
  return `${lines.join('\n')}\n`;
}

function renderRemovable(r: readonly NodeRemoval[]): string {
  const yes = r.filter((x) => x.removable);
  const lines = [`${yes.length} of ${r.length} node(s) could be removed, each on its own, with their pods rescheduled on the others:`];
  const moved = (x: NodeRemoval) => x.pods.map((p) => (x.decidedBy === 'room' ? `${p.pod} has room on ${p.node}` : `${p.pod} -> ${p.node}`)).join(', ');
  for (const x of yes) lines.push(`  ${x.node}${x.pods.length === 0 ? '  (no pods to move)' : `  ${moved(x)}`}`);
  if (yes.some((x) => x.decidedBy === 'room' && x.pods.length > 0)) {
    lines.push('', '"has room on": a node where the pod fits as the cluster is now, a different one for each pod of the node;',
      'found without scheduling them, so not where the scheduler would put them (--placements shows that).');
  }
  const no = r.filter((x) => !x.removable);
  if (no.length > 0) {
    lines.push('', 'Not removable:');
    for (const x of no) {
      // A gang lists every member: the first left without a node is the one that did not fit.
      const stuck = x.pods.find((p) => p.node === '') ?? x.pods.at(-1)!;
      lines.push(`  ${x.node}: ${stuck.pod} does not fit elsewhere: ${stuck.message}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
