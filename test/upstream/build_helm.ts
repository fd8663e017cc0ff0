// `npm run upstream:helm`: builds `helm` from its Go module into upstream/bin/ (gitignored), the
// tooling test/helm_chart.test.ts renders deploy/charts/kube-scheduler-ts with. Outside upstream/'s
// module: helm's dependencies must not change the pinned release's.
import { execFileSync } from 'node:child_process';
import { binDir, findGo } from './harness.js';

export const helmVersion = 'v3.16.4';

const go = findGo();
if (!go) {
  console.log('skipped: no Go');
  process.exit(0);
}
const started = Date.now();
execFileSync('nice', ['-n', '15', go, 'install', `helm.sh/helm/v3/cmd/helm@${helmVersion}`], {
  env: { ...process.env, GOBIN: binDir },
  stdio: ['ignore', 'inherit', 'inherit'],
});
console.log(`built upstream/bin/helm ${helmVersion} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
