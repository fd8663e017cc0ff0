// Strict decoding of the v1 wire format, as the config scheme's strict decoder does
// (pkg/scheduler/apis/config/scheme, types.go DecodeNestedObjects): unknown fields and values of
// the wrong type are errors with their field path; in-tree plugin args are decoded by their kind.
import { childPath, fieldInvalid, fieldNotSupported, fieldRequired, indexPath, Unquoted, type FieldError } from '../api/field_errors.js';
import { DurationError, parseDurationNanos } from '../util/duration.js';
import type { PluginCatalog } from './plugin_catalog.js';
import { pluginSetNames } from '../api/extension_points.js';
import {
  SchedulerConfigAPIVersion,
  SchedulerConfigKind,
  type KubeSchedulerConfiguration,
  type PluginConfig,
} from './types.js';

type Schema =
  | { readonly type: 'string' | 'bool' | 'float' | 'duration' | 'bytes' | 'any' }
  | { readonly type: 'int'; readonly bits: 32 | 64 }
  | { readonly type: 'object'; readonly fields: Readonly<Record<string, Schema>>; readonly filled?: readonly string[] }
  | { readonly type: 'list'; readonly items: Schema }
  | { readonly type: 'map'; readonly values: Schema };

const str: Schema = { type: 'string' };
const bool: Schema = { type: 'bool' };
const int32: Schema = { type: 'int', bits: 32 };
const int64: Schema = { type: 'int', bits: 64 };
const float: Schema = { type: 'float' };
const duration: Schema = { type: 'duration' };
const bytes: Schema = { type: 'bytes' };
const any: Schema = { type: 'any' };
const obj = (fields: Record<string, Schema>, filled?: readonly string[]): Schema =>
  filled ? { type: 'object', fields, filled } : { type: 'object', fields };
const list = (items: Schema): Schema => ({ type: 'list', items });
const map = (values: Schema): Schema => ({ type: 'map', values });

// `filled` lists non-pointer Go fields: absent, they still decode to their zero value.
const pluginRef = obj({ name: str, weight: int32 }, ['name']);
const pluginSet = obj({ enabled: list(pluginRef), disabled: list(pluginRef) });

/** KubeSchedulerConfiguration v1 (metrics/healthz bind addresses are not part of v1). */
const configurationSchema: Schema = obj({
  apiVersion: str,
  kind: str,
  parallelism: int32,
  leaderElection: obj({
    leaderElect: bool,
    leaseDuration: duration,
    renewDeadline: duration,
    retryPeriod: duration,
    resourceLock: str,
    resourceName: str,
    resourceNamespace: str,
  }),
  clientConnection: obj({ kubeconfig: str, acceptContentTypes: str, contentType: str, qps: float, burst: int32 }),
  enableProfiling: bool,
  enableContentionProfiling: bool,
  percentageOfNodesToScore: int32,
  podInitialBackoffSeconds: int64,
  podMaxBackoffSeconds: int64,
  profiles: list(
    obj({
      schedulerName: str,
      percentageOfNodesToScore: int32,
      plugins: obj(Object.fromEntries(pluginSetNames.map((name) => [name, pluginSet]))),
      pluginConfig: list(obj({ name: str, args: any }, ['name'])),
    }),
  ),
  extenders: list(
    obj({
      urlPrefix: str,
      filterVerb: str,
      preemptVerb: str,
      prioritizeVerb: str,
      weight: int64,
      bindVerb: str,
      enableHTTPS: bool,
      tlsConfig: obj({
        insecure: bool,
        serverName: str,
        certFile: str,
        keyFile: str,
        caFile: str,
        certData: bytes,
        keyData: bytes,
        caData: bytes,
      }),
      httpTimeout: duration,
      nodeCacheCapable: bool,
      managedResources: list(obj({ name: str, ignoredByScheduler: bool }, ['name'])),
      ignorable: bool,
    }, ['urlPrefix']),
  ),
  delayCacheUntilActive: bool,
});

// core/v1 types that appear inside in-tree plugin args.
const labelSelectorRequirement = obj({ key: str, operator: str, values: list(str) });
const labelSelector = obj({ matchLabels: map(str), matchExpressions: list(labelSelectorRequirement) });
const nodeSelectorTerm = obj({ matchExpressions: list(labelSelectorRequirement), matchFields: list(labelSelectorRequirement) });
const nodeAffinity = obj({
  requiredDuringSchedulingIgnoredDuringExecution: obj({ nodeSelectorTerms: list(nodeSelectorTerm) }),
  preferredDuringSchedulingIgnoredDuringExecution: list(obj({ weight: int32, preference: nodeSelectorTerm })),
});
const topologySpreadConstraint = obj({
  maxSkew: int32,
  topologyKey: str,
  whenUnsatisfiable: str,
  labelSelector,
  minDomains: int32,
  nodeAffinityPolicy: str,
  nodeTaintsPolicy: str,
  matchLabelKeys: list(str),
});
const resourceSpec = obj({ name: str, weight: int64 });
const utilizationShapePoint = obj({ utilization: int32, score: int32 });

/** The args kinds of the v1 API (types_pluginargs.go), decoded strictly like the config itself. */
const argsSchemas: Readonly<Record<string, Schema>> = {
  DefaultPreemptionArgs: obj({ minCandidateNodesPercentage: int32, minCandidateNodesAbsolute: int32 }),
  InterPodAffinityArgs: obj({ hardPodAffinityWeight: int32, ignorePreferredTermsOfExistingPods: bool }),
  NodeResourcesFitArgs: obj({
    ignoredResources: list(str),
    ignoredResourceGroups: list(str),
    scoringStrategy: obj({
      type: str,
      resources: list(resourceSpec),
      requestedToCapacityRatio: obj({ shape: list(utilizationShapePoint) }),
    }),
  }),
  PodTopologySpreadArgs: obj({ defaultConstraints: list(topologySpreadConstraint), defaultingType: str }),
  NodeResourcesBalancedAllocationArgs: obj({ resources: list(resourceSpec) }),
  VolumeBindingArgs: obj({ bindTimeoutSeconds: int64, shape: list(utilizationShapePoint) }),
  NodeAffinityArgs: obj({ addedAffinity: nodeAffinity }),
  DynamicResourcesArgs: obj({ filterTimeout: duration, bindingTimeout: duration }),
};

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function describe(value: unknown): unknown {
  if (Array.isArray(value)) return new Unquoted('list');
  if (isPlainObject(value)) return new Unquoted('object');
  return value;
}

const int32Min = -2147483648;
const int32Max = 2147483647;
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function zeroValue(schema: Schema): unknown {
  switch (schema.type) {
    case 'string':
    case 'bytes':
      return '';
    case 'bool':
      return false;
    case 'int':
    case 'float':
      return 0;
    case 'duration':
      return '0s';
    case 'object':
    case 'map':
      return {};
    case 'list':
      return [];
    case 'any':
      return null;
  }
}

/**
 * Decodes `value` against `schema`, collecting errors; returns the cleaned value, or undefined
 * for null/absent values (Go leaves such fields unset) and for values in error.
 */
function decodeValue(value: unknown, schema: Schema, path: string, errors: FieldError[]): unknown {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) value = value.toISOString().replace('.000Z', 'Z');
  const bad = (expected: string): undefined => {
    errors.push(fieldInvalid(path, describe(value), expected));
    return undefined;
  };
  switch (schema.type) {
    case 'any':
      return value;
    case 'string':
      return typeof value === 'string' ? value : bad('must be a string');
    case 'bool':
      return typeof value === 'boolean' ? value : bad('must be a boolean');
    case 'float':
      return typeof value === 'number' && Number.isFinite(value) ? value : bad('must be a number');
    case 'int': {
      if (typeof value !== 'number' || !Number.isInteger(value)) return bad(`must be an integer (int${schema.bits})`);
      if (schema.bits === 32 && (value < int32Min || value > int32Max)) return bad('must fit in a 32-bit integer');
      return value;
    }
    case 'duration': {
      if (typeof value !== 'string') return bad('must be a duration string such as "15s"');
      try {
        parseDurationNanos(value);
      } catch (err) {
        if (err instanceof DurationError) return bad(err.message);
        throw err;
      }
      return value;
    }
    case 'bytes':
      return typeof value === 'string' && base64.test(value) ? value : bad('must be base64-encoded data');
    case 'list': {
      if (!Array.isArray(value)) return bad('must be a list');
      const out: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const p = indexPath(path, i);
        out.push(item === null || item === undefined ? zeroValue(schema.items) : decodeValue(item, schema.items, p, errors));
      }
      return out;
    }
    case 'map': {
      if (!isPlainObject(value)) return bad('must be an object');
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const decoded = decodeValue(v, schema.values, childPath(path, k), errors);
        if (decoded !== undefined) out[k] = decoded;
      }
      return out;
    }
    case 'object': {
      if (!isPlainObject(value)) return bad('must be an object');
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const fieldSchema = schema.fields[k];
        if (fieldSchema === undefined) {
          errors.push({ path: childPath(path, k), message: `unknown field ${JSON.stringify(k)}` });
          continue;
        }
        const decoded = decodeValue(v, fieldSchema, childPath(path, k), errors);
        if (decoded !== undefined) out[k] = decoded;
      }
      for (const f of schema.filled ?? []) if (!(f in out)) out[f] = zeroValue(schema.fields[f]!);
      return out;
    }
  }
}

/** The args kind a plugin's pluginConfig must hold: the registry's, else the v1 in-tree one. */
function argsKindFor(name: string, registry: PluginCatalog): string | undefined {
  const kind = registry.get(name)?.argsKind;
  if (kind !== undefined) return kind;
  return argsSchemas[`${name}Args`] !== undefined ? `${name}Args` : undefined;
}

/**
 * Decodes one plugin's args: kinds we know are decoded strictly, apiVersion/kind are checked and
 * dropped; args of plugins without a kind (out-of-tree) pass through untouched.
 */
function decodePluginArgs(name: string, args: unknown, path: string, registry: PluginCatalog, errors: FieldError[]): unknown {
  if (args === null || args === undefined) return undefined;
  const kind = argsKindFor(name, registry);
  if (kind === undefined) return args;
  if (!isPlainObject(args)) {
    errors.push(fieldInvalid(path, describe(args), 'must be an object'));
    return undefined;
  }
  const { apiVersion, kind: givenKind, ...rest } = args;
  let ok = true;
  if (apiVersion !== undefined && apiVersion !== null && apiVersion !== SchedulerConfigAPIVersion) {
    errors.push(fieldNotSupported(childPath(path, 'apiVersion'), apiVersion, [SchedulerConfigAPIVersion]));
    ok = false;
  }
  if (givenKind !== undefined && givenKind !== null && givenKind !== kind) {
    errors.push(
      fieldInvalid(childPath(path, 'kind'), givenKind, `args for plugin ${name} were not of type ${kind}, got ${String(givenKind)}`),
    );
    ok = false;
  }
  if (!ok) return undefined;
  const schema = argsSchemas[kind];
  return schema === undefined ? rest : decodeValue(rest, schema, path, errors);
}

/** Checks apiVersion and kind of a configuration document, as the scheme does before decoding. */
function checkTypeMeta(doc: Record<string, unknown>, errors: FieldError[]): boolean {
  const before = errors.length;
  const { apiVersion, kind } = doc;
  if (apiVersion === undefined || apiVersion === null || apiVersion === '') {
    errors.push(fieldRequired('apiVersion', `must be ${JSON.stringify(SchedulerConfigAPIVersion)}`));
  } else if (apiVersion !== SchedulerConfigAPIVersion) {
    errors.push(fieldNotSupported('apiVersion', apiVersion, [SchedulerConfigAPIVersion]));
  }
  if (kind === undefined || kind === null || kind === '') {
    errors.push(fieldRequired('kind', `must be ${JSON.stringify(SchedulerConfigKind)}`));
  } else if (kind !== SchedulerConfigKind) {
    errors.push(fieldNotSupported('kind', kind, [SchedulerConfigKind]));
  }
  return errors.length === before;
}

/**
 * Strictly decodes a parsed document into a KubeSchedulerConfiguration. Returns the errors
 * instead of throwing; the configuration is only meaningful when there are none.
 */
export function decodeConfiguration(
  doc: unknown,
  registry: PluginCatalog,
): { config: KubeSchedulerConfiguration; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const source = doc === null || doc === undefined ? {} : doc;
  if (!isPlainObject(source)) {
    errors.push(fieldInvalid('', describe(source), `must be a ${SchedulerConfigKind} object`));
    return { config: {}, errors };
  }
  if (!checkTypeMeta(source, errors)) return { config: {}, errors };
  const config = (decodeValue(source, configurationSchema, '', errors) ?? {}) as KubeSchedulerConfiguration;
  // A value that failed to decode leaves a hole where a profile or an entry was: report what
  // was found so far rather than read plugin args out of a partial structure.
  if (errors.length > 0) return { config, errors };
  const profiles = config.profiles ?? [];
  for (let i = 0; i < profiles.length; i++) {
    const pluginConfig: PluginConfig[] = profiles[i]!.pluginConfig ?? [];
    for (let j = 0; j < pluginConfig.length; j++) {
      const pc = pluginConfig[j]!;
      const path = `profiles[${i}].pluginConfig[${j}].args`;
      const args = decodePluginArgs(pc.name, pc.args, path, registry, errors);
      pluginConfig[j] = args === undefined ? { name: pc.name } : { name: pc.name, args };
    }
  }
  return { config, errors };
}
