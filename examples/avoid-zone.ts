// An out-of-tree plugin written in TypeScript, loaded as it is (no build step) by every command:
//
//   kube-scheduler-ts simulate scenario.yaml --plugins examples/avoid-zone.ts --config examples/avoid-zone-config.yaml
//   kube-scheduler-ts run --plugins examples/avoid-zone.ts --config examples/avoid-zone-config.yaml
//
// Keeps pods out of one zone, say one being drained for maintenance. deploy/ mounts this file
// into the Deployment. A plugins module exports `plugins`: an array of PluginDefinitions.
import { Status, type FilterPlugin, type PluginDefinition, type SignPlugin } from 'kube-scheduler-ts';

const name = 'AvoidZone';
const zoneLabel = 'topology.kubernetes.io/zone';

interface AvoidZoneArgs {
  zone: string;
}

const avoidZone: PluginDefinition<AvoidZoneArgs> = {
  name,
  argsKind: 'AvoidZoneArgs',
  defaultArgs: (given) => ({ zone: typeof given.zone === 'string' ? given.zone : '' }),
  validateArgs: (args, path) => (args.zone ? [] : [{ path: `${path}.zone`, message: 'Required value: the zone to keep pods out of' }]),
  factory: (args): FilterPlugin & SignPlugin => ({
    name,
    filter: (_state, _pod, nodeInfo) =>
      nodeInfo.node?.metadata.labels?.[zoneLabel] === args.zone ? Status.unresolvable(`node(s) in avoided zone ${args.zone}`) : null,
    // The verdict reads the node only, so it adds nothing to a pod's signature; without signPod
    // the profile would sign no pod and opportunistic batching would be off for it.
    signPod: () => [],
  }),
};

export const plugins = [avoidZone];
