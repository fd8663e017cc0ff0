// Test fixtures for the preemption tests: a real Framework with NodeResourcesFit and tiny
// test-only plugins (the shape of upstream's tf.NewFramework with RegisterPluginAsExtensions).
import { defaultFeatures, type Features } from '../../framework/features.js';
import type { KubeObject, Node, Pod, PodDisruptionBudget, ResourceList } from '../../api/types.js';
import { Snapshot } from '../../cache/snapshot.js';
import { CycleState } from '../../framework/cycle_state.js';
import type { NodeToStatusReader, PluginClusterClient, PostFilterOutcome, WaitingPod } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import { NodeToStatus } from '../../framework/node_to_status.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Registry, type AnyPluginDefinition } from '../../framework/registry.js';
import { Framework } from '../../framework/runtime/framework.js';
import { Code, Status } from '../../framework/status.js';
import { MapObjectLister } from '../../framework/object_lister.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { FakeClock } from '../../util/clock.js';
import { defaultBinderDefinition } from '../defaultbinder/index.js';
import { nodeResourcesFitDefinition } from '../noderesources/index.js';
import { prioritySortDefinition } from '../queuesort/index.js';
import { defaultDefaultPreemptionArgs, type DefaultPreemptionArgs } from './args.js';
import { DefaultPreemption } from './default_preemption.js';

export const negPriority = -100;
export const lowPriority = 0;
export const midPriority = 100;
export const highPriority = 1000;
export const veryHighPriority = 10000;

export const smallRes: ResourceList = { cpu: '100m', memory: '100' };
export const mediumRes: ResourceList = { cpu: '200m', memory: '200' };
export const largeRes: ResourceList = { cpu: '300m', memory: '300' };
export const veryLargeRes: ResourceList = { cpu: '500m', memory: '500' };

/** Start times one second apart (Go's epochTime1..6 are nanoseconds apart; only the order matters). */
export const epoch = (n: number): string => new Date(n * 1000).toISOString().replace('.000Z', 'Z');

export interface PodSpecOptions {
  node?: string;
  priority?: number;
  requests?: ResourceList;
  labels?: Record<string, string>;
  startTime?: string;
  namespace?: string;
  preemptionPolicy?: 'Never' | 'PreemptLowerPriority';
  nominatedNodeName?: string;
  terminating?: boolean;
  disruptionTarget?: boolean;
  spec?: Partial<Pod['spec']>;
}

/** A pod with uid = name, as upstream's st.MakePod().Name(x).UID(x). */
export function pod(name: string, o: PodSpecOptions = {}): Pod {
  const p = makePod(name, {
    uid: name,
    namespace: o.namespace ?? 'default',
    ...(o.node ? { node: o.node } : {}),
    ...(o.priority !== undefined ? { priority: o.priority } : {}),
    ...(o.requests ? { requests: o.requests } : {}),
    ...(o.labels ? { labels: o.labels } : {}),
    spec: { ...(o.preemptionPolicy ? { preemptionPolicy: o.preemptionPolicy } : {}), ...o.spec },
  });
  if (o.startTime) p.status!.startTime = o.startTime;
  if (o.nominatedNodeName) p.status!.nominatedNodeName = o.nominatedNodeName;
  if (o.disruptionTarget) p.status!.conditions = [{ type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler' }];
  return o.terminating ? { ...p, metadata: { ...p.metadata, deletionTimestamp: epoch(10) } } : p;
}

/**
 * A node with the given allocatable (32 pods unless given, as upstream's st.MakeNode().Capacity);
 * "name/zone/region" adds hostname, zone and region labels.
 */
export function node(spec: string, allocatable: ResourceList, labels: Record<string, string> = {}): Node {
  const [name, zone, region] = spec.split('/');
  return makeNode(name!, {
    allocatable: { pods: '32', ...allocatable },
    labels: { hostname: name!, ...(zone ? { zone } : {}), ...(region ? { region } : {}), ...labels },
  });
}

export function pdb(name: string, matchLabels: Record<string, string>, disruptionsAllowed: number, disruptedPods?: string[]): PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: 'default' },
    spec: { selector: { matchLabels } },
    status: {
      disruptionsAllowed,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
      ...(disruptedPods ? { disruptedPods: Object.fromEntries(disruptedPods.map((p) => [p, epoch(1)])) } : {}),
    },
  };
}

/** Returns an error from AddPod/RemovePod on nodes labelled error=true (upstream's TestPlugin). */
export const errorOnLabelledNodesDefinition: AnyPluginDefinition = {
  name: 'test-plugin',
  factory: () => {
    const failOn = (verb: string, podToSchedule: PodInfo, nodeInfo: NodeInfo): Status | null =>
      nodeInfo.node?.metadata.labels?.['error'] === 'true' ? Status.error(`failed to ${verb} pod: ${podToSchedule.name}`) : null;
    return {
      name: 'test-plugin',
      preFilter: () => null,
      preFilterExtensions: () => ({
        addPod: (_s: CycleState, p: PodInfo, _a: PodInfo, ni: NodeInfo) => failOn('add', p, ni),
        removePod: (_s: CycleState, p: PodInfo, _r: PodInfo, ni: NodeInfo) => failOn('remove', p, ni),
      }),
    };
  },
};

/** A filter that passes every node (tf.NewTrueFilterPlugin). */
export const trueFilterDefinition: AnyPluginDefinition = { name: 'TrueFilter', factory: () => ({ name: 'TrueFilter', filter: () => null }) };

/** A filter that rejects every node (tf.NewFalseFilterPlugin). */
export const falseFilterDefinition: AnyPluginDefinition = {
  name: 'FalseFilter',
  factory: () => ({ name: 'FalseFilter', filter: () => Status.unschedulable('injecting failure for pod test') }),
};

/** A filter that passes only the node named like the pod (tf.NewMatchFilterPlugin). */
export const matchFilterDefinition: AnyPluginDefinition = {
  name: 'MatchFilter',
  factory: () => ({
    name: 'MatchFilter',
    filter: (_s: CycleState, p: PodInfo, ni: NodeInfo) => (p.name === ni.name ? null : Status.unschedulable('node(s) didn\'t match the requested node name')),
  }),
};

interface Recorded {
  deleted: { pod: string; reason?: string; message?: string }[];
  cleared: string[];
  events: { object: string; reason: string; action: string; message: string }[];
  rejected: { pod: string; plugin: string; message: string }[];
  /** Pods the plugin asked the queue to activate. */
  activated: string[];
}

export interface EnvOptions {
  nodes: Node[];
  pods?: Pod[];
  pdbs?: PodDisruptionBudget[];
  args?: Partial<DefaultPreemptionArgs>;
  /** Filter (and PreFilter) plugins, in order; NodeResourcesFit when not given. */
  filters?: AnyPluginDefinition[];
  /** Plugins registered for PreFilter only (their extensions run in the dry run). */
  preFilterOnly?: AnyPluginDefinition[];
  nominated?: Pod[];
  waiting?: string[];
  /** The feature gates' values (the defaults when absent). */
  features?: Features;
  random?: () => number;
  parallelism?: number;
}

export interface Env {
  fwk: Framework;
  plugin: DefaultPreemption;
  snapshot: Snapshot;
  recorded: Recorded;
}

export function newEnv(o: EnvOptions): Env {
  const filters = o.filters ?? [nodeResourcesFitDefinition];
  const preFilterOnly = o.preFilterOnly ?? [];
  const recorded: Recorded = { deleted: [], cleared: [], events: [], rejected: [], activated: [] };
  let plugin: DefaultPreemption | undefined;
  const preemptionDefinition: AnyPluginDefinition = {
    name: 'DefaultPreemption',
    factory: (_args: unknown, handle) => (plugin = new DefaultPreemption({ ...defaultDefaultPreemptionArgs({}), ...o.args }, handle, o.features ?? defaultFeatures)),
  };
  const registry = new Registry([prioritySortDefinition, defaultBinderDefinition, preemptionDefinition, ...filters, ...preFilterOnly]);
  const snapshot = Snapshot.fromObjects(o.pods ?? [], o.nodes);
  const client: PluginClusterClient = {
    bind: async () => {},
    deletePod: async (p, opts) => {
      recorded.deleted.push({ pod: p.metadata.name ?? '', reason: opts?.disruptionReason, message: opts?.message });
    },
    clearNominatedNodeName: async (p) => {
      recorded.cleared.push(p.metadata.name ?? '');
    },
    // The informer's view: the given pods, less those deleted.
    getPod: (namespace, name) => (recorded.deleted.some((d) => d.pod === name) ? undefined : (o.pods ?? []).find((p) => p.metadata.name === name && (p.metadata.namespace ?? 'default') === namespace)),
  };
  const nominated = new Map<string, PodInfo[]>();
  for (const p of o.nominated ?? []) {
    const n = p.status?.nominatedNodeName ?? '';
    nominated.set(n, [...(nominated.get(n) ?? []), new PodInfo(p)]);
  }
  const waiting = new Set(o.waiting ?? []);
  const filterNames = filters.map((d) => ({ name: d.name }));
  const fwk = new Framework(
    {
      schedulerName: 'default-scheduler',
      plugins: {
        queueSort: { enabled: [{ name: 'PrioritySort' }] },
        preFilter: { enabled: [...filterNames.filter((f) => f.name === 'NodeResourcesFit'), ...preFilterOnly.map((d) => ({ name: d.name }))] },
        filter: { enabled: filterNames },
        postFilter: { enabled: [{ name: 'DefaultPreemption' }] },
        bind: { enabled: [{ name: 'DefaultBinder' }] },
      },
    },
    {
      registry,
      snapshot: () => snapshot,
      objects: new MapObjectLister((o.pdbs ?? []) as KubeObject[]),
      client,
      eventRecorder: {
        event: (regarding, _type, reason, action, message) => recorded.events.push({ object: regarding.metadata?.name ?? '', reason, action, message }),
      },
      nominator: { nominatedPodsForNode: (n) => nominated.get(n) ?? [] },
      clock: new FakeClock(),
      random: o.random ?? (() => 0),
      parallelism: o.parallelism ?? 16,
      features: o.features ?? defaultFeatures,
      activate: (pods) => recorded.activated.push(...[...pods].map((p) => p.metadata.name ?? '')),
    },
  );
  // Pods waiting at Permit: the framework keeps them internally, so the test answers lookups.
  const getWaitingPod = fwk.getWaitingPod.bind(fwk);
  fwk.getWaitingPod = (uid: string): WaitingPod | undefined => {
    if (!waiting.has(uid)) return getWaitingPod(uid);
    const p = (o.pods ?? []).find((x) => x.metadata.uid === uid)!;
    return {
      pod: p,
      pendingPlugins: () => ['test-permit'],
      allow: () => {},
      reject: (pluginName, message) => recorded.rejected.push({ pod: p.metadata.name ?? '', plugin: pluginName, message }),
      preempt: (pluginName, message) => recorded.rejected.push({ pod: p.metadata.name ?? '', plugin: pluginName, message }) > 0,
    };
  };
  return { fwk, plugin: plugin!, snapshot, recorded };
}

/** Runs PreFilter for the pod, as the scheduling cycle does before PostFilter. */
export function preFiltered(env: Env, p: Pod): { state: CycleState; podInfo: PodInfo } {
  const state = new CycleState();
  const podInfo = new PodInfo(p);
  const r = env.fwk.runPreFilterPlugins(state, podInfo, env.snapshot.nodeInfoList);
  if (r.status !== null) throw new Error(`unexpected PreFilter status: ${r.status.message()}`);
  return { state, podInfo };
}

/** Filter statuses: Unschedulable for the listed nodes, or the given codes; absent nodes get none. */
export function statuses(entries: Record<string, Code>): NodeToStatus {
  const m = new NodeToStatus();
  for (const [name, code] of Object.entries(entries)) m.set(name, new Status(code));
  return m;
}

/** Lets the asynchronous API calls of preemption finish. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

/** PostFilter's answer, which comes at once when no extender is asked. */
export function postFilterNow(env: Env, state: CycleState, podInfo: PodInfo, m: NodeToStatusReader): PostFilterOutcome {
  const out = env.plugin.postFilter(state, podInfo, m);
  if (out instanceof Promise) throw new Error('PostFilter answered asynchronously without extenders');
  return out;
}
