// client-node's KubeConfig, re-exported: `npm run build` replaces this module's compiled form in
// dist/ by one bundle of it (src/build/kube_config_bundle.ts), as importing the package file by
// file costs `run` about half a second of its start (its index loads every generated API model).
export { KubeConfig } from '@kubernetes/client-node';
