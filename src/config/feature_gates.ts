// --feature-gates as kube-scheduler takes it (component-base/featuregate/feature_gate.go Set and
// unsafeSetFromMap): "A=true,B=false" over the pinned release's gates, with upstream's errors.
import { featureSpecs, type FeatureSpec } from '../api/feature_gate_specs.js';
import { BadInputError } from '../util/bad_input.js';

/** A --feature-gates value upstream would refuse too, or one naming a behaviour we lack. */
export class FeatureGateError extends BadInputError {
  override name = 'FeatureGateError';
}

/**
 * What we do with a gate the pinned kube-scheduler reads: `both` honours either value; `default`
 * means we have only the default's behaviour, so the other value is refused; `always-off` means
 * we lack the feature and always behave as upstream with the gate off, so either value is taken
 * (on is a difference docs/fidelity.md lists). See docs/configuration.md's Feature gates.
 */
type GateSupport = 'both' | 'default' | 'always-off';

export interface SchedulerGate {
  readonly support: GateSupport;
  /** The enhancement behind the gate (kep.k8s.io/N), where kube_features.go names one. */
  readonly kep?: number;
}

/**
 * The gates the pinned kube-scheduler reads (pkg/scheduler and cmd/kube-scheduler; plugins through
 * feature.Features). Every other known gate changes nothing in a scheduler and is accepted at
 * either value (unless locked).
 */
export const schedulerGates: Readonly<Record<string, SchedulerGate>> = {
  ComponentFlagz: { support: 'always-off', kep: 4828 },
  ComponentStatusz: { support: 'always-off', kep: 4827 },
  CompositePodGroup: { support: 'both', kep: 6012 },
  CoordinatedLeaderElection: { support: 'default', kep: 4355 },
  DRAAdminAccess: { support: 'default', kep: 5018 },
  DRAConsumableCapacity: { support: 'default', kep: 5075 },
  DRADerivedAttributes: { support: 'default', kep: 6080 },
  DRADeviceBindingConditions: { support: 'default', kep: 5007 },
  DRADeviceCompatibilityGroups: { support: 'both', kep: 5963 },
  DRADeviceTaintRules: { support: 'both', kep: 5055 },
  DRADeviceTaints: { support: 'default', kep: 5055 },
  DRAExtendedResource: { support: 'both', kep: 5004 },
  DRAFractionalCapacityRange: { support: 'default', kep: 5075 },
  DRAListTypeAttributes: { support: 'both', kep: 5491 },
  DRANodeAllocatableResources: { support: 'default', kep: 5517 },
  DRAOptionalNodeOperations: { support: 'default', kep: 5945 },
  DRAPartitionableDevices: { support: 'default', kep: 4815 },
  DRAPrioritizedList: { support: 'default', kep: 4816 },
  DRAResourceClaimDeviceStatus: { support: 'default', kep: 4817 },
  DRASchedulerFilterTimeout: { support: 'default', kep: 4381 },
  DRAWorkloadResourceClaims: { support: 'both', kep: 5729 },
  DynamicResourceAllocation: { support: 'default', kep: 4381 },
  GenericWorkload: { support: 'both' },
  InPlacePodLevelResourcesVerticalScaling: { support: 'default', kep: 5419 },
  InPlacePodVerticalScaling: { support: 'default', kep: 1287 },
  InPlacePodVerticalScalingSchedulerPreemption: { support: 'default', kep: 5836 },
  InterPodAffinityHostnameFastPath: { support: 'default' },
  MatchLabelKeysInPodTopologySpread: { support: 'both', kep: 3243 },
  NodeDeclaredFeatures: { support: 'default', kep: 5328 },
  NodeInclusionPolicyInPodTopologySpread: { support: 'default', kep: 3094 },
  NominatedNodeNameForExpectation: { support: 'both', kep: 5278 },
  OpportunisticBatching: { support: 'both', kep: 5598 },
  PodGroupPreemptionPolicy: { support: 'both', kep: 5710 },
  PodLevelResources: { support: 'default', kep: 2837 },
  // Decisions are the same at either value; see docs/fidelity.md for what the dispatcher changes upstream.
  SchedulerAsyncAPICalls: { support: 'both', kep: 5229 },
  SchedulerAsyncPreemption: { support: 'both', kep: 4832 },
  SchedulerPopFromBackoffQ: { support: 'default', kep: 5142 },
  SchedulerPreQueueingHints: { support: 'default', kep: 6132 },
  StorageCapacityScoring: { support: 'default', kep: 4049 },
  TaintTolerationComparisonOperators: { support: 'default', kep: 5471 },
  TopologyAwareWorkloadScheduling: { support: 'both', kep: 5732 },
  VolumeAttributesClass: { support: 'default', kep: 3751 },
  VolumeLimitScaling: { support: 'both', kep: 5030 },
};

/** The gates that switch every alpha (beta) gate not named explicitly. */
const allAlpha = 'AllAlpha';
const allBeta = 'AllBeta';

/** The effective value of every known gate. */
export class FeatureGates {
  private constructor(private readonly explicit: ReadonlyMap<string, boolean>) {}

  /** The pinned release's defaults. */
  static readonly defaults = new FeatureGates(new Map());

  /**
   * Parses one or more --feature-gates values (a repeated flag adds to the earlier ones) and
   * checks them as upstream does; then refuses a value of a gate we read whose behaviour we lack.
   */
  static parse(values: readonly string[]): FeatureGates {
    const given = new Map<string, boolean>();
    for (const value of values) {
      for (const part of value.split(',')) {
        if (part.length === 0) continue;
        const at = part.indexOf('=');
        const key = (at < 0 ? part : part.slice(0, at)).trim();
        if (at < 0) throw new FeatureGateError(`missing bool value for ${key}`);
        const raw = part.slice(at + 1).trim();
        const v = parseGoBool(raw);
        if (v === undefined) throw new FeatureGateError(`invalid value of ${key}=${raw}, err: strconv.ParseBool: parsing "${raw}": invalid syntax`);
        given.set(key, v);
      }
    }
    const errors: string[] = [];
    for (const [key, v] of given) {
      const spec = featureSpecs[key];
      // Upstream stops at the first unknown gate.
      if (!spec) throw new FeatureGateError(`unrecognized feature gate: ${key}`);
      if (spec.lockToDefault && spec.default !== v) errors.push(`cannot set feature gate ${key} to ${v}, feature is locked to ${spec.default}`);
    }
    throwAggregate(errors);
    const explicit = new Map(given);
    for (const [special, preRelease] of [[allAlpha, 'ALPHA'], [allBeta, 'BETA']] as const) {
      const v = given.get(special);
      if (v === undefined) continue;
      for (const [name, spec] of Object.entries(featureSpecs)) {
        if (name !== allAlpha && name !== allBeta && spec.preRelease === preRelease && !given.has(name)) explicit.set(name, v);
      }
    }
    const gates = new FeatureGates(explicit);
    throwAggregate(gates.dependencyErrors());
    throwAggregate(gates.unsupported());
    return gates;
  }

  enabled(name: string): boolean {
    const v = this.explicit.get(name);
    if (v !== undefined) return v;
    const spec: FeatureSpec | undefined = featureSpecs[name];
    if (!spec) throw new Error(`feature "${name}" is not registered in FeatureGate`);
    return spec.default;
  }

  /** The gates set away from their default, as "A=true,B=false" sorted by name (logs, reports). */
  toString(): string {
    return [...this.explicit]
      .filter(([name, v]) => featureSpecs[name]!.default !== v)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, v]) => `${name}=${v}`)
      .join(',');
  }

  private dependencyErrors(): string[] {
    const errors: string[] = [];
    for (const [name, spec] of Object.entries(featureSpecs)) {
      if (!spec.dependsOn || !this.enabled(name)) continue;
      const disabled = spec.dependsOn.filter((d) => !this.enabled(d));
      if (disabled.length > 0) errors.push(`${name} is enabled, but depends on features that are disabled: [${disabled.join(' ')}]`);
    }
    return errors;
  }

  private unsupported(): string[] {
    const errors: string[] = [];
    for (const [name, gate] of Object.entries(schedulerGates)) {
      const spec = featureSpecs[name]!;
      if (gate.support === 'default' && this.enabled(name) !== spec.default) {
        errors.push(`feature gate ${name}=${!spec.default} is not supported by kube-scheduler-ts: it has only the default's behaviour (${name}=${spec.default}${gate.kep ? `, KEP-${gate.kep}` : ''})`);
      }
    }
    return errors;
  }
}

/** Go's strconv.ParseBool. */
function parseGoBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}

/** utilerrors.NewAggregate's wording: one error as itself, several as "[a, b]". */
function throwAggregate(errors: readonly string[]): void {
  if (errors.length === 1) throw new FeatureGateError(errors[0]);
  if (errors.length > 1) throw new FeatureGateError(`[${errors.join(', ')}]`);
}
