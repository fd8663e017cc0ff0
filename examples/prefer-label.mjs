// An out-of-tree plugin: scores nodes that carry a configured label (e.g. `tier: premium`) at
// MaxNodeScore and the others at 0, and can require the label at Filter.
//
//   kube-scheduler-ts simulate scenario.yaml --plugins examples/prefer-label.mjs --config examples/prefer-label-config.yaml
//
// A plugins module exports `plugins`: an array of PluginDefinitions (see src/framework/registry.ts).
import { Status } from 'kube-scheduler-ts';

const name = 'PreferLabel';

function defaultArgs(given) {
  return { key: given.key ?? 'tier', value: given.value ?? 'premium', required: given.required ?? false };
}

function validateArgs(args, path) {
  return typeof args.key === 'string' && args.key !== ''
    ? []
    : [{ path: `${path}.key`, message: `Required value: a label key` }];
}

function factory(args) {
  const hasLabel = (nodeInfo) => nodeInfo.node?.metadata.labels?.[args.key] === args.value;
  return {
    name,
    filter(_state, _pod, nodeInfo) {
      if (!args.required || hasLabel(nodeInfo)) return null;
      return Status.unresolvable(`node(s) didn't have label ${args.key}=${args.value}`);
    },
    score(_state, _pod, nodeInfo) {
      return hasLabel(nodeInfo) ? 100 : 0;
    },
    // Nothing of the pod decides: every pod may share a signature (opportunistic batching).
    signPod() {
      return [];
    },
  };
}

export const plugins = [{ name, argsKind: 'PreferLabelArgs', factory, defaultArgs, validateArgs }];
