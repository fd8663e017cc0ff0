// A real control plane for end-to-end tests: the pinned release's kube-apiserver over its etcd
// (binaries built into upstream/bin/ by `npm run upstream:build`), on loopback, with a static
// admin token. The API server can be restarted on the same port over the same etcd.
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binDir } from '../upstream/harness.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

export const binaries = {
  etcd: join(binDir, 'etcd'),
  kubeAPIServer: join(binDir, 'kube-apiserver'),
  kubeScheduler: join(binDir, 'kube-scheduler'),
};

/** Why the control plane cannot run here, or null when its binaries are built. */
export function missingBinaries(): string | null {
  const missing = Object.values(binaries).filter((b) => !existsSync(b));
  return missing.length === 0 ? null : `not built: ${missing.join(', ')} (npm run upstream:build, needs Go)`;
}

/** A free loopback port, found by letting the kernel pick one. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}

/**
 * `count` distinct free loopback ports: each listener stays open until all are picked, so the
 * kernel cannot hand the same port out twice (etcd and kube-apiserver once got the same one).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) {
      const s = createServer();
      servers.push(s);
      ports.push(await new Promise<number>((resolve, reject) => {
        s.once('error', reject);
        s.listen(0, '127.0.0.1', () => resolve((s.address() as { port: number }).port));
      }));
    }
    return ports;
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((r) => (s.listening ? s.close(() => r()) : r()))));
  }
}

export interface ApiResponse {
  status: number;
  body: unknown;
}

/** Thrown by a check of `eventually` when waiting longer cannot help (a process exited). */
export class GiveUp extends Error {}

/**
 * Polls `check` every `everyMs` until it returns a value (not undefined) or `timeoutMs` passes;
 * other errors count as "not yet", GiveUp ends the wait at once.
 */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (let i = 0; Date.now() < deadline && i < Math.ceil(timeoutMs / everyMs) + 1; i++) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      if (err instanceof GiveUp) throw err;
      last = err;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** A child process whose output is kept (for the failure message) and which is killed on stop. */
export class Child {
  readonly output: string[] = [];
  readonly exited: Promise<number | null>;
  private readonly proc: ChildProcess;

  constructor(readonly name: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
    this.proc = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer) => {
      this.output.push(chunk.toString());
      if (this.output.length > 400) this.output.splice(0, this.output.length - 400);
    };
    this.proc.stdout!.on('data', keep);
    this.proc.stderr!.on('data', keep);
    this.exited = new Promise((resolve) => this.proc.once('exit', (code) => resolve(code)));
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  get running(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.running) return;
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  kill(): Promise<number | null> {
    if (this.running) this.proc.kill('SIGKILL');
    return this.exited;
  }

  tail(lines = 40): string {
    return this.output.join('').split('\n').slice(-lines).join('\n');
  }
}

export class ControlPlane {
  private apiserver: Child | null = null;

  private constructor(
    readonly dir: string,
    private readonly etcd: Child,
    private readonly apiserverArgs: string[],
    readonly port: number,
    readonly token: string,
    readonly kubeconfig: string,
  ) {}

  /** @param apiserverArgs added to kube-apiserver's flags (feature gates, runtime config). */
  static async start(apiserverArgs: readonly string[] = []): Promise<ControlPlane> {
    const dir = mkdtempSync(join(tmpdir(), 'control-plane-'));
    const [etcdPort, peerPort, apiPort] = (await freePorts(3)) as [number, number, number];
    const etcd = new Child('etcd', binaries.etcd, [
      '--name', 'e2e', '--data-dir', join(dir, 'etcd'), '--log-level', 'warn',
      '--listen-client-urls', `http://127.0.0.1:${etcdPort}`, '--advertise-client-urls', `http://127.0.0.1:${etcdPort}`,
      '--listen-peer-urls', `http://127.0.0.1:${peerPort}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${peerPort}`,
      '--initial-cluster', `e2e=http://127.0.0.1:${peerPort}`,
    ]);
    await eventually('etcd to be healthy', async () => ((await plainGet(`http://127.0.0.1:${etcdPort}/health`)) === 200 ? true : undefined), 30_000).catch((err) => {
      throw new Error(`${(err as Error).message}\n${etcd.tail()}`);
    });

    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(join(dir, 'sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(dir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
    const token = `e2e-${Date.now().toString(36)}`;
    writeFileSync(join(dir, 'tokens.csv'), `${token},admin,admin,system:masters\n`);
    mkdirSync(join(dir, 'certs'));
    const args = [
      '--etcd-servers', `http://127.0.0.1:${etcdPort}`,
      '--bind-address', '127.0.0.1', '--advertise-address', '127.0.0.1', '--secure-port', String(apiPort),
      '--cert-dir', join(dir, 'certs'),
      '--token-auth-file', join(dir, 'tokens.csv'), '--authorization-mode', 'RBAC',
      '--service-account-issuer', 'https://kubernetes.default.svc.cluster.local',
      '--service-account-key-file', join(dir, 'sa.pub'), '--service-account-signing-key-file', join(dir, 'sa.key'),
      '--service-cluster-ip-range', '10.0.0.0/24',
      // The kubernetes Service's endpoints may not be a loopback address; nothing here needs them.
      '--endpoint-reconciler-type', 'none',
      ...apiserverArgs,
    ];
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, [
      'apiVersion: v1', 'kind: Config', 'current-context: e2e',
      'clusters:', '- name: e2e', '  cluster:', `    server: https://127.0.0.1:${apiPort}`, '    insecure-skip-tls-verify: true',
      'users:', '- name: admin', '  user:', `    token: ${token}`,
      'contexts:', '- name: e2e', '  context:', '    cluster: e2e', '    user: admin', '',
    ].join('\n'));
    const cp = new ControlPlane(dir, etcd, args, apiPort, token, kubeconfig);
    await cp.startAPIServer();
    // ServiceAccount admission wants the namespace's default account, which kube-controller-manager
    // (not run here) would create.
    await cp.create('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'default' } });
    return cp;
  }

  private async startAPIServer(): Promise<void> {
    this.apiserver = new Child('kube-apiserver', binaries.kubeAPIServer, this.apiserverArgs);
    const apiserver = this.apiserver;
    await eventually('kube-apiserver to be ready', async () => {
      if (!apiserver.running) throw new GiveUp(`kube-apiserver exited:\n${apiserver.tail()}`);
      return (await this.api('GET', '/readyz')).status === 200 ? true : undefined;
    }, 90_000, 500);
    // Readiness comes before the system namespaces are created.
    for (const ns of ['default', 'kube-system']) {
      await eventually(`the ${ns} namespace`, async () => ((await this.api('GET', `/api/v1/namespaces/${ns}`)).status === 200 ? true : undefined));
    }
  }

  /** Stops kube-apiserver, leaves it down `downMs`, and starts it again on the same port and etcd. */
  async restartAPIServer(downMs = 0): Promise<void> {
    await this.apiserver?.stop();
    if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
    await this.startAPIServer();
  }

  async stop(): Promise<void> {
    await this.apiserver?.stop();
    await this.etcd.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  logs(): string {
    return `--- kube-apiserver\n${this.apiserver?.tail() ?? ''}\n--- etcd\n${this.etcd.tail()}`;
  }

  /** One API request as the admin, JSON in and out. */
  api(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<ApiResponse> {
    return new Promise((resolve, reject) => {
      const data = body === undefined ? undefined : JSON.stringify(body);
      const req = httpsRequest({
        host: '127.0.0.1',
        port: this.port,
        method,
        path,
        rejectUnauthorized: false,
        timeout: 10_000,
        headers: {
          authorization: `Bearer ${this.token}`,
          accept: 'application/json',
          ...(data === undefined ? {} : { 'content-type': contentType, 'content-length': Buffer.byteLength(data) }),
        },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // Not JSON (/readyz answers "ok").
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      });
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timed out`)));
      req.on('error', reject);
      if (data !== undefined) req.write(data);
      req.end();
    });
  }

  /** Creates an object; throws unless the API server accepted it. */
  async create(path: string, body: unknown): Promise<unknown> {
    const r = await this.api('POST', path, body);
    if (r.status !== 201 && r.status !== 200) throw new Error(`POST ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }
}

function plainGet(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { timeout: 2000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error(`${url}: timed out`)));
    req.on('error', reject);
    req.end();
  });
}

/** Our `run` on the control plane with one profile, `schedulerName`, and the given extra flags (feature gates). */
export function startOurs(cp: ControlPlane, schedulerName: string, args: readonly string[] = []): Child {
  const config = join(cp.dir, 'ours.yaml');
  writeFileSync(config, [
    'apiVersion: kubescheduler.config.k8s.io/v1', 'kind: KubeSchedulerConfiguration',
    'clientConnection:', `  kubeconfig: ${cp.kubeconfig}`, 'leaderElection:', '  leaderElect: false',
    'profiles:', `- schedulerName: ${schedulerName}`, '',
  ].join('\n'));
  return new Child('ours', process.execPath, ['--import', 'tsx', join(root, 'src/cli/bin.ts'), 'run', '--config', config, '--secure-port', '0', ...args, '-v=2']);
}

/** The sorted error lines of an "is invalid: " message (one, or several in brackets). */
export function errorLines(message: string): string[] {
  const body = message.slice(message.indexOf('is invalid: ') + 'is invalid: '.length);
  const inner = body.startsWith('[') && body.endsWith(']') ? body.slice(1, -1) : body;
  return inner.split(/, (?=[a-z]+[.[a-zA-Z0-9\]]*: |Forbidden|Invalid)/).sort();
}
