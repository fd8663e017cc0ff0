// Builders and runners for this folder's tests (framework/plugins/noderesources/test_util.go and
// the st.MakePod()/st.MakeNode() shapes upstream's noderesources tests use).
import type { Container, Node, Pod, ResourceList } from '../../api/types.js';
import { Snapshot } from '../../cache/snapshot.js';
import { CycleState } from '../../framework/cycle_state.js';
import type { PreScorePlugin, ScorePlugin } from '../../framework/interfaces.js';
import { PodInfo } from '../../framework/pod_info.js';
import type { Status } from '../../framework/status.js';

let podSeq = 0;

function container(name: string, requests?: ResourceList): Container {
  return { name, image: 'pause', resources: requests ? { requests } : {} };
}

/** st.MakePod().Req(a).Req(b)...: one container per request list; none at all when none given. */
export function reqPod(o: { name?: string; uid?: string; node?: string } = {}, ...requests: ResourceList[]): Pod {
  const name = o.name ?? `pod-${++podSeq}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: o.uid ?? `uid-${name}` },
    spec: { containers: requests.map((r, i) => container(`c${i}`, r)), ...(o.node ? { nodeName: o.node } : {}) },
    status: {},
  };
}

/** A pod with `count` containers that request nothing (st.MakePod().Container(...)). */
export function emptyContainersPod(count: number, node?: string): Pod {
  const p = reqPod({ ...(node ? { node } : {}) });
  p.spec.containers = Array.from({ length: count }, (_, i) => container(`c${i}`));
  return p;
}

/** Requests in the units framework.Resource uses: cpu in millicores, the rest in base units. */
export interface Usage {
  milliCPU?: number;
  memory?: number;
  ephemeralStorage?: number;
  scalar?: Record<string, number>;
}

function usageList(u: Usage): ResourceList {
  const list: ResourceList = {
    cpu: `${u.milliCPU ?? 0}m`,
    memory: `${u.memory ?? 0}`,
    'ephemeral-storage': `${u.ephemeralStorage ?? 0}`,
  };
  for (const [k, v] of Object.entries(u.scalar ?? {})) list[k] = `${v}`;
  return list;
}

/** newResourcePod: one container per usage. */
export function resourcePod(...usage: Usage[]): Pod {
  return reqPod({}, ...usage.map(usageList));
}

/** newResourceInitPod: the usages become init containers. */
export function withInitContainers(pod: Pod, ...usage: Usage[]): Pod {
  pod.spec.initContainers = usage.map((u, i) => container(`init${i}`, usageList(u)));
  return pod;
}

export function withOverhead(pod: Pod, overhead: ResourceList): Pod {
  pod.spec.overhead = overhead;
  return pod;
}

export function withPodLevelRequests(pod: Pod, requests: ResourceList): Pod {
  pod.spec.resources = { requests };
  return pod;
}

/** st.MakeNode().Name(name).Capacity(res): capacity = allocatable, with 32 pods unless given. */
export function capacityNode(name: string, resources: ResourceList = {}): Node {
  const list: ResourceList = { pods: '32', ...resources };
  return { apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { capacity: list, allocatable: list } };
}

/** test_util.go makeNode: cpu in millicores, memory in bytes, extended resources; no pod count. */
export function makeNode(name: string, milliCPU: number, memory: number, extended: Record<string, number> = {}): Node {
  const list: ResourceList = { cpu: `${milliCPU}m`, memory: `${memory}` };
  for (const [k, v] of Object.entries(extended)) list[k] = `${v}`;
  return { apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { capacity: list, allocatable: list } };
}

export interface ScoreRun {
  preScore: Status | null;
  scores: number[];
  errors: (Status | null)[];
}

/** Runs PreScore (optionally) once, then Score on every node of a snapshot of nodes + pods. */
export function runScore(
  plugin: PreScorePlugin & ScorePlugin,
  pod: Pod,
  nodes: Node[],
  existingPods: Pod[] = [],
  runPreScore = true,
): ScoreRun {
  const snapshot = Snapshot.fromObjects(existingPods, nodes);
  const state = new CycleState();
  const podInfo = new PodInfo(pod);
  const preScore = runPreScore ? plugin.preScore(state, podInfo, snapshot.list()) : null;
  const scores: number[] = [];
  const errors: (Status | null)[] = [];
  for (const n of nodes) {
    const result = plugin.score(state, podInfo, snapshot.get(n.metadata.name!)!);
    if (typeof result === 'number') {
      scores.push(result);
      errors.push(null);
    } else {
      scores.push(0);
      errors.push(result);
    }
  }
  return { preScore, scores, errors };
}
