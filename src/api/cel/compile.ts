// The DRA device-selector CEL environment: compile once, evaluate per device. Mirrors
// k8s.io/dynamic-resource-allocation/cel/compile.go and errors.go at v0.37.2, on cel-js.
import { Environment } from '@marcbachmann/cel-js';
import type { ParseResult } from '@marcbachmann/cel-js';
import type { DeviceAttribute, DeviceCapacity } from '../dra_types.js';
import { parseQuantity, type Quantity } from '../quantity.js';
import { CelLibraryError, registerKubernetesLibraries } from './libraries.js';
import { parseSemver, type Semver } from './semver.js';
import { estimateCost } from './cost.js';
import { registerExtensions, registerIncludes } from './extensions.js';
import { registerTwoVariableComprehensions } from './comprehensions.js';
import { registerNetworkLibraries } from './network.js';
import { registerFormatLibrary } from './format.js';
import { rewriteForCelJs } from './rewrites.js';
import { COST_LIMIT_EXCEEDED, compileCostTracking, limitExceeded, registerIterationMacro, startMetering } from './runtime-cost.js';

/** resourceapi.CELSelectorExpressionMaxCost: the per-evaluation cost limit of a selector. */
export const CELSelectorExpressionMaxCost = 1_000_000;

/** The features that change the environment (cel.Features upstream). */
export interface CelFeatures {
  readonly consumableCapacity: boolean;
  readonly listTypeAttributes: boolean;
}

/**
 * The pin's defaults for the environment (pkg/features at v1.37.2): DRAConsumableCapacity is on
 * (beta), DRAListTypeAttributes off (alpha).
 */
export const DefaultCelFeatures: CelFeatures = Object.freeze({ consumableCapacity: true, listTypeAttributes: false });

/** apiservercel.Error: Invalid for a bad expression, Internal for an environment problem. */
export interface CelError {
  readonly type: 'Invalid' | 'Internal';
  readonly detail: string;
}

/** A runtime error of one evaluation, in cel-go's words (e.g. `no such key: model`). */
export class CelEvaluationError extends Error {}

/** What a selector sees of a device (cel.Device upstream). */
export interface DeviceInput {
  readonly driver: string;
  readonly allowMultipleAllocations?: boolean;
  readonly attributes?: Readonly<Record<string, DeviceAttribute>>;
  readonly capacity?: Readonly<Record<string, DeviceCapacity>>;
}

type AttributeValue = bigint | boolean | string | Semver | bigint[] | boolean[] | string[] | Semver[];
type DomainMap<V> = Map<string, Map<string, V>>;

/**
 * The `device` variable's value: the kubernetes.DRADevice object type. Its attribute and capacity
 * maps are built when a selector first reads them: most class selectors read the driver only, and
 * a GPU cluster has tens of thousands of devices (the maps, BigInts and parsed versions were most
 * of an activation's cost).
 */
class DRADevice {
  #attributes: DomainMap<AttributeValue> | null = null;
  #capacity: DomainMap<Quantity> | null = null;
  readonly #input: DeviceInput;

  constructor(
    readonly driver: string,
    readonly allowMultipleAllocations: boolean,
    input: DeviceInput,
  ) {
    this.#input = input;
  }

  get attributes(): DomainMap<AttributeValue> {
    return (this.#attributes ??= withEmptyDefault(attributesOf(this.#input)));
  }

  get capacity(): DomainMap<Quantity> {
    return (this.#capacity ??= withEmptyDefault(capacityOf(this.#input)));
  }
}

const EMPTY_MAP = new Map<string, never>();

/**
 * A domain map whose lookups of a missing domain give an empty map, as upstream's
 * newStringInterfaceMapWithDefault: `device.attributes["other.io"].x` is then a missing-key
 * error on `x`, not on the domain. A Proxy keeps it a Map to cel-js (it dispatches on
 * `constructor`), without patching Map itself.
 */
function withEmptyDefault<V>(inner: DomainMap<V>): DomainMap<V> {
  const get = (key: string): Map<string, V> => inner.get(key) ?? EMPTY_MAP;
  return new Proxy(inner, {
    get(target, prop) {
      if (prop === 'get') return get;
      if (prop === 'constructor') return Map;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** One device's activation, built once per device and allocation and shared by every selector. */
export class DeviceActivation {
  readonly vars: { readonly device: DRADevice };

  constructor(input: DeviceInput) {
    // Upstream converts every attribute for each evaluation, so a bad one fails every selector,
    // also one that reads the driver only: checked here, the maps themselves made when read.
    checkAttributes(input);
    this.vars = { device: new DRADevice(input.driver, input.allowMultipleAllocations ?? false, input) };
  }
}

function attributesOf(input: DeviceInput): DomainMap<AttributeValue> {
  return byDomain(input.attributes, input.driver, attributeValue);
}

function capacityOf(input: DeviceInput): DomainMap<Quantity> {
  return byDomain(input.capacity, input.driver, (_name, cap) => parseQuantity(cap.value));
}

/** The entries by domain, then name within it (a name without a domain is the driver's). */
function byDomain<E, V>(entries: Readonly<Record<string, E>> | undefined, driver: string, valueOf: (name: string, entry: E) => V): DomainMap<V> {
  const out: DomainMap<V> = new Map();
  for (const [name, entry] of Object.entries(entries ?? {})) {
    const [domain, id] = splitQualifiedName(name, driver);
    let inner = out.get(domain);
    if (!inner) out.set(domain, (inner = new Map()));
    inner.set(id, valueOf(name, entry));
  }
  return out;
}

/**
 * Throws what the attribute map would throw for the first attribute it refuses: each value is
 * converted and dropped (cheap: versions are kept parsed; the maps are what cost).
 */
function checkAttributes(input: DeviceInput): void {
  const attributes = input.attributes;
  if (attributes === undefined) return;
  for (const name in attributes) attributeValue(name, attributes[name]!);
}

/** Versions already parsed, by text (immutable Semvers shared by every device that reports them). */
const versions = new Map<string, Semver>();

function checkedVersion(name: string, text: string): Semver {
  let v = versions.get(text);
  if (v === undefined) {
    try {
      v = parseSemver(text);
    } catch (err) {
      throw new CelEvaluationError(`attribute ${name}: parse semantic version: ${(err as Error).message}`);
    }
    if (versions.size >= 4096) versions.clear();
    versions.set(text, v);
  }
  return v;
}

/** parseQualifiedName: a name without a domain belongs to the driver's domain. */
function splitQualifiedName(name: string, defaultDomain: string): [string, string] {
  const sep = name.indexOf('/');
  return sep < 0 ? [defaultDomain, name] : [name.slice(0, sep), name.slice(sep + 1)];
}

function attributeValue(name: string, attr: DeviceAttribute): AttributeValue {
  try {
    if (attr.ints !== undefined) return attr.ints.map((v) => BigInt(v));
    if (attr.bools !== undefined) return attr.bools;
    if (attr.strings !== undefined) return attr.strings;
    if (attr.versions !== undefined) return attr.versions.map(parseSemver);
    if (attr.int !== undefined) return BigInt(attr.int);
    if (attr.bool !== undefined) return attr.bool;
    if (attr.string !== undefined) return attr.string;
    if (attr.version !== undefined) return checkedVersion(name, attr.version);
  } catch (err) {
    if (err instanceof CelEvaluationError) throw err;
    throw new CelEvaluationError(`attribute ${name}: parse semantic version: ${(err as Error).message}`);
  }
  throw new CelEvaluationError(`attribute ${name}: unsupported attribute value`);
}

/** A compiled selector (CompilationResult upstream): `error` set when it cannot be used. */
export class CompilationResult {
  constructor(
    readonly expression: string,
    readonly error: CelError | null,
    private readonly program: ParseResult | null,
    /** The estimated worst-case cost (Number.MAX_SAFE_INTEGER when not estimated). */
    readonly maxCost: number,
    /** The actual cost at which an evaluation stops (CostLimit upstream). */
    readonly costLimit: number = CELSelectorExpressionMaxCost,
  ) {}

  /**
   * DeviceMatches: the selector's verdict on one device. Throws CelEvaluationError with
   * cel-go's wording for runtime errors (a missing attribute is `no such key: <name>`).
   */
  deviceMatches(activation: DeviceActivation): boolean {
    if (this.program === null) throw new CelEvaluationError(this.error?.detail ?? 'expression not compiled');
    let result: unknown;
    startMetering(this.costLimit);
    try {
      result = this.program(activation.vars);
    } catch (err) {
      throw new CelEvaluationError(limitExceeded() ? COST_LIMIT_EXCEEDED : celGoWording(err));
    }
    // `||` and exists() may swallow the error; the evaluation is over the limit all the same.
    if (limitExceeded()) throw new CelEvaluationError(COST_LIMIT_EXCEEDED);
    if (typeof result !== 'boolean') {
      throw new CelEvaluationError(`CEL result of type ${celTypeName(result)} could not be converted to bool: type conversion error`);
    }
    return result;
  }
}

/** cel-js's runtime messages in cel-go's form (the first line, lower-case start); library errors as they are. */
function celGoWording(err: unknown): string {
  // A library function's own error is already in upstream's words.
  const cause = err instanceof CelLibraryError ? err : (err as { cause?: unknown }).cause;
  if (cause instanceof CelLibraryError) return cause.message;
  const summary = (err as { summary?: string }).summary ?? (err instanceof Error ? err.message.split('\n')[0]! : String(err));
  return summary.length > 0 ? summary[0]!.toLowerCase() + summary.slice(1) : summary;
}

function celTypeName(v: unknown): string {
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'string') return 'string';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Map) return 'map';
  return typeof v;
}

/** Options of one compilation (cel.Options upstream). */
export interface CompileOptions {
  /** Skip the cost estimate (the scheduler's cache does; validation does not). */
  readonly disableCostEstimation?: boolean;
  /** The actual cost at which an evaluation stops; CELSelectorExpressionMaxCost by default. */
  readonly costLimit?: number;
}

/** The environment for one feature set, built once (GetCompiler upstream). */
export class DeviceSelectorCompiler {
  /** What a selector may use. */
  private readonly env: Environment;
  /** The same with the iteration macro of runtime-cost.ts, which selectors cannot call. */
  private readonly meteredEnv: Environment;

  constructor(readonly features: CelFeatures) {
    const fields: Record<string, string> = {
      driver: 'string',
      attributes: 'map<string, map<string, dyn>>',
      capacity: 'map<string, map<string, kubernetes.Quantity>>',
    };
    if (features.consumableCapacity) fields.allowMultipleAllocations = 'bool';
    // The apiserver's base environment enables optional types and homogeneous literals.
    let env = registerTwoVariableComprehensions(
      registerFormatLibrary(registerNetworkLibraries(registerExtensions(registerKubernetesLibraries(new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: true }))))),
    );
    if (features.listTypeAttributes) env = registerIncludes(env);
    this.env = env.registerType('kubernetes.DRADevice', { ctor: DRADevice, fields }).registerVariable('device', 'kubernetes.DRADevice');
    this.meteredEnv = registerIterationMacro(this.env.clone());
  }

  compile(expression: string, options: CompileOptions = {}): CompilationResult {
    const failed = (type: CelError['type'], detail: string): CompilationResult => new CompilationResult(expression, { type, detail }, null, Number.MAX_SAFE_INTEGER);
    const invalid = (detail: string): CompilationResult => failed('Invalid', detail);
    let program: ParseResult;
    // The cost is the user's expression's, not that of its rewritten form.
    let costAst: ParseResult['ast'];
    let source = expression;
    try {
      program = this.env.parse(expression);
      costAst = program.ast;
      const rewritten = rewriteForCelJs(expression, program.ast);
      if (rewritten !== null) program = this.env.parse((source = rewritten));
    } catch (err) {
      return invalid(`compilation failed: ${issueText(expression, err)}`);
    }
    const checked = program.check();
    if (!checked.valid) return invalid(`compilation failed: ${issueText(expression, checked.error)}`);
    const outputType = checked.type ?? 'dyn';
    if (outputType !== 'bool' && outputType !== 'dyn') {
      return invalid(`must evaluate to bool or the unknown type, not ${outputType}`);
    }
    // Metering changes no type, so the metered form checks where the plain one did.
    const metered = compileCostTracking(source, program.ast);
    if (metered !== null) {
      program = this.meteredEnv.parse(metered);
      const meteredCheck = program.check();
      if (!meteredCheck.valid) return failed('Internal', `metering the expression: ${String(meteredCheck.error)}`);
    }
    const maxCost = options.disableCostEstimation ? Number.MAX_SAFE_INTEGER : estimateCost(costAst);
    return new CompilationResult(expression, null, program, maxCost, options.costLimit);
  }
}

/** cel-go's issue form: `ERROR: <input>:line:col: message` plus the source line and a caret. */
function issueText(expression: string, err: unknown): string {
  const e = err as { summary?: string; message?: string; range?: { start: number }; node?: { pos?: number } };
  const raw = e.summary ?? e.message?.split('\n')[0] ?? String(err);
  const message = checkerWording(raw);
  const offset = e.range?.start ?? e.node?.pos ?? 0;
  const before = expression.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1);
  const sourceLine = expression.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${column + 1}: ${message}\n | ${sourceLine}\n | ${'.'.repeat(column)}^`;
}

/** cel-go's function names of the operators. */
const OPERATOR_FUNCTIONS: Readonly<Record<string, string>> = {
  '+': '_+_',
  '-': '_-_',
  '*': '_*_',
  '/': '_/_',
  '%': '_%_',
  '==': '_==_',
  '!=': '_!=_',
  '<': '_<_',
  '<=': '_<=_',
  '>': '_>_',
  '>=': '_>=_',
  in: '@in',
};

/** A type as cel-go prints it: list(int), map(string, int). */
const celGoType = (t: string): string => t.replaceAll('<', '(').replaceAll('>', ')');

/** cel-go's checker wording for the common cel-js check errors; others stay as they are. */
function checkerWording(raw: string): string {
  let m: RegExpExecArray | null;
  if ((m = /^Unknown variable: (.*)$/.exec(raw))) return `undeclared reference to '${m[1]}' (in container '')`;
  if ((m = /^No such key: (.*)$/.exec(raw))) return `undefined field '${m[1]}'`;
  if ((m = /^no such overload: (\S+) (\S+) (\S+)$/.exec(raw)) && OPERATOR_FUNCTIONS[m[2]!]) {
    return `found no matching overload for '${OPERATOR_FUNCTIONS[m[2]!]}' applied to '(${celGoType(m[1]!)}, ${celGoType(m[3]!)})'`;
  }
  if ((m = /^no such overload: ([!-])(\S+)$/.exec(raw))) return `found no matching overload for '${m[1]}_' applied to '(${celGoType(m[2]!)})'`;
  if ((m = /^found no matching overload for '([\w.<>, ]+?)\.(\w+)\((.*)\)'$/.exec(raw))) {
    return `found no matching overload for '${m[2]}' applied to '${celGoType(m[1]!)}.(${celGoType(m[3]!)})'`;
  }
  if ((m = /^found no matching overload for '(\w+)\((.*)\)'$/.exec(raw))) return `found no matching overload for '${m[1]}' applied to '(${celGoType(m[2]!)})'`;
  if (raw.startsWith('Expression of type')) return `e${raw.slice(1).replace(/\.$/, '')}`;
  return raw;
}

const compilers = new Map<string, DeviceSelectorCompiler>();

/** The shared compiler for a feature set (built on first use). */
export function getCompiler(features: CelFeatures): DeviceSelectorCompiler {
  const key = `${features.consumableCapacity}/${features.listTypeAttributes}`;
  let compiler = compilers.get(key);
  if (!compiler) compilers.set(key, (compiler = new DeviceSelectorCompiler(features)));
  return compiler;
}

/** EnhanceRuntimeError: a missing-key error gets upstream's hint about optional fields. */
export function enhanceRuntimeError(message: string): string {
  if (message.includes('no such key:') && !message.includes('consider using CEL optional chaining')) {
    return `${message}. consider using CEL optional chaining (.? followed by orValue()) or guarding the check with has() for optional fields`;
  }
  return message;
}
