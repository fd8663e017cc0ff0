// The actual cost of one evaluation, stopped at a limit as cel-go's interpreter does
// (github.com/google/cel-go interpreter/runtimecost.go, CostTrackerLimit).
//
// cel-js has no evaluation hook, so the cost is counted where it can grow: every iteration of a
// comprehension. Outside comprehensions an expression's cost is bounded by its length (device
// values are bounded too), far below the limit. compileCostTracking() wraps each comprehension's
// per-iteration argument in the `iteration__(cost, body)` macro, which charges the iteration's
// estimated cost (cost.ts: the loop step plus the body, without the nested loops, which charge
// for themselves) before running the body. Iterations never outnumber the estimated range sizes,
// so the charges stay within the expression's estimated cost: an expression that passes
// validation's estimate check is never stopped, as upstream. Above that, per-iteration estimates
// exceed cel-go's actual costs, so an evaluation may stop a little earlier than upstream's.
import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { iterationCosts } from './cost.js';
import { CelLibraryError } from './libraries.js';
import { forEachChild, type Located } from './ast.js';

/** cel-go's error when an evaluation's actual cost goes over the limit. */
export const COST_LIMIT_EXCEEDED = 'operation cancelled: actual cost limit exceeded';

const ITERATION_MACRO = 'iteration__';

/**
 * The meter of the evaluation running now. Evaluation is synchronous and never nested (no CEL
 * function evaluates CEL), so one meter serves all; CompilationResult resets it per evaluation.
 */
const meter = { spent: 0, limit: Number.POSITIVE_INFINITY };

/** One error object, thrown again on every charge after the limit: cheap, as loops may catch it. */
const exceeded = new CelLibraryError(COST_LIMIT_EXCEEDED);

export function startMetering(limit: number): void {
  meter.spent = 0;
  meter.limit = limit;
}

/** Whether the evaluation that just ran went over its limit (some errors are swallowed by `||`). */
export function limitExceeded(): boolean {
  return meter.spent > meter.limit;
}

/** Adds `cost` to the evaluation's cost; library functions whose work grows with their input call it too. */
export function chargeCost(cost: number): void {
  meter.spent += cost;
  if (meter.spent > meter.limit) throw exceeded;
}

interface MacroChecker {
  check(node: ASTNode, ctx: unknown): unknown;
}
interface MacroEvaluator {
  run(node: ASTNode, ctx: unknown): unknown;
}
interface IterationMacro {
  readonly cost: number;
  readonly body: ASTNode;
}

/** Registers the iteration macro: transparent to types, values and errors of its body. */
export function registerIterationMacro(env: Environment): Environment {
  return env.registerFunction(`${ITERATION_MACRO}(ast, ast): dyn`, ({ args }: { args: ASTNode[] }) => ({
    cost: Number(args[0]!.args),
    body: args[1]!,
    typeCheck: (checker: MacroChecker, macro: IterationMacro, ctx: unknown) => checker.check(macro.body, ctx),
    evaluate: (evaluator: MacroEvaluator, macro: IterationMacro, ctx: unknown) => {
      chargeCost(macro.cost);
      return evaluator.run(macro.body, ctx);
    },
  }));
}

/** Comprehension macros and how many iteration variables each form declares. */
function iterationVariables(name: string, argCount: number): number | undefined {
  switch (name) {
    case 'map':
    case 'filter':
      return argCount >= 2 ? 1 : undefined;
    case 'all':
    case 'exists':
    case 'exists_one':
      return argCount === 2 ? 1 : argCount === 3 ? 2 : undefined;
    case 'existsOne':
      return argCount === 3 ? 2 : undefined;
    case 'transformList':
    case 'transformMap':
    case 'transformMapEntry':
      return argCount === 3 || argCount === 4 ? 2 : undefined;
    default:
      return undefined;
  }
}


/**
 * The source with each comprehension's per-iteration argument wrapped in the iteration macro,
 * or null when the expression has no comprehension (nothing to meter).
 */
export function compileCostTracking(expression: string, ast: ASTNode): string | null {
  const costs = iterationCosts(ast);
  const inserts: { at: number; text: string }[] = [];
  const visit = (node: ASTNode): void => {
    if (node.op === 'rcall') {
      const [name, , callArgs] = node.args as [string, ASTNode, Located[]];
      const vars = iterationVariables(name, callArgs.length);
      const body = vars === undefined ? undefined : callArgs[vars];
      const cost = costs.get(node);
      if (vars !== undefined && cost !== undefined && body?.start !== undefined && body.end !== undefined) {
        inserts.push({ at: body.start, text: `${ITERATION_MACRO}(${Math.min(Math.ceil(cost), Number.MAX_SAFE_INTEGER)}, ` }, { at: body.end, text: ')' });
      }
    }
    forEachChild(node, visit);
  };
  visit(ast);
  if (inserts.length === 0) return null;
  // From the end, so earlier offsets stay valid; at one offset, a closing parenthesis of an inner
  // body goes before the opening of nothing else (bodies nest, they never share a start).
  inserts.sort((a, b) => b.at - a.at);
  let out = expression;
  for (const { at, text } of inserts) out = out.slice(0, at) + text + out.slice(at);
  return out;
}
