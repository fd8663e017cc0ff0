// Scheduler replicas as a Deployment runs them: separate `kube-scheduler-ts run` processes with
// leader election, restarted after they exit (a lost lease exits 1 by design, a signal ends them).
import { spawn, type ChildProcess } from 'node:child_process';

export interface ReplicaOptions {
  /** The command line of one replica, e.g. [node, dist/cli/bin.js, run, --kubeconfig, ...]. */
  argv: readonly string[];
  /** Delay before an exited replica is started again (the kubelet's restart). */
  restartDelayMs: number;
  /** Receives every line a replica writes to stderr, with its slot. */
  onLine?: (slot: number, line: string) => void;
}

interface Slot {
  child: ChildProcess | null;
  leading: boolean;
  starts: number;
  exits: { code: number | null; signal: string | null }[];
}

export class Replicas {
  private readonly slots: Slot[];
  private stopped = false;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(count: number, private readonly o: ReplicaOptions) {
    this.slots = Array.from({ length: count }, () => ({ child: null, leading: false, starts: 0, exits: [] }));
  }

  start(): void {
    for (let i = 0; i < this.slots.length; i++) this.spawn(i);
  }

  /** The slot whose process last announced it acquired the lease and is still running, or -1. */
  leader(): number {
    return this.slots.findIndex((s) => s.leading && s.child !== null);
  }

  /** Sends `signal` to the leader; false when no replica leads right now. */
  signalLeader(signal: 'SIGTERM' | 'SIGKILL'): boolean {
    const i = this.leader();
    if (i < 0) return false;
    this.slots[i]!.child!.kill(signal);
    return true;
  }

  get restarts(): number {
    return this.slots.reduce((n, s) => n + Math.max(0, s.starts - 1), 0);
  }

  exitSummary(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const s of this.slots) {
      for (const e of s.exits) {
        const k = e.signal ?? `exit ${e.code}`;
        out[k] = (out[k] ?? 0) + 1;
      }
    }
    return out;
  }

  /** Stops every replica with SIGTERM (SIGKILL after `graceMs`) and restarts none. */
  async stop(graceMs = 5000): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    const exits = this.slots.map((s) => s.child).filter((c): c is ChildProcess => c !== null).map((c) => new Promise<void>((resolve) => {
      const kill = setTimeout(() => c.kill('SIGKILL'), graceMs);
      c.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      c.kill('SIGTERM');
    }));
    await Promise.all(exits);
  }

  private spawn(i: number): void {
    const slot = this.slots[i]!;
    const [cmd, ...args] = this.o.argv;
    const child = spawn(cmd!, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    slot.child = child;
    slot.leading = false;
    slot.starts++;
    let buffered = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      buffered += chunk;
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.includes('Successfully acquired lease')) slot.leading = true;
        this.o.onLine?.(i, line);
      }
    });
    child.on('exit', (code, signal) => {
      slot.exits.push({ code, signal });
      slot.child = null;
      slot.leading = false;
      if (this.stopped) return;
      const t = setTimeout(() => {
        this.timers.delete(t);
        if (!this.stopped) this.spawn(i);
      }, this.o.restartDelayMs);
      this.timers.add(t);
    });
  }
}
