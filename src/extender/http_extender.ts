// An extender reached over HTTP(S) (pkg/scheduler/extender.go HTTPExtender).
import type { Container, Pod } from '../api/types.js';
import type { Extender as ExtenderConfig } from '../config/types.js';
import type { NodeInfo } from '../framework/node_info.js';
import type { Extender, ExtenderBinding, ExtenderFilterResult, HostPriority, PreemptionVictims } from '../framework/extender.js';
import { type ExtenderTransport, httpTransport } from './transport.js';
import {
  type ExtenderArgs,
  type ExtenderBindingArgs,
  type ExtenderPreemptionArgs,
  type MetaVictims,
  type Victims,
  decodeBindingResult,
  decodeFilterResult,
  decodeHostPriorityList,
  decodePreemptionResult,
} from './wire.js';

/** The pods preemption would evict on one node, and how many PodDisruptionBudgets that breaks. */

export class HttpExtender implements Extender {
  private readonly extenderURL: string;
  private readonly filterVerb: string;
  private readonly prioritizeVerb: string;
  private readonly bindVerb: string;
  private readonly preemptVerb: string;
  private readonly weight: number;
  private readonly nodeCacheCapable: boolean;
  private readonly managedResources: ReadonlySet<string>;
  private readonly ignorable: boolean;

  /** Builds the HTTP transport from `config` unless one is given; a bad TLS setup throws here. */
  constructor(
    config: ExtenderConfig,
    private readonly transport: ExtenderTransport = httpTransport(config),
  ) {
    this.extenderURL = config.urlPrefix;
    this.filterVerb = config.filterVerb ?? '';
    this.prioritizeVerb = config.prioritizeVerb ?? '';
    this.bindVerb = config.bindVerb ?? '';
    this.preemptVerb = config.preemptVerb ?? '';
    // Not defaulted: validation requires a positive weight whenever prioritizeVerb is set.
    this.weight = config.weight ?? 0;
    this.nodeCacheCapable = config.nodeCacheCapable ?? false;
    this.managedResources = new Set((config.managedResources ?? []).map((r) => r.name));
    this.ignorable = config.ignorable ?? false;
  }

  name(): string {
    return this.extenderURL;
  }

  isIgnorable(): boolean {
    return this.ignorable;
  }

  isFilter(): boolean {
    return this.filterVerb !== '';
  }

  isPrioritizer(): boolean {
    return this.prioritizeVerb !== '';
  }

  isBinder(): boolean {
    return this.bindVerb !== '';
  }

  supportsPreemption(): boolean {
    return this.preemptVerb !== '';
  }

  isInterested(pod: Pod): boolean {
    if (this.managedResources.size === 0) return true;
    return this.hasManagedResources(pod.spec.containers) || this.hasManagedResources(pod.spec.initContainers);
  }

  private hasManagedResources(containers: readonly Container[] | undefined): boolean {
    for (const c of containers ?? []) {
      for (const name in c.resources?.requests) if (this.managedResources.has(name)) return true;
      for (const name in c.resources?.limits) if (this.managedResources.has(name)) return true;
    }
    return false;
  }

  async filter(pod: Pod, nodes: readonly NodeInfo[]): Promise<ExtenderFilterResult> {
    if (this.filterVerb === '') return { feasible: nodes.slice(), failed: {}, failedAndUnresolvable: {} };
    const result = await this.send(this.filterVerb, this.nodeArgs(pod, nodes), decodeFilterResult);
    if (result.error !== '') throw new Error(result.error);

    // Upstream keeps the node objects the extender returns; we go on with our own NodeInfos,
    // so a name outside the input is an error whichever way the nodes come back.
    const names = this.nodeCacheCapable && result.nodeNames !== null ? result.nodeNames : result.nodeListNames;
    const feasible: NodeInfo[] = [];
    if (names !== null && names.length > 0) {
      const byName = new Map<string, NodeInfo>();
      for (const ni of nodes) byName.set(ni.name, ni);
      for (const name of names) {
        const ni = byName.get(name);
        if (ni === undefined) {
          throw new Error(
            `extender ${JSON.stringify(this.extenderURL)} claims a filtered node ${JSON.stringify(name)} which is not found in the input node list`,
          );
        }
        feasible.push(ni);
      }
    }
    return { feasible, failed: result.failedNodes ?? {}, failedAndUnresolvable: result.failedAndUnresolvableNodes ?? {} };
  }

  async prioritize(pod: Pod, nodes: readonly NodeInfo[]): Promise<{ scores: HostPriority[]; weight: number }> {
    if (this.prioritizeVerb === '') {
      const scores: HostPriority[] = [];
      for (const ni of nodes) scores.push({ host: ni.name, score: 0 });
      return { scores, weight: 0 };
    }
    const scores = await this.send(this.prioritizeVerb, this.nodeArgs(pod, nodes), decodeHostPriorityList);
    return { scores, weight: this.weight };
  }

  async bind(binding: ExtenderBinding): Promise<void> {
    // The scheduler only asks binders to bind.
    if (!this.isBinder()) throw new Error('unexpected empty bindVerb in extender');
    const args: ExtenderBindingArgs = {
      PodName: binding.podName,
      PodNamespace: binding.podNamespace,
      PodUID: binding.podUID,
      Node: binding.node,
    };
    const error = await this.send(this.bindVerb, args, decodeBindingResult);
    if (error !== '') throw new Error(error);
  }

  /**
   * Lets the extender narrow preemption's candidates: it answers, per node it keeps, the victims
   * it agrees to (by UID), which are looked up among the pods `lookupNode` gives for that node.
   */
  async processPreemption(
    pod: Pod,
    nodeNameToVictims: ReadonlyMap<string, PreemptionVictims>,
    lookupNode: (nodeName: string) => NodeInfo | undefined,
  ): Promise<Map<string, PreemptionVictims>> {
    if (!this.supportsPreemption()) {
      throw new Error(`preempt verb is not defined for extender ${this.extenderURL} but run into ProcessPreemption`);
    }
    // Go writes map keys sorted.
    const nodeNames = [...nodeNameToVictims.keys()].sort();
    const args: ExtenderPreemptionArgs = { Pod: pod, NodeNameToVictims: null, NodeNameToMetaVictims: null };
    if (this.nodeCacheCapable) {
      const meta: Record<string, MetaVictims> = {};
      for (const name of nodeNames) {
        const v = nodeNameToVictims.get(name)!;
        meta[name] = { Pods: v.pods.map((p) => ({ UID: p.metadata.uid ?? '' })), NumPDBViolations: v.numPDBViolations };
      }
      args.NodeNameToMetaVictims = meta;
    } else {
      const full: Record<string, Victims> = {};
      for (const name of nodeNames) {
        const v = nodeNameToVictims.get(name)!;
        full[name] = { Pods: v.pods, NumPDBViolations: v.numPDBViolations };
      }
      args.NodeNameToVictims = full;
    }
    const answer = await this.send(this.preemptVerb, args, decodePreemptionResult);

    const out = new Map<string, PreemptionVictims>();
    for (const [nodeName, meta] of answer) {
      const ni = lookupNode(nodeName);
      if (ni === undefined) {
        throw new Error(`extender: ${this.extenderURL} claims to preempt pods on node: ${nodeName}, but nodeinfo is not found for that node`);
      }
      const pods: Pod[] = [];
      for (const uid of meta.uids) pods.push(this.podOnNode(uid, ni));
      out.set(nodeName, { pods, numPDBViolations: meta.numPDBViolations });
    }
    return out;
  }

  private podOnNode(uid: string, ni: NodeInfo): Pod {
    for (const pi of ni.pods) if ((pi.pod.metadata.uid ?? '') === uid) return pi.pod;
    throw new Error(
      `extender: ${this.extenderURL} claims to preempt pod (UID: ${uid}) on node: ${ni.name}, but the pod is not found on that node`,
    );
  }

  /** The filter/prioritize arguments: node names for a nodeCacheCapable extender, else whole nodes. */
  private nodeArgs(pod: Pod, nodes: readonly NodeInfo[]): ExtenderArgs {
    if (this.nodeCacheCapable) {
      const names: string[] = [];
      for (const ni of nodes) names.push(ni.name);
      return { Pod: pod, Nodes: null, NodeNames: names };
    }
    const items = [];
    for (const ni of nodes) {
      if (ni.node === null) throw new Error(`extender ${this.extenderURL}: node ${ni.name} has no Node object to send`);
      items.push(ni.node);
    }
    // Go builds the list by appending to a nil slice, so no nodes is written as null.
    return { Pod: pod, Nodes: { metadata: {}, items: items.length === 0 ? null : items }, NodeNames: null };
  }

  /** POSTs `args` to the verb's URL and decodes a 200 answer. */
  private async send<T>(verb: string, args: unknown, decode: (body: unknown) => T): Promise<T> {
    const url = `${this.extenderURL.replace(/\/+$/, '')}/${verb}`;
    const res = await this.transport(url, JSON.stringify(args));
    if (res.status !== 200) throw new Error(`failed ${verb} with extender at URL ${url}, code ${res.status}`);
    try {
      return decode(JSON.parse(res.body));
    } catch (err) {
      throw new Error(`decoding the ${verb} answer of extender at URL ${url}: ${(err as Error).message}`);
    }
  }
}
