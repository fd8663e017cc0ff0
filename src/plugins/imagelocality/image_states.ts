// Image states of nodes, as the snapshot computes them (backend/cache/snapshot.go
// createImageExistenceMap and getNodeImageStates): every name a node reports for an image, with
// the image's size and how many nodes report that name.
import type { Node } from '../../api/types.js';
import type { ImageStateSummary, NodeInfo } from '../../framework/node_info.js';

/** For each image name, the names of the nodes that have it. */
export function createImageExistenceMap(nodes: readonly Node[]): Map<string, Set<string>> {
  const existence = new Map<string, Set<string>>();
  for (const node of nodes) {
    const nodeName = node.metadata.name ?? '';
    for (const image of node.status?.images ?? []) {
      for (const name of image.names ?? []) {
        let set = existence.get(name);
        if (!set) existence.set(name, (set = new Set()));
        set.add(nodeName);
      }
    }
  }
  return existence;
}

/** The node's images by each of their names; a name listed twice keeps the last image's size. */
function nodeImageStates(node: Node, existence: ReadonlyMap<string, ReadonlySet<string>>): Map<string, ImageStateSummary> {
  const states = new Map<string, ImageStateSummary>();
  for (const image of node.status?.images ?? []) {
    for (const name of image.names ?? []) {
      states.set(name, { size: image.sizeBytes ?? 0, numNodes: existence.get(name)?.size ?? 0 });
    }
  }
  return states;
}

/** Fills `imageStates` of every NodeInfo that has a node, counting spread across them all. */
export function fillImageStates(nodeInfos: readonly NodeInfo[]): void {
  const nodes: Node[] = [];
  for (const ni of nodeInfos) if (ni.node) nodes.push(ni.node);
  const existence = createImageExistenceMap(nodes);
  for (const ni of nodeInfos) if (ni.node) ni.imageStates = nodeImageStates(ni.node, existence);
}
