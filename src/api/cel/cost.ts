// A worst-case cost estimate of a selector, after cel-go's checker cost estimator with the DRA
// size bounds of compile.go's sizeEstimator: identifiers, selections, index lookups and calls cost
// 1, list and map literals 10 and 30, constants and && / || nothing, string comparisons a tenth of the shorter string, `in` on a
// list its size, and a comprehension its range's maximum size times its loop step. cel-js has no
// estimator of its own; this one reproduces upstream's figures for the usual selector shapes
// (see cost.test.ts) and stays in the same order of magnitude for the rest.
import type { ASTNode } from '@marcbachmann/cel-js';

/** resourceapi.ResourceSliceMaxAttributesAndCapacitiesPerDevice: domains and names per device. */
const MAX_ATTRIBUTES = 32;
/** resourceapi.DeviceAttributeMaxValueLength: the longest attribute value (string or list). */
const MAX_VALUE_LENGTH = 64;
/** The size of a value nothing bounds (cel-go: math.MaxUint64); kept finite for arithmetic. */
const UNBOUNDED = 1e15;

/** cel-go's base costs of creating a list or map literal. */
const LIST_CREATE_COST = 10;
const MAP_CREATE_COST = 30;

/** Per element of the range: the loop condition and the loop step around the macro's body. */
const MACRO_STEP: Readonly<Record<string, number>> = {
  exists: 4,
  all: 3,
  exists_one: 2,
  map: 3,
  filter: 3,
  // The two-variable forms (cel-go ext/comprehensions.go), whose steps are built the same way.
  existsOne: 2,
  transformList: 3,
  transformMap: 3,
  transformMapEntry: 3,
};
/** The macro's result expression. */
const MACRO_RESULT: Readonly<Record<string, number>> = { exists: 1, all: 1, exists_one: 2, map: 1, filter: 1, existsOne: 2, transformList: 1, transformMap: 1, transformMapEntry: 1 };

interface Estimate {
  readonly cost: number;
  /** The largest size (elements or characters) the value can have. */
  readonly size: number;
  /** Whether the value is known to be a string (for comparison costs). */
  readonly isString: boolean;
}

/** How an estimate treats comprehensions. */
interface Mode {
  /** Leave out the iterations of comprehensions (runtime-cost.ts charges those as they run). */
  readonly shallow: boolean;
  /** Where to record each comprehension's cost of one iteration. */
  readonly iterations?: Map<ASTNode, number>;
}

const FULL: Mode = { shallow: false };

/** The estimated maximum cost of one evaluation. */
export function estimateCost(ast: ASTNode): number {
  return Math.ceil(Math.min(estimate(ast, new Map(), FULL).cost, Number.MAX_SAFE_INTEGER));
}

/**
 * The estimated cost of one iteration (loop step and body, without nested loops) of every
 * comprehension in the expression: what runtime-cost.ts charges per iteration.
 */
export function iterationCosts(ast: ASTNode): Map<ASTNode, number> {
  const iterations = new Map<ASTNode, number>();
  estimate(ast, new Map(), { shallow: true, iterations });
  return iterations;
}

function isNode(v: unknown): v is ASTNode {
  return typeof v === 'object' && v !== null && 'op' in v;
}

function children(node: ASTNode): ASTNode[] {
  const args = node.args as unknown;
  if (isNode(args)) return [args];
  if (!Array.isArray(args)) return [];
  const out: ASTNode[] = [];
  for (const a of args) {
    if (isNode(a)) out.push(a);
    else if (Array.isArray(a)) for (const b of a) if (isNode(b)) out.push(b);
  }
  return out;
}

/** How many selections below `device` a node is: device(0).attributes(1)[domain](2)[name](3). */
function deviceDepth(node: ASTNode, scope: ReadonlyMap<string, number>): number {
  if (node.op === 'id') return node.args === 'device' && !scope.has('device') ? 0 : -1;
  if (node.op === '.' || node.op === '[]' || node.op === '.?' || node.op === '[?]') {
    const parent = (node.args as unknown[])[0];
    if (!isNode(parent)) return -1;
    const d = deviceDepth(parent, scope);
    return d < 0 ? -1 : d + 1;
  }
  return -1;
}

function sizeAtDeviceDepth(depth: number): number {
  if (depth === 0) return 4;
  if (depth === 1 || depth === 2) return MAX_ATTRIBUTES;
  return MAX_VALUE_LENGTH;
}

function sumOf(nodes: readonly ASTNode[], scope: ReadonlyMap<string, number>, mode: Mode): number {
  let cost = 0;
  for (const n of nodes) cost += estimate(n, scope, mode).cost;
  return cost;
}

/**
 * `scope` maps comprehension variables to the size of what they range over.
 */
function estimate(node: ASTNode, scope: ReadonlyMap<string, number>, mode: Mode): Estimate {
  const args = node.args as unknown;
  switch (node.op) {
    case 'value':
      return { cost: 0, size: typeof args === 'string' ? args.length : 1, isString: typeof args === 'string' };
    case 'id': {
      const bound = scope.get(args as string);
      return { cost: 1, size: bound ?? (args === 'device' ? 4 : UNBOUNDED), isString: bound !== undefined };
    }
    case '.':
    case '.?':
    case '[]':
    case '[?]': {
      const depth = deviceDepth(node, scope);
      return { cost: 1 + sumOf(children(node), scope, mode), size: depth >= 0 ? sizeAtDeviceDepth(depth) : MAX_VALUE_LENGTH, isString: false };
    }
    case '&&':
    case '||':
    case '?:':
      return { cost: sumOf(children(node), scope, mode), size: 1, isString: false };
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const [l, r] = children(node).map((c) => estimate(c, scope, mode));
      const stringCompare = l!.isString || r!.isString;
      const own = stringCompare ? Math.ceil(0.1 * Math.min(l!.size, r!.size)) : 1;
      return { cost: l!.cost + r!.cost + own, size: 1, isString: false };
    }
    case 'in': {
      const [l, r] = children(node);
      const range = estimate(r!, scope, mode);
      const isList = r!.op === 'list' || deviceDepth(r!, scope) === 3;
      return { cost: estimate(l!, scope, mode).cost + range.cost + (isList ? range.size : 1), size: 1, isString: false };
    }
    case 'list':
      return { cost: LIST_CREATE_COST + sumOf(children(node), scope, mode), size: children(node).length, isString: false };
    case 'map':
      return { cost: MAP_CREATE_COST + sumOf(children(node), scope, mode), size: children(node).length / 2, isString: false };
    case 'rcall':
      return estimateMethod(node, scope, mode);
    case 'call': {
      const [name, callArgs] = args as [string, ASTNode[]];
      // A presence test costs only its operand's target (cel-go: PresenceTestHasCost(false)).
      if (name === 'has' && callArgs.length === 1 && callArgs[0]!.op === '.') {
        return { cost: estimate((callArgs[0]!.args as [ASTNode, string])[0], scope, mode).cost, size: 1, isString: false };
      }
      // Parsing functions cost a tenth of their string (library/cost.go), at least 1.
      const own = STRING_PARSERS.has(name) && callArgs.length === 1 ? Math.max(1, tenth(estimate(callArgs[0]!, scope, mode).size)) : 1;
      const cost = own + sumOf(callArgs, scope, mode);
      return { cost, size: name === 'string' ? MAX_VALUE_LENGTH : 1, isString: name === 'string' };
    }
    default:
      return { cost: 1 + sumOf(children(node), scope, mode), size: 1, isString: false };
  }
}

function estimateMethod(node: ASTNode, scope: ReadonlyMap<string, number>, mode: Mode): Estimate {
  const [name, receiver, callArgs] = node.args as [string, ASTNode, ASTNode[]];
  const target = estimate(receiver, scope, mode);
  if (name === 'bind' && receiver.op === 'id' && receiver.args === 'cel' && callArgs.length === 3) {
    const init = estimate(callArgs[1]!, scope, mode);
    const inner = new Map(scope).set(callArgs[0]!.args as string, init.size);
    // cel.bind is a comprehension over an empty list literal.
    return { cost: LIST_CREATE_COST + init.cost + estimate(callArgs[2]!, inner, mode).cost, size: 1, isString: false };
  }
  const step = MACRO_STEP[name];
  const twoVariables = callArgs.length >= 3 && callArgs[1]!.op === 'id' && name !== 'map';
  if (step !== undefined && callArgs.length >= 2 && callArgs[0]!.op === 'id') {
    const range = Math.min(target.size, UNBOUNDED);
    const inner = new Map(scope);
    // The first variable of a two-variable form is an index or key, the other the value.
    if (twoVariables) inner.set(callArgs[0]!.args as string, 1).set(callArgs[1]!.args as string, MAX_VALUE_LENGTH);
    else inner.set(callArgs[0]!.args as string, MAX_VALUE_LENGTH);
    const body = twoVariables
      ? { cost: sumOf(callArgs.slice(2), inner, mode) }
      : estimate(callArgs[callArgs.length - 1]!, inner, mode);
    mode.iterations?.set(node, body.cost + step);
    const iterations = mode.shallow ? 0 : range * (body.cost + step);
    return { cost: target.cost + iterations + MACRO_RESULT[name]!, size: range, isString: false };
  }
  if (receiver.op === 'id' && (receiver.args === 'sets' || receiver.args === 'lists' || receiver.args === 'strings')) {
    return estimateNamespaced(`${receiver.args}.${name}`, callArgs, callArgs.map((a) => estimate(a, scope, mode)));
  }
  const argCost = target.cost + sumOf(callArgs, scope, mode);
  const firstArg = callArgs.length > 0 ? estimate(callArgs[0]!, scope, mode) : undefined;
  const argSize = firstArg?.size ?? 0;
  const listCost = listFunctionCost(name, Math.min(target.size, UNBOUNDED), callArgs);
  if (listCost !== undefined) return { cost: argCost + listCost.cost, size: listCost.size, isString: false };
  const own = stringFunctionCost(name, Math.min(target.size, UNBOUNDED), argSize, firstArg?.isString ?? false);
  return { cost: argCost + own, size: name === 'split' || name === 'findAll' ? target.size : 1, isString: false };
}

/** cel-go's charge for a call that allocates a list: the call and the list's creation. */
const LIST_CALL_COST = 1 + LIST_CREATE_COST;

/** An integer literal argument's value, or `otherwise`. */
function literalOr(node: ASTNode | undefined, otherwise: number): number {
  const v = node?.op === 'value' ? (node.args as unknown) : undefined;
  return typeof v === 'bigint' && v >= 0n ? Number(v) : otherwise;
}

/** cel-go's ext.Lists estimates (ext/lists.go), for a target list of at most `size` elements. */
function listFunctionCost(name: string, size: number, args: readonly ASTNode[]): { cost: number; size: number } | undefined {
  switch (name) {
    case 'slice': {
      const n = Math.max(0, literalOr(args[1], size) - literalOr(args[0], 0));
      return { cost: n + LIST_CALL_COST, size: n };
    }
    case 'reverse':
      return args.length === 0 ? { cost: size + LIST_CALL_COST, size } : undefined;
    case 'flatten':
      return { cost: literalOr(args[0], args.length === 0 ? 1 : UNBOUNDED) * size + LIST_CALL_COST, size: UNBOUNDED };
    case 'distinct':
    case 'sort':
      return { cost: Math.ceil(2 * size * size) + LIST_CALL_COST, size };
    case 'first':
    case 'last':
      return { cost: 1, size: 1 };
    default:
      return undefined;
  }
}

/** Namespaced functions: cel-go's sets (size × size, twice for equivalent), lists.range, strings.quote. */
function estimateNamespaced(name: string, nodes: readonly ASTNode[], args: readonly Estimate[]): Estimate {
  const argCost = args.reduce((sum, a) => sum + a.cost, 0);
  const [a, b] = args;
  switch (name) {
    case 'sets.contains':
    case 'sets.intersects':
      return { cost: argCost + a!.size * b!.size + 1, size: 1, isString: false };
    case 'sets.equivalent':
      return { cost: argCost + 2 * a!.size * b!.size + 1, size: 1, isString: false };
    case 'lists.range': {
      const n = literalOr(nodes[0], UNBOUNDED);
      return { cost: argCost + n + LIST_CALL_COST, size: n, isString: false };
    }
    default:
      return { cost: argCost + 1, size: MAX_VALUE_LENGTH, isString: true };
  }
}

const tenth = (size: number): number => Math.ceil(0.1 * size);

const STRING_PARSERS = new Set(['ip', 'cidr', 'isIP', 'isCIDR']);

/**
 * The cost of a method call on a string or list of at most `size` (apiserver library/cost.go and
 * cel-go's checker): proportional to the string for scans, 1 for everything else.
 */
function stringFunctionCost(name: string, size: number, argSize: number, argIsString: boolean): number {
  switch (name) {
    case 'matches':
    case 'find':
    case 'findAll':
      return tenth(size + 1) * Math.ceil(0.25 * argSize);
    case 'contains':
      return tenth(size) * tenth(argSize);
    case 'startsWith':
    case 'endsWith':
      return tenth(argSize);
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
      return tenth(size);
    // A named format's check is a regular expression of up to 128 characters over the string.
    case 'validate':
      return Math.ceil(tenth(argSize) * 32);
    // Comparing two addresses of up to 16 bytes; a string argument is parsed first.
    case 'containsIP':
      return 4 + (argIsString ? tenth(argSize) : 0);
    case 'containsCIDR':
      return 7 + (argIsString ? tenth(argSize) : 0);
    case 'replace':
    case 'split':
      return Math.ceil(0.2 * size);
    case 'isSorted':
    case 'sum':
    case 'min':
    case 'max':
    case 'indexOf':
    case 'lastIndexOf':
    case 'includes':
      return size;
    default:
      return 1;
  }
}
