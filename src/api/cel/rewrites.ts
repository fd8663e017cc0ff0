// Two source rewrites that make cel-js read a selector as cel-go does:
// - cel-js's has() accepts only a chain of field selections from a variable, `has(a.b.c)`;
//   cel-go accepts any operand, as in `has(device.attributes["dra.example.com"].model)`, the
//   guard upstream's own error hint recommends. Such a has(x.f) becomes the equivalent
//   `(x).?f.hasValue()` (optional types are on here): both are true exactly when x has f.
// - a lookup of a missing domain in device.attributes or device.capacity gives an empty map
//   (upstream's map with a default), which cel-js's `in` cannot tell from a present domain, as
//   it is a lookup too; upstream's `in` sees only the domains present. `k in device.attributes`
//   becomes `device.attributes.exists(domain__, domain__ == (k))`, which iterates those.
import type { ASTNode } from '@marcbachmann/cel-js';
import { forEachChild } from './ast.js';

interface Span {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}


/** Whether cel-js's own has() takes this operand: selections down to an identifier. */
function isSelectionChain(node: ASTNode): boolean {
  let n: ASTNode = node;
  while (n.op === '.' || n.op === '.?') n = (n.args as [ASTNode, string])[0];
  return n.op === 'id';
}

/** `device.attributes` or `device.capacity`, the maps whose lookups default to an empty map. */
function isDomainMap(node: ASTNode): boolean {
  if (node.op !== '.') return false;
  const [inner, field] = node.args as [ASTNode, string];
  return inner.op === 'id' && inner.args === 'device' && (field === 'attributes' || field === 'capacity');
}

function sourceOf(expression: string, node: ASTNode & { start?: number; end?: number }): string | undefined {
  return node.start !== undefined && node.end !== undefined ? expression.slice(node.start, node.end) : undefined;
}

/** The source with the rewrites above applied, or null when none applies. */
export function rewriteForCelJs(expression: string, ast: ASTNode): string | null {
  const spans: Span[] = [];
  const visit = (node: ASTNode): void => {
    const at = node as ASTNode & { start?: number; end?: number };
    if (node.op === 'in') {
      const [key, map] = node.args as [ASTNode, ASTNode];
      const keyText = sourceOf(expression, key);
      const mapText = sourceOf(expression, map);
      if (isDomainMap(map) && keyText !== undefined && mapText !== undefined && at.start !== undefined && at.end !== undefined) {
        spans.push({ start: at.start, end: at.end, text: `${mapText}.exists(domain__, domain__ == (${keyText}))` });
        return;
      }
    }
    if (node.op === 'call') {
      const [name, callArgs] = node.args as [string, ASTNode[]];
      const operand = callArgs[0];
      if (name === 'has' && callArgs.length === 1 && operand && operand.op === '.' && !isSelectionChain(operand)) {
        const [inner, field] = operand.args as [ASTNode & { start?: number; end?: number }, string];
        const call = node as ASTNode & { start?: number; end?: number };
        if (call.start !== undefined && call.end !== undefined && inner.start !== undefined && inner.end !== undefined) {
          spans.push({ start: call.start, end: call.end, text: `(${expression.slice(inner.start, inner.end)}).?${field}.hasValue()` });
          return;
        }
      }
    }
    forEachChild(node, visit);
  };
  visit(ast);
  if (spans.length === 0) return null;
  let out = expression;
  // From the end, so earlier offsets stay valid.
  spans.sort((a, b) => b.start - a.start);
  for (const span of spans) out = out.slice(0, span.start) + span.text + out.slice(span.end);
  return out;
}
