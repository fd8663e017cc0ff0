// client-node's KubeConfig, re-exported: the one door to the package, which `npm run build` bundles
// with the rest (src/build/bundle.ts), as importing it file by file costs `run` about half a
// second of its start (its index loads every generated API model).
export { KubeConfig } from '@kubernetes/client-node';
