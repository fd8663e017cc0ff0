// A kubelet stand-in for the embedded cluster, in the manner of KWOK's default stages
// (kwok kustomize/stage/node/fast/node-initialize.yaml, node/heartbeat-with-lease,
// pod/fast/pod-ready.yaml): nodes turn Ready with a Lease in kube-node-lease that is renewed, and
// a bound pod turns Running and Ready a set delay after its binding, with an IP, a start time and
// running containers. It writes status and leases only, never what the scheduler decides on.
import type { KubeObject, Node, Pod } from '../../api/types.js';
import { rfc3339, type Clock, type TimerHandle } from '../../util/clock.js';
import type { WatchEvent } from '../types.js';
import type { ControllerStore } from './controllers/store.js';

export interface KubeletOptions {
  /** How long after its binding a pod runs (default 0: at once, as KWOK's fast stages). */
  readonly podStartDelayMs?: number;
  /** How often node leases are renewed (the kubelet's 10 s). */
  readonly leaseRenewMs?: number;
}

const leaseNamespace = 'kube-node-lease';
const leaseDurationSeconds = 40;

/** metav1.MicroTime as the API server writes it. */
const microTime = (ms: number): string => new Date(ms).toISOString().replace(/Z$/, '000Z');

/** The four address bytes of the n-th address after base (an IPv4 address as a number). */
function ipv4(base: number, n: number): string {
  const v = (base + n) >>> 0;
  return `${v >>> 24}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
}
const nodeIPBase = (10 << 24) + 1; // 10.0.0.1
const podIPBase = ((10 << 24) | (244 << 16)) + 1; // 10.244.0.1

/** The node conditions of a healthy kubelet (kubelet's setNodeReadyCondition and pressure conditions). */
function readyConditions(now: string, since: string): Record<string, string>[] {
  const c = (type: string, status: string, reason: string, message: string) =>
    ({ type, status, lastHeartbeatTime: now, lastTransitionTime: since, reason, message });
  return [
    c('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
    c('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
    c('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
    c('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
  ];
}

const isReady = (n: Node): boolean => (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
const podKey = (p: Pod): string => `${p.metadata.namespace ?? 'default'}/${p.metadata.name ?? ''}`;

/** The status of a pod whose containers all exited 0 (KWOK's pod-complete stage): what a finished run leaves. */
export function completedPodStatus(pod: Pod, nowMs: number): NonNullable<Pod['status']> {
  const now = rfc3339(nowMs);
  const startedAt = pod.status?.startTime ?? now;
  const terminated = (c: { name: string; image?: string }) => ({
    name: c.name, image: c.image ?? '', imageID: '', ready: false, started: false, restartCount: 0,
    state: { terminated: { exitCode: 0, reason: 'Completed', startedAt, finishedAt: now } },
  });
  const conditions = (pod.status?.conditions ?? []).map((c) =>
    c.type === 'Ready' || c.type === 'ContainersReady' ? { ...c, status: 'False', reason: 'PodCompleted', lastTransitionTime: now } : c);
  return { ...(pod.status ?? {}), phase: 'Succeeded', conditions, containerStatuses: pod.spec.containers.map(terminated) };
}

export class Kubelet {
  private unsubscribe: (() => void) | null = null;
  private readonly starts = new Map<string, TimerHandle>();
  private renewTimer: TimerHandle | null = null;
  private nodeCount = 0;
  private podCount = 0;
  private readonly nodeIPs = new Map<string, string>();
  private pending: WatchEvent[] = [];

  constructor(private readonly store: ControllerStore, private readonly clock: Clock, private readonly opts: KubeletOptions = {}) {}

  /** Brings up every node and bound pod the store holds, then follows changes. */
  start(): void {
    if (this.unsubscribe !== null) return;
    for (const n of this.store.list<Node>('Node')) this.nodeAdded(n);
    for (const p of this.store.list<Pod>('Pod')) this.podChanged(p);
    this.unsubscribe = this.store.subscribe(({ event }) => {
      if (event.kind !== 'Node' && event.kind !== 'Pod') return;
      // Acted on after the change has reached every watcher, so none sees our write before it.
      this.pending.push(event);
      if (this.pending.length === 1) queueMicrotask(() => this.flush());
    });
    this.scheduleRenewal();
  }

  private flush(): void {
    const events = this.pending;
    this.pending = [];
    if (this.unsubscribe === null) return;
    for (const event of events) {
      if (event.kind === 'Node') {
        if (event.type === 'DELETED') this.nodeDeleted(event.object as Node);
        else if (event.type === 'ADDED') this.nodeAdded(this.store.get<Node>('Node', '', event.object.metadata?.name ?? '') ?? (event.object as Node));
      } else if (event.type === 'DELETED') {
        this.cancel(podKey(event.object as Pod));
      } else {
        this.podChanged(event.object as Pod);
      }
    }
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const h of this.starts.values()) this.clock.clearTimeout(h);
    this.starts.clear();
    if (this.renewTimer !== null) this.clock.clearTimeout(this.renewTimer);
    this.renewTimer = null;
  }

  private nodeAdded(n: Node): void {
    const name = n.metadata.name ?? '';
    const addresses = n.status?.addresses ?? [];
    const internal = addresses.find((a) => a.type === 'InternalIP')?.address ?? ipv4(nodeIPBase, this.nodeCount++);
    this.nodeIPs.set(name, internal);
    if (!isReady(n)) {
      const now = this.clock.now();
      const others = (n.status?.conditions ?? []).filter((c) => !['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'].includes(c.type));
      const status = {
        ...(n.status ?? {}),
        conditions: [...others, ...readyConditions(rfc3339(now), n.metadata.creationTimestamp ?? rfc3339(now))],
        addresses: addresses.length > 0 ? addresses : [{ type: 'InternalIP', address: internal }, { type: 'Hostname', address: name }],
        nodeInfo: n.status?.nodeInfo ?? { architecture: 'amd64', operatingSystem: 'linux', kubeletVersion: 'v1.37.2', containerRuntimeVersion: 'kube-scheduler-ts://embedded',
          kernelVersion: '', osImage: 'kube-scheduler-ts embedded node', bootID: '', machineID: '', systemUUID: '', kubeProxyVersion: '' },
      };
      this.store.update<Node>({ ...n, status } as Node);
    }
    if (!this.store.get('Lease', leaseNamespace, name)) {
      this.store.create({
        apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
        metadata: { name, namespace: leaseNamespace, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: n.metadata.uid ?? '' }] },
        spec: { holderIdentity: name, leaseDurationSeconds, renewTime: microTime(this.clock.now()) },
      } as KubeObject);
    }
  }

  private nodeDeleted(n: Node): void {
    const name = n.metadata.name ?? '';
    this.nodeIPs.delete(name);
    this.store.remove('Lease', leaseNamespace, name);
  }

  /** Renews every node's lease on one timer, as each kubelet does on its own. */
  private scheduleRenewal(): void {
    this.renewTimer = this.clock.setTimeout(() => {
      const renewTime = microTime(this.clock.now());
      for (const name of this.nodeIPs.keys()) {
        const lease = this.store.get<KubeObject & { spec?: Record<string, unknown> }>('Lease', leaseNamespace, name);
        if (lease) this.store.update({ ...lease, spec: { ...lease.spec, renewTime } });
      }
      this.scheduleRenewal();
    }, this.opts.leaseRenewMs ?? 10_000);
  }

  /** A bound pod still Pending gets its start timer; the timer is dropped when the pod is gone. */
  private podChanged(p: Pod): void {
    const phase = p.status?.phase ?? 'Pending';
    const key = podKey(p);
    if (!p.spec.nodeName || phase !== 'Pending' || p.metadata.deletionTimestamp || this.starts.has(key)) return;
    const uid = p.metadata.uid;
    this.starts.set(key, this.clock.setTimeout(() => {
      this.starts.delete(key);
      this.run(p.metadata.namespace ?? 'default', p.metadata.name ?? '', uid);
    }, this.opts.podStartDelayMs ?? 0));
  }

  private cancel(key: string): void {
    const h = this.starts.get(key);
    if (h !== undefined) this.clock.clearTimeout(h);
    this.starts.delete(key);
  }

  /** KWOK's pod-ready stage: Running and Ready, every container started. */
  private run(namespace: string, name: string, uid: string | undefined): void {
    const cur = this.store.get<Pod>('Pod', namespace, name);
    if (!cur || cur.metadata.uid !== uid || (cur.status?.phase ?? 'Pending') !== 'Pending' || !cur.spec.nodeName) return;
    const now = rfc3339(this.clock.now());
    const hostIP = this.nodeIPs.get(cur.spec.nodeName) ?? ipv4(nodeIPBase, 0);
    const podIP = cur.spec.hostNetwork ? hostIP : ipv4(podIPBase, this.podCount++);
    const condition = (type: string) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: now });
    const kept = (cur.status?.conditions ?? []).filter((c) => c.type === 'PodScheduled');
    const status = {
      ...(cur.status ?? {}),
      phase: 'Running',
      conditions: [condition('PodReadyToStartContainers'), condition('Initialized'), condition('Ready'), condition('ContainersReady'), ...kept],
      hostIP, hostIPs: [{ ip: hostIP }], podIP, podIPs: [{ ip: podIP }], startTime: now,
      initContainerStatuses: (cur.spec.initContainers ?? []).map((c) => ({
        name: c.name, image: c.image ?? '', imageID: '', ready: true, restartCount: 0, started: false,
        state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: now, finishedAt: now } },
      })),
      containerStatuses: cur.spec.containers.map((c) => ({
        name: c.name, image: c.image ?? '', imageID: '', ready: true, started: true, restartCount: 0, state: { running: { startedAt: now } },
      })),
    };
    if (status.initContainerStatuses.length === 0) delete (status as { initContainerStatuses?: unknown }).initContainerStatuses;
    this.store.update<Pod>({ ...cur, status } as Pod);
  }
}
