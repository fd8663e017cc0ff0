// A worst-case cost estimate of a selector, in the spirit of cel-go's checker cost estimator
// with the DRA size bounds of compile.go's sizeEstimator: every node costs 1, a comprehension
// costs its range's maximum size times its body, string functions scale with string length.
// cel-js has no estimator of its own; this one is an approximation (see index.ts).
import type { ASTNode } from '@marcbachmann/cel-js';

/** resourceapi.ResourceSliceMaxAttributesAndCapacitiesPerDevice: domains and names per device. */
const MAX_ATTRIBUTES = 32;
/** resourceapi.DeviceAttributeMaxValueLength: the longest string attribute. */
const MAX_VALUE_LENGTH = 64;
/** What an unbounded value counts as: large enough that iterating over it is "too complex". */
const UNBOUNDED = 1_000_000_000;

const MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter', 'transformList', 'transformMap']);
const STRING_SCANS = new Set(['contains', 'startsWith', 'endsWith', 'matches', 'find', 'findAll', 'indexOf', 'lastIndexOf', 'replace', 'split', 'lowerAscii', 'upperAscii', 'trim']);

interface Estimate {
  cost: number;
  /** The largest size (elements or characters) the value can have. */
  size: number;
}

/** The estimated maximum cost of one evaluation. */
export function estimateCost(ast: ASTNode): number {
  return Math.ceil(estimate(ast, 0).cost);
}

function isNode(v: unknown): v is ASTNode {
  return typeof v === 'object' && v !== null && 'op' in v;
}

/** `depth` counts the selections below `device`: device(0).attributes(1)[domain](2)[name](3). */
function deviceDepth(node: ASTNode): number {
  if (node.op === 'id') return node.args === 'device' ? 0 : -1;
  if (node.op === '.' || node.op === '[]' || node.op === '.?' || node.op === '[?]') {
    const args = node.args as unknown[];
    const parent = args[0];
    if (!isNode(parent)) return -1;
    const d = deviceDepth(parent);
    return d < 0 ? -1 : d + 1;
  }
  return -1;
}

function sizeAtDeviceDepth(depth: number): number {
  if (depth === 1 || depth === 2) return MAX_ATTRIBUTES;
  if (depth === 3) return MAX_VALUE_LENGTH;
  return UNBOUNDED;
}

function estimate(node: ASTNode, rangeSize: number): Estimate {
  const args = node.args as unknown;
  switch (node.op) {
    case 'value':
      return { cost: 0, size: typeof args === 'string' ? args.length : 1 };
    case 'id':
      return { cost: 1, size: rangeSize > 0 ? MAX_VALUE_LENGTH : UNBOUNDED };
    case '.':
    case '.?':
    case '[]':
    case '[?]': {
      const list = args as unknown[];
      let cost = 1;
      for (const a of list) if (isNode(a)) cost += estimate(a, rangeSize).cost;
      const depth = deviceDepth(node);
      return { cost, size: depth >= 0 ? sizeAtDeviceDepth(depth) : MAX_VALUE_LENGTH };
    }
    case 'rcall': {
      const [name, receiver, callArgs] = args as [string, ASTNode, ASTNode[]];
      const target = estimate(receiver, rangeSize);
      if (MACROS.has(name)) {
        const range = Math.min(target.size, UNBOUNDED);
        const body = callArgs.length > 0 ? estimate(callArgs[callArgs.length - 1]!, range) : { cost: 0, size: 0 };
        return { cost: target.cost + range * (body.cost + 1), size: range };
      }
      let cost = 1 + target.cost;
      for (const a of callArgs) cost += estimate(a, rangeSize).cost;
      if (STRING_SCANS.has(name)) cost += Math.ceil(0.1 * Math.min(target.size, UNBOUNDED));
      return { cost, size: target.size };
    }
    case 'call': {
      const [, callArgs] = args as [string, ASTNode[]];
      let cost = 1;
      let size = 1;
      for (const a of callArgs) {
        const e = estimate(a, rangeSize);
        cost += e.cost;
        size = Math.max(size, e.size);
      }
      return { cost, size };
    }
    default: {
      let cost = 1;
      let size = 0;
      const list = Array.isArray(args) ? (args as unknown[]) : [];
      for (const a of list) {
        if (isNode(a)) {
          const e = estimate(a, rangeSize);
          cost += e.cost;
          size += 1;
        } else if (Array.isArray(a)) {
          for (const b of a) if (isNode(b)) cost += estimate(b, rangeSize).cost;
          size += a.length;
        }
      }
      return { cost, size: Math.max(size, 1) };
    }
  }
}
