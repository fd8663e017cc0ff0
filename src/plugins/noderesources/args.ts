// NodeResourcesFitArgs and NodeResourcesBalancedAllocationArgs: shape, defaulting and validation
// (apis/config/types_pluginargs.go, v1/defaults.go, validation/validation_pluginargs.go).
import type { FieldError } from '../../framework/registry.js';
import { MaxCustomPriorityScore, validateFunctionShape } from '../../framework/helpers/shape_score.js';
import { childPath, fieldDuplicate as duplicate, indexPath, fieldInvalid as invalid, fieldNotSupported as notSupported, fieldRequired as required, validateLabelName } from '../../api/field_errors.js';

export const LeastAllocated = 'LeastAllocated';
export const MostAllocated = 'MostAllocated';
export const RequestedToCapacityRatio = 'RequestedToCapacityRatio';
const supportedScoringStrategyTypes = [LeastAllocated, MostAllocated, RequestedToCapacityRatio] as const;

export { MaxCustomPriorityScore };

export interface ResourceSpec {
  readonly name: string;
  readonly weight: number;
}

export interface UtilizationShapePoint {
  readonly utilization: number;
  readonly score: number;
}

interface RequestedToCapacityRatioParam {
  readonly shape: readonly UtilizationShapePoint[];
}

export interface ScoringStrategy {
  /** One of supportedScoringStrategyTypes once validated. */
  readonly type: string;
  readonly resources: readonly ResourceSpec[];
  readonly requestedToCapacityRatio?: RequestedToCapacityRatioParam;
}

export interface NodeResourcesFitArgs {
  readonly ignoredResources: readonly string[];
  readonly ignoredResourceGroups: readonly string[];
  readonly scoringStrategy: ScoringStrategy;
}

export interface NodeResourcesBalancedAllocationArgs {
  readonly resources: readonly ResourceSpec[];
}

function defaultResourceSpec(): ResourceSpec[] {
  return [
    { name: 'cpu', weight: 1 },
    { name: 'memory', weight: 1 },
  ];
}

// ---- decoding the raw (YAML/JSON) args strictly, as upstream's strict decoder does ----

class ArgsDecodeError extends Error {
  override name = 'ArgsDecodeError';
}

function fail(kind: string, path: string, what: string, got: unknown): never {
  throw new ArgsDecodeError(`${kind}: ${path}: ${what}, got ${JSON.stringify(got)}`);
}

function asRecord(kind: string, v: unknown, path: string, allowed: readonly string[]): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(kind, path || '.', 'expected an object', v);
  const rec = v as Record<string, unknown>;
  for (const k of Object.keys(rec)) {
    if (!allowed.includes(k)) throw new ArgsDecodeError(`${kind}: unknown field "${childPath(path, k)}"`);
  }
  return rec;
}

function asList(kind: string, v: unknown, path: string): readonly unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) fail(kind, path, 'expected a list', v);
  return v;
}

function asString(kind: string, v: unknown, path: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') fail(kind, path, 'expected a string', v);
  return v;
}

function asInt(kind: string, v: unknown, path: string): number {
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v)) fail(kind, path, 'expected an integer', v);
  return v;
}

function decodeResources(kind: string, v: unknown, path: string): ResourceSpec[] {
  return asList(kind, v, path).map((r, i) => {
    const p = indexPath(path, i);
    const rec = asRecord(kind, r, p, ['name', 'weight']);
    return { name: asString(kind, rec.name, childPath(p, 'name')), weight: asInt(kind, rec.weight, childPath(p, 'weight')) };
  });
}

/** Weight 0 (unset) becomes 1, as upstream's defaulting does. */
function defaultWeights(resources: ResourceSpec[]): ResourceSpec[] {
  return resources.map((r) => (r.weight === 0 ? { name: r.name, weight: 1 } : r));
}

/** Decodes and defaults NodeResourcesFitArgs (SetDefaults_NodeResourcesFitArgs). */
export function defaultNodeResourcesFitArgs(given: Record<string, unknown>): NodeResourcesFitArgs {
  const kind = 'NodeResourcesFitArgs';
  const rec = asRecord(kind, given, '', ['apiVersion', 'kind', 'ignoredResources', 'ignoredResourceGroups', 'scoringStrategy']);
  const ignoredResources = asList(kind, rec.ignoredResources, 'ignoredResources').map((v, i) =>
    asString(kind, v, indexPath('ignoredResources', i)),
  );
  const ignoredResourceGroups = asList(kind, rec.ignoredResourceGroups, 'ignoredResourceGroups').map((v, i) =>
    asString(kind, v, indexPath('ignoredResourceGroups', i)),
  );
  if (rec.scoringStrategy === undefined || rec.scoringStrategy === null) {
    return { ignoredResources, ignoredResourceGroups, scoringStrategy: { type: LeastAllocated, resources: defaultResourceSpec() } };
  }
  const sp = 'scoringStrategy';
  const s = asRecord(kind, rec.scoringStrategy, sp, ['type', 'resources', 'requestedToCapacityRatio']);
  let resources = decodeResources(kind, s.resources, childPath(sp, 'resources'));
  if (resources.length === 0) resources = defaultResourceSpec();
  const strategy: { type: string; resources: ResourceSpec[]; requestedToCapacityRatio?: RequestedToCapacityRatioParam } = {
    type: asString(kind, s.type, childPath(sp, 'type')),
    resources: defaultWeights(resources),
  };
  if (s.requestedToCapacityRatio !== undefined && s.requestedToCapacityRatio !== null) {
    const rp = childPath(sp, 'requestedToCapacityRatio');
    const r = asRecord(kind, s.requestedToCapacityRatio, rp, ['shape']);
    const shapePath = childPath(rp, 'shape');
    const shape = asList(kind, r.shape, shapePath).map((pt, i) => {
      const p = indexPath(shapePath, i);
      const point = asRecord(kind, pt, p, ['utilization', 'score']);
      return {
        utilization: asInt(kind, point.utilization, childPath(p, 'utilization')),
        score: asInt(kind, point.score, childPath(p, 'score')),
      };
    });
    strategy.requestedToCapacityRatio = { shape };
  }
  return { ignoredResources, ignoredResourceGroups, scoringStrategy: strategy };
}

/** Decodes and defaults NodeResourcesBalancedAllocationArgs (SetDefaults_NodeResourcesBalancedAllocationArgs). */
export function defaultNodeResourcesBalancedAllocationArgs(given: Record<string, unknown>): NodeResourcesBalancedAllocationArgs {
  const kind = 'NodeResourcesBalancedAllocationArgs';
  const rec = asRecord(kind, given, '', ['apiVersion', 'kind', 'resources']);
  const resources = decodeResources(kind, rec.resources, 'resources');
  if (resources.length === 0) return { resources: defaultResourceSpec() };
  return { resources: defaultWeights(resources) };
}

// ---- validation ----

function validateResources(resources: readonly ResourceSpec[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (let i = 0; i < resources.length; i++) {
    const r = resources[i]!;
    if (r.weight <= 0 || r.weight > 100) {
      errs.push(invalid(childPath(indexPath(path, i), 'weight'), r.weight, `resource weight of ${r.name} not in valid range (0, 100]`));
    }
  }
  return errs;
}

/** ValidateNodeResourcesFitArgs; `path` is the args' own field path. */
export function validateNodeResourcesFitArgs(args: NodeResourcesFitArgs, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const resPath = childPath(path, 'ignoredResources');
  args.ignoredResources.forEach((res, i) => errs.push(...validateLabelName(res, indexPath(resPath, i))));
  const groupPath = childPath(path, 'ignoredResourceGroups');
  args.ignoredResourceGroups.forEach((group, i) => {
    const p = indexPath(groupPath, i);
    if (group.includes('/')) errs.push(invalid(p, group, "resource group name can't contain '/'"));
    errs.push(...validateLabelName(group, p));
  });
  const strategyPath = childPath(path, 'scoringStrategy');
  const s = args.scoringStrategy;
  if (!(supportedScoringStrategyTypes as readonly string[]).includes(s.type)) {
    errs.push(notSupported(childPath(strategyPath, 'type'), s.type, [...supportedScoringStrategyTypes].sort()));
  }
  errs.push(...validateResources(s.resources, childPath(strategyPath, 'resources')));
  if (s.requestedToCapacityRatio) {
    // Upstream reports shape problems under scoringStrategy.shape (not ...requestedToCapacityRatio.shape).
    errs.push(...validateFunctionShape(s.requestedToCapacityRatio.shape, childPath(strategyPath, 'shape')));
  } else if (s.type === RequestedToCapacityRatio) {
    // Upstream dereferences the missing parameter and crashes; we report it instead.
    errs.push(required(childPath(strategyPath, 'requestedToCapacityRatio'), 'must be set for the RequestedToCapacityRatio strategy'));
  }
  return errs;
}

/** ValidateNodeResourcesBalancedAllocationArgs; `path` is the args' own field path. */
export function validateNodeResourcesBalancedAllocationArgs(args: NodeResourcesBalancedAllocationArgs, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const resPath = childPath(path, 'resources');
  args.resources.forEach((r, i) => {
    const p = indexPath(resPath, i);
    if (seen.has(r.name)) errs.push(duplicate(childPath(p, 'name'), r.name));
    else seen.add(r.name);
    if (r.weight !== 1) errs.push(invalid(childPath(p, 'weight'), r.weight, 'must be 1'));
  });
  return errs;
}
