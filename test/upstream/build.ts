// `npm run upstream:build`: builds the pinned release's binaries into upstream/bin/ (gitignored):
// the differential harness, etcd, kube-apiserver, kube-scheduler and kube-controller-manager. Go's module and build caches
// make a rebuild without changes take seconds; a cold one takes minutes (see the README).
import { buildCommand, findGo } from './harness.js';

const commands: [string, string][] = [
  ['harness', './cmd/harness'],
  ['etcd', './cmd/etcd'],
  ['kube-scheduler', 'k8s.io/kubernetes/cmd/kube-scheduler'],
  ['kube-apiserver', 'k8s.io/kubernetes/cmd/kube-apiserver'],
  ['kube-controller-manager', 'k8s.io/kubernetes/cmd/kube-controller-manager'],
];

const go = findGo();
if (!go) {
  console.log('skipped: no Go');
  process.exit(0);
}
for (const [name, pkg] of commands) {
  const started = Date.now();
  buildCommand(go, name, pkg);
  console.log(`built upstream/bin/${name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
