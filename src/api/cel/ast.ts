// Walking cel-js's parsed expressions: the source rewrites and the runtime cost instrumentation
// both visit every node's children.
import type { ASTNode } from '@marcbachmann/cel-js';

/** A parsed node with its place in the source (cel-js records it on most nodes). */
export type Located = ASTNode & { start?: number; end?: number };

function isNode(v: unknown): v is Located {
  return typeof v === 'object' && v !== null && 'op' in v;
}

/** Calls `visit` on each direct child of `node` (its arguments, nested one or two lists deep). */
export function forEachChild(node: ASTNode, visit: (child: Located) => void): void {
  const args = node.args as unknown;
  if (isNode(args)) visit(args);
  else if (Array.isArray(args)) {
    for (const a of args) {
      if (isNode(a)) visit(a);
      else if (Array.isArray(a)) for (const b of a) if (isNode(b)) visit(b);
    }
  }
}
