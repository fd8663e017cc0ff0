// The Go differential harness (upstream/cmd/harness): finds Go, builds the binary into
// upstream/bin/ (Go's build cache makes a rebuild without changes take a second or two) and runs
// it on one scenario file.
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExplainPod } from '../../src/sim/explain/explain.js';

export const upstreamDir = join(dirname(fileURLToPath(import.meta.url)), '../../upstream');
export const binDir = join(upstreamDir, 'bin');

/** The `go` command: $GO, else `go` on PATH, else the default install location. */
export function findGo(): string | null {
  const candidates = [process.env.GO, ...(process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'go')), '/usr/local/go/bin/go'];
  for (const c of candidates) {
    if (!c) continue;
    try {
      accessSync(c, constants.X_OK);
      return c;
    } catch {
      // not here
    }
  }
  return null;
}

/** Builds a package of upstream/'s module into upstream/bin/NAME, niced: the machine's cores are shared. */
export function buildCommand(go: string, name: string, pkg = `./cmd/${name}`): string {
  const out = join(binDir, name);
  execFileSync('nice', ['-n', '15', go, 'build', '-o', out, pkg], { cwd: upstreamDir, stdio: ['ignore', 'inherit', 'inherit'] });
  return out;
}

/** The Go tests of upstream/'s own code (its scenario reader); Go caches a passing run. */
export function testHarness(go: string): void {
  execFileSync('nice', ['-n', '15', go, 'test', './internal/...'], { cwd: upstreamDir, stdio: ['ignore', 'inherit', 'inherit'] });
}

export class HarnessError extends Error {
  override name = 'HarnessError';
}

/** Upstream's decisions for one scenario file, in the `explain --tie-break name` schema. */
export function runHarness(binary: string, scenarioPath: string, featureGates = ''): { pods: ExplainPod[] } {
  const r = spawnSync(binary, ['-feature-gates', featureGates, scenarioPath], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 300_000 });
  if (r.error) throw new HarnessError(`${scenarioPath}: ${r.error.message}`);
  if (r.status !== 0) throw new HarnessError(`${scenarioPath}: harness exited ${r.status}: ${r.stderr.trim().split('\n').slice(-5).join('\n')}`);
  return JSON.parse(r.stdout) as { pods: ExplainPod[] };
}

/** One gate as the pinned kube-scheduler holds it (`harness -list-feature-gates`). */
export interface UpstreamGate {
  name: string;
  default: boolean;
  lockToDefault: boolean;
  /** featuregate's prerelease: "" for GA. */
  preRelease: string;
  dependsOn?: string[];
}

export function listUpstreamGates(binary: string): UpstreamGate[] {
  return JSON.parse(execFileSync(binary, ['-list-feature-gates'], { encoding: 'utf8' })) as UpstreamGate[];
}
