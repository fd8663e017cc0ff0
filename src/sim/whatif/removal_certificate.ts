// capacity --removable's fit certificate: proves a node removable from Filter verdicts alone,
// without scheduling cycles. It leans on schedule_one.go's findNodesThatPassFilters: the walk
// stops early only once it has found feasible nodes, so a pod with a feasible node is placed.
//
// The argument: node N holds the pods p1..pk that would move, each re-created in turn. When pi is
// scheduled, the copies of p1..p(i-1) have changed at most i-1 nodes. If pi passes PreFilter and
// Filter on at least i nodes other than N in the cluster as it is now, one of them is untouched and,
// for a simple pod (below), still passes: its verdict there depends on that node alone or on state
// the moves only make better (N's pods leave; the copies bring no required anti-affinity). So
// every pi finds a node, and N is removable. The i-th pod's witness is a node where it fits that no
// pod before it was given, which exists by the same count.
import type { Pod } from '../../api/types.js';
import { isDRAExtendedResourceName } from '../../dra/device_class_resolver.js';
import { defaultPodTopologySpreadArgs } from '../../plugins/podtopologyspread/args.js';
import { inTreeRegistry } from '../../plugins/registry.js';
import { CycleState } from '../../framework/cycle_state.js';
import { PodInfo } from '../../framework/pod_info.js';
import type { Registry } from '../../framework/registry.js';
import type { Framework } from '../../framework/runtime/framework.js';
import type { ProfileConfig } from '../../framework/runtime/profile_plugins.js';
import { Code } from '../../framework/status.js';
import type { Scheduler } from '../../scheduler/scheduler.js';
import { leaving, recreatedCopy } from './probe_copy.js';

/**
 * Filter plugins whose verdict on a node depends only on that node and the pod, or (InterPodAffinity,
 * PodTopologySpread, DynamicResources, for the simple pods below) on state that moving simple pods
 * cannot make worse.
 */
const certifiableFilters: ReadonlySet<string> = new Set([
  'NodeUnschedulable', 'NodeName', 'NodeDeclaredFeatures', 'NodePorts', 'NodeAffinity', 'TaintToleration', 'NodeResourcesFit',
  'VolumeRestrictions', 'NodeVolumeLimits', 'VolumeBinding', 'VolumeZone', 'InterPodAffinity',
  'PodTopologySpread', 'DynamicResources',
]);

/** Volume kinds no storage plugin looks at: no claim to bind, no zone, no attach limit, no disk conflict. */
const inertVolumeKinds: ReadonlySet<string> = new Set(['name', 'configMap', 'secret', 'emptyDir', 'downwardAPI', 'projected', 'hostPath', 'image']);

/** What decides, per profile, whether its pods can be certified. */
interface ProfileFacts {
  fwk: Framework;
  /** PodTopologySpread's default constraints (for pods with none of their own) include a DoNotSchedule one. */
  hardDefaultSpread: boolean;
}

/**
 * Whether the certificate's argument holds for `pod` (else its node goes to the scheduler). Each
 * condition keeps out a pod whose verdict on an untouched node could get worse as others move,
 * or whose copy the scheduler would not place even where it fits.
 */
function isSimple(pod: Pod, facts: ProfileFacts, deviceClassesExist: boolean): boolean {
  const spec = pod.spec;
  // The scheduler skips a deleting pod, and a gated one waits: neither copy would be placed.
  if (pod.metadata.deletionTimestamp || (spec.schedulingGates?.length ?? 0) > 0) return false;
  // Required (anti-)affinity of its own depends on pods on other nodes, the moved ones included,
  // and a placed copy's anti-affinity would constrain the pods moved after it.
  const affinity = spec.affinity;
  if ((affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0) return false;
  if ((affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0) return false;
  // A hard spread constraint counts pods across a domain, which the moved pods change.
  const own = spec.topologySpreadConstraints ?? [];
  if (own.some((c) => c.whenUnsatisfiable === 'DoNotSchedule')) return false;
  if (own.length === 0 && facts.hardDefaultSpread) return false;
  // Devices are allocated cluster-wide: claims, and extended resources a DeviceClass may back.
  if ((spec.resourceClaims?.length ?? 0) > 0) return false;
  if (deviceClassesExist && requestsExtendedResource(pod)) return false;
  // Claims bind cluster-wide volumes; other volume kinds may be counted or conflict (conservative).
  for (const v of spec.volumes ?? []) if (Object.keys(v).some((k) => !inertVolumeKinds.has(k))) return false;
  return true;
}

function requestsExtendedResource(pod: Pod): boolean {
  const lists = [pod.spec.resources, ...pod.spec.containers.map((c) => c.resources), ...(pod.spec.initContainers ?? []).map((c) => c.resources)];
  return lists.some((r) => [...Object.keys(r?.requests ?? {}), ...Object.keys(r?.limits ?? {})].some(isDRAExtendedResourceName));
}

/** Proves nodes removable by the argument above, on the scheduler's view of the cluster. */
export class RemovalCertificate {
  private readonly profiles = new Map<string, ProfileFacts | null>();
  /** Where the next search for feasible nodes starts, so that searches spread over the cluster. */
  private cursor = 0;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly profileConfigs: readonly ProfileConfig[],
    private readonly registry: Registry,
  ) {}

  /**
   * A witness node per pod of `moving` (distinct nodes other than `node`, each where that pod
   * fits now), or null when the certificate does not apply and the scheduler must decide.
   */
  witnesses(node: string, moving: readonly Pod[]): string[] | null {
    const deviceClassesExist = this.scheduler.objects.list('DeviceClass').length > 0;
    const facts: ProfileFacts[] = [];
    for (const p of moving) {
      const f = this.profileFacts(p.spec.schedulerName ?? 'default-scheduler');
      if (f === null || !isSimple(p, f, deviceClassesExist)) return null;
      facts.push(f);
    }
    // What the next scheduling cycle would see; bringing it up to date now changes nothing it decides.
    this.scheduler.cache.updateSnapshot(this.scheduler.snapshot);
    const given = new Set<string>();
    const out: string[] = [];
    for (const [i, p] of moving.entries()) {
      // i nodes at most were touched by the pods before this one: it needs i + 1 where it fits.
      const feasible = this.feasibleNodes(facts[i]!.fwk, new PodInfo(recreatedCopy(p, leaving(node, facts[i]!.fwk))), node, i + 1);
      if (feasible === null || feasible.length < i + 1) return null;
      const witness = feasible.find((n) => !given.has(n))!;
      given.add(witness);
      out.push(witness);
    }
    return out;
  }

  /**
   * Up to `want` nodes other than `skip` where `pod` passes PreFilter and Filter (nominated pods
   * counted, as the scheduler's walk does); null when PreFilter rejects it or a filter fails with
   * an error (the scheduler's cycle would end there too).
   */
  private feasibleNodes(fwk: Framework, pod: PodInfo, skip: string, want: number): string[] | null {
    if (pod.parseError !== null) return null;
    const nodes = this.scheduler.snapshot.nodeInfoList;
    const state = new CycleState();
    const pre = fwk.runPreFilterPlugins(state, pod, nodes);
    if (pre.status !== null && pre.status.code !== Code.Success) return null;
    const found: string[] = [];
    const n = nodes.length;
    const start = this.cursor % Math.max(n, 1);
    let i = 0;
    for (; i < n && found.length < want; i++) {
      const ni = nodes[(start + i) % n]!;
      if (ni.name === skip || (pre.nodeNames !== null && !pre.nodeNames.has(ni.name))) continue;
      const s = fwk.runFilterPluginsWithNominatedPods(state, pod, ni);
      if (s === null || s.code === Code.Success) found.push(ni.name);
      else if (s.code === Code.Error) return null;
    }
    this.cursor = n === 0 ? 0 : (start + i) % n;
    return found;
  }

  /** The profile's facts, or null when its plugins or extenders put it outside the argument. */
  private profileFacts(name: string): ProfileFacts | null {
    if (this.profiles.has(name)) return this.profiles.get(name)!;
    const fwk = this.scheduler.profiles.get(name);
    const facts = fwk === undefined || !this.certifiable(fwk) ? null : { fwk, hardDefaultSpread: this.hardDefaultSpread(name) };
    this.profiles.set(name, facts);
    return facts;
  }

  /**
   * No extenders (they filter too, by rules we cannot see), every plugin the in-tree one (an
   * out-of-tree Reserve, Permit or Score plugin may refuse or fail a pod that fits), and every
   * Filter plugin one the argument covers.
   */
  private certifiable(fwk: Framework): boolean {
    if (fwk.extenders().length > 0 || fwk.unavailablePlugins.length > 0) return false;
    const inTree = inTreeRegistry();
    const plugins = [
      ...fwk.preEnqueuePlugins, ...fwk.preFilterPlugins, ...fwk.filterPlugins, ...fwk.preScorePlugins, ...fwk.scorePlugins,
      ...fwk.reservePlugins, ...fwk.permitPlugins, ...fwk.preBindPlugins, ...fwk.bindPlugins,
    ];
    if (plugins.some((p) => this.registry.get(p.name) !== inTree.get(p.name) || inTree.get(p.name) === undefined)) return false;
    return fwk.filterPlugins.every((p) => certifiableFilters.has(p.name));
  }

  /** Whether the profile's PodTopologySpread args give pods without constraints a DoNotSchedule one. */
  private hardDefaultSpread(profile: string): boolean {
    const given = this.profileConfigs.find((p) => p.schedulerName === profile)?.pluginConfig?.find((c) => c.name === 'PodTopologySpread')?.args;
    const args = defaultPodTopologySpreadArgs(typeof given === 'object' && given !== null ? (given as Record<string, unknown>) : {});
    return args.defaultingType === 'List' && args.defaultConstraints.some((c) => c.whenUnsatisfiable === 'DoNotSchedule');
  }
}
