// cel-js's has() accepts only a chain of field selections from a variable, `has(a.b.c)`;
// cel-go accepts any operand, as in `has(device.attributes["dra.example.com"].model)`, the
// guard upstream's own error hint recommends. Such a has(x.f) is rewritten in the source to
// the equivalent `(x).?f.hasValue()` (optional types are on in this environment): both are
// true exactly when x has the field or key f.
import type { ASTNode } from '@marcbachmann/cel-js';

interface Span {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

function isNode(v: unknown): v is ASTNode & { start?: number; end?: number } {
  return typeof v === 'object' && v !== null && 'op' in v;
}

function forEachChild(node: ASTNode, visit: (child: ASTNode) => void): void {
  const args = node.args as unknown;
  if (isNode(args)) visit(args);
  else if (Array.isArray(args)) {
    for (const a of args) {
      if (isNode(a)) visit(a);
      else if (Array.isArray(a)) for (const b of a) if (isNode(b)) visit(b);
    }
  }
}

/** Whether cel-js's own has() takes this operand: selections down to an identifier. */
function isSelectionChain(node: ASTNode): boolean {
  let n: ASTNode = node;
  while (n.op === '.' || n.op === '.?') n = (n.args as [ASTNode, string])[0];
  return n.op === 'id';
}

/** The source with every has() cel-js would refuse rewritten, or null when there is none. */
export function rewriteHasOperands(expression: string, ast: ASTNode): string | null {
  const spans: Span[] = [];
  const visit = (node: ASTNode): void => {
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
