// A loopback HTTP proxy in front of the embedded API server that injects the faults a scheduler
// meets in the field: dropped watches, 410 Gone on watches, 409/429/500 on binding and status
// writes, bindings whose answer is lost after they took effect, slow answers, and outages that
// look like an API server restart (every connection cut, connections refused for a while).
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Chances (0..1) of each fault per request of its kind. */
export interface FaultRates {
  /** A watch is cut after a random time instead of running until the client ends it. */
  watchDrop: number;
  /** A watch is answered with a 410 Gone error event instead of being forwarded. */
  watchGone: number;
  /** A binding or status write is answered 409, 429 or 500 without reaching the server. */
  writeError: number;
  /** A binding reaches the server but its answer is lost (the client sees the connection reset). */
  bindAnswerLost: number;
  /** Any request is held this long at most before it is forwarded. */
  slow: number;
}

export const noFaults: FaultRates = { watchDrop: 0, watchGone: 0, writeError: 0, bindAnswerLost: 0, slow: 0 };

export interface FaultCounts {
  watchDrops: number;
  watchGones: number;
  writeErrors: Record<string, number>;
  bindAnswersLost: number;
  slowAnswers: number;
  outages: number;
}

export class FaultProxy {
  rates: FaultRates = noFaults;
  readonly counts: FaultCounts = { watchDrops: 0, watchGones: 0, writeErrors: {}, bindAnswersLost: 0, slowAnswers: 0, outages: 0 };
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  private boundPort = 0;

  private constructor(
    private readonly target: { host: string; port: number },
    private readonly random: () => number,
    private readonly maxSlowMs: number,
  ) {}

  /** Listens on 127.0.0.1 (a free port when `port` is 0) and forwards to `target`. */
  static async start(target: { host: string; port: number }, random: () => number, o: { port?: number; maxSlowMs?: number } = {}): Promise<FaultProxy> {
    const p = new FaultProxy(target, random, o.maxSlowMs ?? 800);
    p.boundPort = await p.listen(o.port ?? 0);
    return p;
  }

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private track(s: Socket): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
  }

  private listen(port: number): Promise<number> {
    const server = createServer((req, res) => this.handle(req, res));
    server.on('connection', (s: Socket) => this.track(s));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  }

  /**
   * An API server restart as clients see it: every open connection is cut, new ones are refused
   * for `downMs`, then the same address answers again.
   */
  async outage(downMs: number): Promise<void> {
    this.counts.outages++;
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((r) => server.close(() => r()));
    await this.sleep(downMs);
    await this.listen(this.port);
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.add(t);
    });
  }

  private chance(rate: number): boolean {
    return rate > 0 && this.random() < rate;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const isWatch = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1' || url.pathname.includes('/watch/');
    const isBinding = req.method === 'POST' && url.pathname.endsWith('/binding');
    const isStatusWrite = (req.method === 'PATCH' || req.method === 'PUT') && url.pathname.endsWith('/status') && url.pathname.includes('/pods/');
    if (isWatch && this.chance(this.rates.watchGone)) {
      this.counts.watchGones++;
      return goneWatch(res);
    }
    if ((isBinding || isStatusWrite) && this.chance(this.rates.writeError)) {
      const code = [409, 429, 500][Math.floor(this.random() * 3)]!;
      this.counts.writeErrors[code] = (this.counts.writeErrors[code] ?? 0) + 1;
      return writeError(res, code);
    }
    if (!isWatch && this.chance(this.rates.slow)) {
      this.counts.slowAnswers++;
      await this.sleep(Math.floor(this.random() * this.maxSlowMs));
    }
    const loseAnswer = isBinding && this.chance(this.rates.bindAnswerLost);
    const dropAfterMs = isWatch && this.chance(this.rates.watchDrop) ? 200 + Math.floor(this.random() * 3000) : -1;
    this.forward(req, res, loseAnswer, dropAfterMs);
  }

  private forward(req: IncomingMessage, res: ServerResponse, loseAnswer: boolean, dropAfterMs: number): void {
    const upstream = httpRequest({ host: this.target.host, port: this.target.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      if (loseAnswer) {
        // The write took effect on the server; the client only sees its connection reset.
        this.counts.bindAnswersLost++;
        up.resume();
        up.on('end', () => req.socket.destroy());
        return;
      }
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
      if (dropAfterMs >= 0) {
        const t = setTimeout(() => {
          this.timers.delete(t);
          this.counts.watchDrops++;
          up.destroy();
          req.socket.destroy();
        }, dropAfterMs);
        this.timers.add(t);
        res.on('close', () => clearTimeout(t));
      }
    });
    upstream.on('error', () => {
      if (!res.headersSent) writeError(res, 503);
      else req.socket.destroy();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  }
}

function status(code: number): { reason: string; message: string } {
  switch (code) {
    case 409: return { reason: 'Conflict', message: 'Operation cannot be fulfilled: the object has been modified; please apply your changes to the latest version and try again' };
    case 410: return { reason: 'Expired', message: 'too old resource version' };
    case 429: return { reason: 'TooManyRequests', message: 'the server has received too many requests and has asked us to try again later' };
    case 503: return { reason: 'ServiceUnavailable', message: 'the API server is restarting' };
    default: return { reason: 'InternalError', message: 'an error on the server ("injected fault") has prevented the request from succeeding' };
  }
}

function statusBody(code: number): string {
  const { reason, message } = status(code);
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

function writeError(res: ServerResponse, code: number): void {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (code === 429) headers['Retry-After'] = '1';
  res.writeHead(code, headers);
  res.end(statusBody(code));
}

/** What kube-apiserver sends when a watch asks for a resourceVersion it no longer has. */
function goneWatch(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
  res.end(JSON.stringify({ type: 'ERROR', object: JSON.parse(statusBody(410)) }) + '\n');
}
