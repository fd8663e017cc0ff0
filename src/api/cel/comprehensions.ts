// cel-go's two-variable comprehensions (github.com/google/cel-go ext/comprehensions.go), in the
// apiserver's base environment since 1.32: all, exists, existsOne, transformList, transformMap and
// transformMapEntry with an index (list) or key (map) variable and a value variable.
//
// They are cel-js macros with their own typeCheck and evaluate hooks. The two variables are
// declared with the scope methods cel-js's own cel.bind macro uses (forkWithVariable, reuse,
// setIterValue): cel-js types them only inside, so the minimal shapes below name what we call.
import { ParseError, type ASTNode, type Environment } from '@marcbachmann/cel-js';
import { CelLibraryError } from './libraries.js';

interface CelType {
  readonly kind: string;
  isDynOrBool(): boolean;
  readonly keyType?: CelType;
  readonly valueType?: CelType;
}

interface Checker {
  check(node: ASTNode, ctx: Scope): CelType;
  getType(name: string): CelType;
  formatType(type: CelType): string;
  createError(code: string, message: string, node: ASTNode): Error;
  readonly registry: { getListType(t: CelType): CelType; getMapType(k: CelType, v: CelType): CelType };
}

interface Evaluator {
  run(node: ASTNode, ctx: unknown): unknown;
}

/** A checker scope; forking one declares a variable. */
interface Scope {
  forkWithVariable(name: string, type: CelType): VariableScope;
}

/** A scope with one variable, whose value is set per iteration. */
interface VariableScope extends Scope {
  reuse(parent: unknown): VariableScope;
  setIterValue(value: unknown, ev: Evaluator): VariableScope;
}

type Kind = 'all' | 'exists' | 'existsOne' | 'exists_one' | 'transformList' | 'transformMap' | 'transformMapEntry';

interface Comprehension {
  readonly kind: Kind;
  readonly range: ASTNode;
  readonly first: string;
  readonly second: string;
  readonly filter: ASTNode | undefined;
  readonly body: ASTNode;
  firstScope?: VariableScope;
  secondScope?: VariableScope;
}

/** cel-go's accumulator names, which an iteration variable may not take. */
const ACCUMULATORS = new Set(['__result__', '@result']);

function variableName(node: ASTNode): string {
  if (node.op !== 'id') throw new ParseError('argument must be a simple name', node);
  return node.args as string;
}

function parseComprehension(kind: Kind, receiver: ASTNode, args: readonly ASTNode[]): Comprehension {
  const first = variableName(args[0]!);
  const second = variableName(args[1]!);
  if (first === second) throw new ParseError(`duplicate variable name: ${first}`, args[1]!);
  if (ACCUMULATORS.has(first)) throw new ParseError('iteration variable overwrites accumulator variable', args[0]!);
  if (ACCUMULATORS.has(second)) throw new ParseError('iteration variable overwrites accumulator variable', args[1]!);
  const filtered = args.length === 4;
  return { kind, range: receiver, first, second, filter: filtered ? args[2] : undefined, body: args[filtered ? 3 : 2]! };
}

function typeCheck(chk: Checker, c: Comprehension, ctx: Scope): CelType {
  const rangeType = chk.check(c.range, ctx);
  const dyn = chk.getType('dyn');
  let firstType: CelType;
  let secondType: CelType;
  if (rangeType.kind === 'list') [firstType, secondType] = [chk.getType('int'), rangeType.valueType ?? dyn];
  else if (rangeType.kind === 'map') [firstType, secondType] = [rangeType.keyType ?? dyn, rangeType.valueType ?? dyn];
  else if (rangeType.kind === 'dyn') [firstType, secondType] = [dyn, dyn];
  else {
    throw chk.createError('invalid_comprehension_range', `expression of type '${chk.formatType(rangeType)}' cannot be range of a comprehension (must be list, map, or dynamic)`, c.range);
  }
  c.firstScope = ctx.forkWithVariable(c.first, firstType);
  c.secondScope = c.firstScope.forkWithVariable(c.second, secondType);
  const filterType = c.filter ? chk.check(c.filter, c.secondScope) : undefined;
  if (c.filter && filterType && !filterType.isDynOrBool()) {
    throw chk.createError('invalid_macro_argument', `found no matching overload for the ${c.kind}() filter: must be bool, not '${chk.formatType(filterType)}'`, c.filter);
  }
  const bodyType = chk.check(c.body, c.secondScope);
  switch (c.kind) {
    case 'all':
    case 'exists':
    case 'existsOne':
    case 'exists_one':
      if (!bodyType.isDynOrBool()) throw chk.createError('invalid_macro_argument', `found no matching overload for the ${c.kind}() predicate: must be bool, not '${chk.formatType(bodyType)}'`, c.body);
      return chk.getType('bool');
    case 'transformList':
      return chk.registry.getListType(bodyType);
    case 'transformMap':
      return chk.registry.getMapType(firstType, bodyType);
    case 'transformMapEntry':
      if (bodyType.kind !== 'map' && bodyType.kind !== 'dyn') throw chk.createError('invalid_macro_argument', `found no matching overload for the transformMapEntry() transform: must be a map, not '${chk.formatType(bodyType)}'`, c.body);
      return bodyType.kind === 'map' ? bodyType : chk.registry.getMapType(dyn, dyn);
  }
}

/** The (index or key, value) pairs a comprehension ranges over. */
function pairsOf(range: unknown): Iterable<[unknown, unknown]> {
  if (Array.isArray(range)) return range.map((v, i): [unknown, unknown] => [BigInt(i), v]);
  if (range instanceof Map) return range.entries() as Iterable<[unknown, unknown]>;
  // cel-js's own map values are plain objects.
  if (typeof range === 'object' && range !== null && Object.getPrototypeOf(range) === Object.prototype) return Object.entries(range);
  throw new CelLibraryError(`expression of type '${typeof range}' cannot be range of a comprehension`);
}

/** A predicate's verdict, or the error it raised (quantifiers may still decide without it). */
function verdict(ev: Evaluator, node: ASTNode, scope: unknown): boolean | Error {
  try {
    const v = ev.run(node, scope);
    return typeof v === 'boolean' ? v : new CelLibraryError('no such overload');
  } catch (err) {
    return err instanceof Error ? err : new CelLibraryError(String(err));
  }
}

function strictVerdict(ev: Evaluator, node: ASTNode, scope: unknown): boolean {
  const v = verdict(ev, node, scope);
  if (v instanceof Error) throw v;
  return v;
}

function keyText(key: unknown): string {
  return typeof key === 'string' ? key : String(key);
}

function evaluate(ev: Evaluator, c: Comprehension, ctx: unknown): unknown {
  const firstScope = c.firstScope!.reuse(ctx);
  const scope = c.secondScope!.reuse(firstScope);
  const pairs = pairsOf(ev.run(c.range, ctx));
  let firstError: Error | undefined;
  let count = 0;
  const list: unknown[] = [];
  const map = new Map<unknown, unknown>();
  for (const [a, b] of pairs) {
    firstScope.setIterValue(a, ev);
    scope.setIterValue(b, ev);
    if (c.filter && !strictVerdict(ev, c.filter, scope)) continue;
    switch (c.kind) {
      case 'all': {
        // As `&&`: a false decides, whatever errors came before.
        const v = verdict(ev, c.body, scope);
        if (v === false) return false;
        if (v instanceof Error) firstError ??= v;
        break;
      }
      case 'exists': {
        const v = verdict(ev, c.body, scope);
        if (v === true) return true;
        if (v instanceof Error) firstError ??= v;
        break;
      }
      case 'existsOne':
      case 'exists_one':
        if (strictVerdict(ev, c.body, scope)) count++;
        break;
      case 'transformList':
        list.push(ev.run(c.body, scope));
        break;
      case 'transformMap':
        map.set(a, ev.run(c.body, scope));
        break;
      case 'transformMapEntry': {
        for (const [k, v] of pairsOf(ev.run(c.body, scope))) {
          if (map.has(k)) throw new CelLibraryError(`insert failed: key ${keyText(k)} already exists`);
          map.set(k, v);
        }
        break;
      }
    }
  }
  switch (c.kind) {
    case 'all':
    case 'exists':
      if (firstError) throw firstError;
      return c.kind === 'all';
    case 'existsOne':
    case 'exists_one':
      return count === 1;
    case 'transformList':
      return list;
    default:
      return map;
  }
}

const FORMS: readonly [Kind, readonly number[]][] = [
  ['all', [3]],
  ['exists', [3]],
  ['existsOne', [3]],
  ['exists_one', [3]],
  ['transformList', [3, 4]],
  ['transformMap', [3, 4]],
  ['transformMapEntry', [3, 4]],
];

/** Registers the two-variable comprehension macros. */
export function registerTwoVariableComprehensions(env: Environment): Environment {
  for (const [kind, arities] of FORMS) {
    for (const arity of arities) {
      const params = Array.from({ length: arity }, () => 'ast').join(', ');
      env.registerFunction(`list.${kind}(${params}): dyn`, ({ args, receiver }: { args: ASTNode[]; receiver: ASTNode }) => ({
        ...parseComprehension(kind, receiver, args),
        typeCheck,
        evaluate,
      }));
    }
  }
  return env;
}
