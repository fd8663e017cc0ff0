// PodTopologySpreadArgs: defaulting (apis/config/v1/defaults.go SetDefaults_PodTopologySpreadArgs)
// and validation (apis/config/validation/validation_pluginargs.go ValidatePodTopologySpreadArgs).
import { validateLabelKey } from '../../api/labels.js';
import type { TopologySpreadConstraint } from '../../api/types.js';
import type { FieldError } from '../../framework/registry.js';

type PodTopologySpreadConstraintsDefaulting = 'System' | 'List';

export interface PodTopologySpreadArgs {
  /** Constraints applied to pods that define none; only used with defaultingType List. */
  defaultConstraints: TopologySpreadConstraint[];
  defaultingType: PodTopologySpreadConstraintsDefaulting;
}

/** Fills defaultingType with System when unset, as the v1 config API does. */
export function defaultPodTopologySpreadArgs(given: Record<string, unknown>): PodTopologySpreadArgs {
  const type = given['defaultingType'];
  const constraints = given['defaultConstraints'];
  return {
    defaultConstraints: Array.isArray(constraints) ? (constraints as TopologySpreadConstraint[]) : [],
    defaultingType: typeof type === 'string' && type !== '' ? (type as PodTopologySpreadConstraintsDefaulting) : 'System',
  };
}

const quote = (v: unknown): string => JSON.stringify(v);

export function validatePodTopologySpreadArgs(args: PodTopologySpreadArgs, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const typePath = `${path}.defaultingType`;
  if (args.defaultingType !== 'System' && args.defaultingType !== 'List') {
    errs.push({ path: typePath, message: `Unsupported value: ${quote(args.defaultingType)}: supported values: "System", "List"` });
  } else if (args.defaultingType === 'System' && args.defaultConstraints.length > 0) {
    errs.push({ path: typePath, message: `Invalid value: ${quote(args.defaultingType)}: when .defaultConstraints are not empty` });
  }

  const listPath = `${path}.defaultConstraints`;
  const constraints = args.defaultConstraints;
  for (let i = 0; i < constraints.length; i++) {
    const c = constraints[i]!;
    const p = `${listPath}[${i}]`;
    const maxSkew = Number(c.maxSkew ?? 0);
    if (!(maxSkew > 0)) {
      errs.push({ path: `${p}.maxSkew`, message: `Invalid value: ${c.maxSkew ?? 0}: not in valid range (0, inf)` });
    }
    const key = c.topologyKey ?? '';
    if (key === '') {
      errs.push({ path: `${p}.topologyKey`, message: 'Required value: can not be empty' });
    } else {
      try {
        validateLabelKey(key);
      } catch (err) {
        errs.push({ path: `${p}.topologyKey`, message: `Invalid value: ${quote(key)}: ${(err as Error).message}` });
      }
    }
    const when = c.whenUnsatisfiable ?? '';
    if (when === '') {
      errs.push({ path: `${p}.whenUnsatisfiable`, message: 'Required value: can not be empty' });
    } else if (when !== 'DoNotSchedule' && when !== 'ScheduleAnyway') {
      errs.push({ path: `${p}.whenUnsatisfiable`, message: `Unsupported value: ${quote(when)}: supported values: "DoNotSchedule", "ScheduleAnyway"` });
    }
    if (c.labelSelector !== undefined && c.labelSelector !== null) {
      errs.push({ path: `${p}.labelSelector`, message: 'Forbidden: constraint must not define a selector, as they deduced for each pod' });
    }
    for (let j = 0; j < i; j++) {
      const other = constraints[j]!;
      if (other.topologyKey === c.topologyKey && other.whenUnsatisfiable === c.whenUnsatisfiable) {
        errs.push({ path: p, message: `Duplicate value: ${quote(`{${c.topologyKey}, ${c.whenUnsatisfiable}}`)}` });
        break;
      }
    }
  }
  return errs;
}
