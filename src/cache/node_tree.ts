// Nodes grouped by zone, listed round-robin across zones so that the filter walk spreads over
// zones (backend/cache/node_tree.go).
import type { Node } from '../api/types.js';

export function zoneKey(node: Node): string {
  const l = node.metadata.labels ?? {};
  const zone = l['topology.kubernetes.io/zone'] ?? l['failure-domain.beta.kubernetes.io/zone'] ?? '';
  const region = l['topology.kubernetes.io/region'] ?? l['failure-domain.beta.kubernetes.io/region'] ?? '';
  if (zone === '' && region === '') return '';
  return `${region}:\x00:${zone}`;
}

export class NodeTree {
  private readonly zones: string[] = [];
  private readonly tree = new Map<string, string[]>();
  /** Each zone's names as a set: adding 100,000 nodes must not search the list each time. */
  private readonly members = new Map<string, Set<string>>();
  numNodes = 0;

  addNode(node: Node): void {
    const zone = zoneKey(node);
    const name = node.metadata.name!;
    let names = this.tree.get(zone);
    let members = this.members.get(zone);
    if (!names || !members) {
      this.zones.push(zone);
      this.tree.set(zone, (names = []));
      this.members.set(zone, (members = new Set()));
    }
    if (members.has(name)) return;
    members.add(name);
    names.push(name);
    this.numNodes++;
  }

  removeNode(node: Node): boolean {
    const zone = zoneKey(node);
    const names = this.tree.get(zone);
    const name = node.metadata.name!;
    if (!names || !this.members.get(zone)?.delete(name)) return false;
    names.splice(names.indexOf(name), 1);
    if (names.length === 0) {
      this.tree.delete(zone);
      this.members.delete(zone);
      this.zones.splice(this.zones.indexOf(zone), 1);
    }
    this.numNodes--;
    return true;
  }

  /** Moves a node when its zone labels changed. */
  updateNode(oldNode: Node, newNode: Node): void {
    if (zoneKey(oldNode) === zoneKey(newNode)) return;
    this.removeNode(oldNode);
    this.addNode(newNode);
  }

  /** All node names, taking one from each zone in turn. */
  list(): string[] {
    const out: string[] = [];
    for (let idx = 0; out.length < this.numNodes; idx++) {
      for (const zone of this.zones) {
        const names = this.tree.get(zone)!;
        if (idx < names.length) out.push(names[idx]!);
      }
    }
    return out;
  }
}
