// `run`: schedules pods of a real cluster (cmd/kube-scheduler/app/server.go Run, options.go):
// informers synced before the first attempt, leader election with a Lease, the scheduling loop
// while leading, health and metrics endpoints, graceful shutdown on SIGTERM.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import type { BackoffOptions } from '../../cluster/kube/backoff.js';
import { KubeClusterClient } from '../../cluster/kube/client.js';
import { rateLimiterFor } from '../../cluster/kube/rate_limiter.js';
import { HttpTransport, loadKubeConfig, type RestTransport } from '../../cluster/kube/rest.js';
import { defaultConfiguration, loadConfigFile, parseDuration, type DefaultedConfiguration } from '../../config/index.js';
import type { Registry } from '../../framework/registry.js';
import { LeaderElector, LeaseLock } from '../../leaderelection/index.js';
import { createLogger, type LogFormat, type Logger } from '../../log/logger.js';
import { endpointsHandler, serveEndpoints, type EndpointsServer, type HealthCheck } from '../../metrics/server.js';
import { instrumentFramework } from '../../metrics/framework_metrics.js';
import { SchedulerMetrics } from '../../metrics/metrics.js';
import { notYetAvailablePlugins } from '../../plugins/registry.js';
import { Scheduler, type SchedulerMetricsHooks } from '../../scheduler/scheduler.js';
import { RealClock, type Clock } from '../../util/clock.js';
import { UsageError, type CliIO } from '../io.js';
import { registryWithPlugins } from '../plugins.js';
import { setUpExtenders } from '../../extender/setup.js';

/** kube-scheduler's secure port (config.DefaultKubeSchedulerPort). */
export const DefaultSchedulerPort = 10259;
/** A leader whose lease went unrenewed this long past its duration fails /healthz (NewLeaderHealthzAdaptor). */
const leaderHealthzToleranceMs = 20_000;

export interface StartOptions {
  config: DefaultedConfiguration;
  registry: Registry;
  /** API requests of the scheduler (rate limited by clientConnection). */
  transport: RestTransport;
  /** Events, with a rate limiter of their own; defaults to `transport`. */
  eventTransport?: RestTransport;
  /** Lease requests; defaults to `transport`. */
  leaseTransport?: RestTransport;
  clock?: Clock;
  log: Logger;
  /** Where to serve /healthz, /livez, /readyz and /metrics; nothing is served when unset. */
  serve?: { host: string; port: number };
  /** Leader-election identity; hostname_uuid by default. */
  identity?: string;
  random?: () => number;
  /** Watch reconnect backoff (tests shorten it). */
  backoff?: BackoffOptions;
}

/** A running scheduler: `done` resolves with the exit status once it has stopped. */
export interface RunningScheduler {
  readonly scheduler: Scheduler;
  readonly client: KubeClusterClient;
  readonly metrics: SchedulerMetrics;
  readonly identity: string;
  /** The port the endpoints listen on, when served. */
  readonly port: number | null;
  readonly done: Promise<number>;
  /** Resolves once the informers' initial lists have been handled (sched-handler-sync). */
  readonly synced: Promise<void>;
  /** Whether this replica is scheduling (the leader, or leader election is off). */
  isLeading(): boolean;
  /** Stops popping pods, waits for bindings in flight, releases the lease, then stops. */
  shutdown(): Promise<number>;
  /** Stops at once, without waiting for anything (a second signal). */
  abort(): void;
}

/** Pops pods while running; sleeps until the queue has a pod to offer. */
class SchedulingLoop {
  private running = false;
  private waker: (() => void) | null = null;
  private finished: Promise<void> = Promise.resolve();

  constructor(private readonly sched: Scheduler) {}

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.finished = this.run();
  }

  /** Stops before the next pod; the pod being scheduled (synchronous) is never cut off halfway. */
  stop(): Promise<void> {
    this.running = false;
    this.wake();
    return this.finished;
  }

  wake(): void {
    const w = this.waker;
    this.waker = null;
    w?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      if (this.sched.scheduleOne()) {
        // A cycle waiting for extenders ends before the next pod is popped.
        await this.sched.cycleSettled().catch(() => undefined);
        // Let watch events and binding answers in between pods.
        await new Promise<void>((r) => setImmediate(r));
        continue;
      }
      await new Promise<void>((r) => {
        this.waker = r;
      });
    }
  }
}

/** Builds the scheduler over the API server and starts it (informers, leader election, loop). */
export async function startScheduler(o: StartOptions): Promise<RunningScheduler> {
  const { config, log } = o;
  const clock = o.clock ?? new RealClock();
  const identity = o.identity ?? `${hostname()}_${randomUUID()}`;
  const metrics = new SchedulerMetrics();
  const client = new KubeClusterClient({
    transport: o.transport,
    eventTransport: o.eventTransport,
    clock,
    log: log.withName('client'),
    host: hostname(),
    defaultSchedulerName: config.profiles[0]?.schedulerName,
    random: o.random,
    backoff: o.backoff,
  });
  const monotonic = () => performance.now() / 1000;
  const hooks: SchedulerMetricsHooks = {
    now: monotonic,
    attemptFinished: (result, profile, seconds) => metrics.observeAttempt(result, profile, seconds),
    algorithmFinished: (seconds) => metrics.schedulingAlgorithmDuration.observe(seconds),
    podScheduled: (attempts, since) => metrics.observePodScheduled(attempts, since),
    filterFinished: (profile, code, seconds) => metrics.frameworkExtensionPointDuration.observe({ extension_point: 'Filter', status: code === 0 ? 'Success' : 'Error', profile }, seconds),
  };
  let loop: SchedulingLoop | null = null;
  const { extenders, profiles } = setUpExtenders(config.extenders, config.profiles);
  const scheduler = new Scheduler({
    profiles,
    extenders,
    registry: o.registry,
    client,
    clock,
    random: o.random ?? Math.random,
    percentageOfNodesToScore: config.percentageOfNodesToScore,
    podInitialBackoffSeconds: config.podInitialBackoffSeconds,
    podMaxBackoffSeconds: config.podMaxBackoffSeconds,
    parallelism: config.parallelism,
    notYetAvailable: notYetAvailablePlugins,
    onAttempt: (a) => {
      if (a.victims.length > 0) metrics.preemptionVictims.observe(a.victims.length);
      const l = log.v(a.outcome === 'Scheduled' ? 2 : 3);
      if (a.outcome === 'Scheduled') l.info('Successfully scheduled pod', { pod: `${a.pod.metadata.namespace}/${a.pod.metadata.name}`, node: a.node });
      else l.info('Unable to schedule pod', { pod: `${a.pod.metadata.namespace}/${a.pod.metadata.name}`, err: a.message });
    },
    log: (level, msg) => log.v(level).info(msg),
    metrics: hooks,
    queueHooks: {
      onActive: () => loop?.wake(),
      onIncoming: (queue, event) => metrics.queueIncomingPods.inc({ queue, event }),
    },
  });
  loop = new SchedulingLoop(scheduler);
  for (const [name, fwk] of scheduler.profiles) {
    instrumentFramework(fwk, metrics, { now: monotonic });
    const missing = fwk.unavailablePlugins;
    if (missing.length > 0) log.warning('Profile names plugins that are not built yet; running without them', { profile: name, plugins: missing });
  }
  metrics.bindSources({
    pendingCounts: () => scheduler.queue.pendingCounts(),
    bindingsInFlight: () => scheduler.bindingsInFlight,
    cacheSize: () => ({ nodes: scheduler.cache.nodeCount, pods: scheduler.cache.podCount }),
  });

  let resolveDone!: (code: number) => void;
  const done = new Promise<number>((r) => {
    resolveDone = r;
  });
  let shuttingDown = false;
  let finished = false;
  let handlersSynced = false;
  let server: EndpointsServer | null = null;
  const finish = (code: number) => {
    if (finished) return;
    finished = true;
    scheduler.stop();
    void server?.close();
    resolveDone(code);
  };

  const le = config.leaderElection;
  let elector: LeaderElector | null = null;
  let electorRun: Promise<void> = Promise.resolve();
  if (le.leaderElect) {
    const lock = new LeaseLock({
      transport: o.leaseTransport ?? o.transport,
      namespace: le.resourceNamespace,
      name: le.resourceName,
      identity,
      onEvent: (lease, message) => client.recordEvent({
        regarding: { kind: 'Lease', namespace: lease.metadata.namespace, name: lease.metadata.name, uid: lease.metadata.uid },
        type: 'Normal',
        reason: 'LeaderElection',
        action: 'LeaderElection',
        note: message,
        time: clock.now(),
      }),
    });
    elector = new LeaderElector({
      lock,
      clock,
      leaseDurationMs: parseDuration(le.leaseDuration),
      renewDeadlineMs: parseDuration(le.renewDeadline),
      retryPeriodMs: parseDuration(le.retryPeriod),
      name: 'kube-scheduler',
      releaseOnCancel: true,
      log: log.withName('leaderelection'),
      random: o.random,
      callbacks: {
        onStartedLeading: () => {
          metrics.leaderElectionMasterStatus.set({ name: 'kube-scheduler' }, 1);
          if (!shuttingDown) loop.start();
        },
        onStoppedLeading: () => {
          metrics.leaderElectionMasterStatus.set({ name: 'kube-scheduler' }, 0);
          void loop.stop();
          if (shuttingDown) return;
          log.error(null, 'Leaderelection lost');
          // Upstream exits at once and lets the Deployment restart it; bindings already sent finish.
          void scheduler.waitForBindings().finally(() => finish(1));
        },
        onNewLeader: (id) => {
          if (id !== identity) log.info('New leader elected', { identity: id });
        },
      },
    });
    metrics.leaderElectionMasterStatus.set({ name: 'kube-scheduler' }, 0);
  }

  const healthz: HealthCheck[] = [];
  const readyz: HealthCheck[] = [];
  if (elector) {
    const watchdog: HealthCheck = { name: 'leaderElection', check: () => elector!.check(leaderHealthzToleranceMs) };
    healthz.push(watchdog);
    readyz.push(watchdog);
  }
  readyz.push({ name: 'shutdown', check: () => (shuttingDown ? new Error('process is shutting down') : null) });
  readyz.push({ name: 'sched-handler-sync', check: () => (handlersSynced ? null : new Error('handlers are not fully synchronized')) });
  if (o.serve) {
    server = await serveEndpoints(o.serve.host, o.serve.port, endpointsHandler({ metrics, healthz, readyz, log: log.withName('healthz') }));
    log.info('Serving health and metrics over plain HTTP', { address: `${o.serve.host}:${server.port}` });
  }

  const shutdown = async (): Promise<number> => {
    if (shuttingDown) return done;
    shuttingDown = true;
    log.info('Shutting down: no more pods are popped; waiting for bindings in flight');
    await loop.stop();
    await scheduler.waitForBindings();
    await client.flushEvents();
    elector?.stop();
    await electorRun;
    await client.flushEvents();
    log.info('Requested to terminate, exiting');
    finish(0);
    return done;
  };

  const synced = scheduler.start().then(() => {
    if (shuttingDown || finished) return;
    handlersSynced = true;
    log.v(3).info('Handlers synced');
    if (elector) electorRun = elector.run().catch((err: unknown) => log.error(err, 'Leader election failed'));
    else loop.start();
  });

  return {
    scheduler,
    client,
    metrics,
    identity,
    get port() {
      return server?.port ?? null;
    },
    done,
    synced,
    isLeading: () => loop.isRunning,
    shutdown,
    abort: () => {
      shuttingDown = true;
      elector?.stop();
      void loop.stop();
      finish(1);
    },
  };
}

export const runUsage = `Usage: kube-scheduler-ts run [options]

Schedules the pods of a Kubernetes cluster whose schedulerName is one of the profiles'.

Options:
  --config FILE                      KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1)
  --plugins FILE                     Out-of-tree plugins: a module (.mjs, .js or .ts) exporting plugins (repeatable)
  --kubeconfig FILE                  kubeconfig of the cluster; the in-cluster service account when omitted
  --master URL                       API server address (overrides the kubeconfig's)
  --bind-address IP                  Address of the health and metrics endpoints (default 0.0.0.0)
  --secure-port N                    Port of /healthz, /livez, /readyz and /metrics (default 10259; 0 turns them off)
  --leader-elect true|false          Overrides leaderElection.leaderElect
  --leader-elect-resource-name NAME  Overrides leaderElection.resourceName
  --leader-elect-resource-namespace NS  Overrides leaderElection.resourceNamespace
  -v, --v N                          Log verbosity (klog levels: 2 decisions, 4 debugging)
  --logging-format text|json         Log format (default text)
`;

/** Accepts klog's `-v=4` and `-v 4` spellings alongside `--v=4`. */
function normalizeArgs(argv: string[]): string[] {
  return argv.map((a) => (a.startsWith('-v=') ? `--v=${a.slice(3)}` : a === '-v' ? '--v' : a));
}

function parseBool(flag: string, v: string): boolean {
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new UsageError(`invalid argument "${v}" for "--${flag}" flag: strconv.ParseBool: parsing "${v}": invalid syntax`);
}

export interface RunFlags {
  config?: string;
  /** Modules of out-of-tree plugins, loaded in order. */
  plugins: string[];
  kubeconfig?: string;
  master?: string;
  bindAddress: string;
  securePort: number;
  verbosity: number;
  loggingFormat: LogFormat;
  leaderElect?: boolean;
  leaderElectResourceName?: string;
  leaderElectResourceNamespace?: string;
}

export function parseRunFlags(argv: string[]): RunFlags {
  const { values, positionals } = parseArgs({
    args: normalizeArgs(argv),
    allowPositionals: true,
    options: {
      config: { type: 'string' },
      plugins: { type: 'string', multiple: true },
      kubeconfig: { type: 'string' },
      master: { type: 'string' },
      'bind-address': { type: 'string' },
      'secure-port': { type: 'string' },
      v: { type: 'string' },
      'logging-format': { type: 'string' },
      'leader-elect': { type: 'string' },
      'leader-elect-resource-name': { type: 'string' },
      'leader-elect-resource-namespace': { type: 'string' },
    },
  });
  if (positionals.length > 0) throw new UsageError(`"run" does not take any arguments, got ${JSON.stringify(positionals)}`);
  const securePort = values['secure-port'] === undefined ? DefaultSchedulerPort : Number(values['secure-port']);
  if (!Number.isInteger(securePort) || securePort < 0 || securePort > 65535) throw new UsageError(`--secure-port must be a port number (0 turns serving off), got "${values['secure-port']}"`);
  const verbosity = values.v === undefined ? 0 : Number(values.v);
  if (!Number.isInteger(verbosity) || verbosity < 0) throw new UsageError(`-v must be a non-negative integer, got "${values.v}"`);
  const format = values['logging-format'] ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--logging-format must be text or json, got "${format}"`);
  return {
    config: values.config,
    plugins: values.plugins ?? [],
    kubeconfig: values.kubeconfig,
    master: values.master,
    bindAddress: values['bind-address'] ?? '0.0.0.0',
    securePort,
    verbosity,
    loggingFormat: format,
    leaderElect: values['leader-elect'] === undefined ? undefined : parseBool('leader-elect', values['leader-elect']),
    leaderElectResourceName: values['leader-elect-resource-name'],
    leaderElectResourceNamespace: values['leader-elect-resource-namespace'],
  };
}

/** The configuration with the leader-election flags applied over it (ApplyLeaderElectionTo). */
export function resolveRunConfiguration(flags: RunFlags, registry: Registry): DefaultedConfiguration {
  const cfg = flags.config ? loadConfigFile(flags.config, registry) : defaultConfiguration(registry);
  const le = { ...cfg.leaderElection };
  if (flags.leaderElect !== undefined) le.leaderElect = flags.leaderElect;
  if (flags.leaderElectResourceName) le.resourceName = flags.leaderElectResourceName;
  if (flags.leaderElectResourceNamespace) le.resourceNamespace = flags.leaderElectResourceNamespace;
  const clientConnection = { ...cfg.clientConnection };
  if (flags.kubeconfig !== undefined) clientConnection.kubeconfig = flags.kubeconfig;
  return { ...cfg, leaderElection: le, clientConnection };
}

/** Where SIGTERM and SIGINT come from: the process, or an emitter in tests. */
export type SignalSource = Pick<NodeJS.EventEmitter, 'on' | 'off'>;

export async function runCommand(argv: string[], io: CliIO, signals: SignalSource = process): Promise<number> {
  const flags = parseRunFlags(argv);
  const log = createLogger({ verbosity: flags.verbosity, format: flags.loggingFormat, sink: (line) => io.stderr(line) });
  const registry = await registryWithPlugins(flags.plugins);
  const config = resolveRunConfiguration(flags, registry);
  const kc = loadKubeConfig(config.clientConnection.kubeconfig, flags.master);
  const clock = new RealClock();
  const cc = config.clientConnection;
  const renewDeadlineMs = parseDuration(config.leaderElection.renewDeadline);
  // As createClients/NewFromKubeconfig: the scheduler, its events and its lease each get a client
  // (and a token bucket) of their own; the lease client times out at half the renew deadline.
  const transport = new HttpTransport(kc, { limiter: rateLimiterFor(cc.qps, cc.burst, clock), userAgent: 'kube-scheduler-ts/scheduler' });
  const eventTransport = new HttpTransport(kc, { limiter: rateLimiterFor(cc.qps, cc.burst, clock), userAgent: 'kube-scheduler-ts' });
  const leaseTransport = new HttpTransport(kc, { limiter: rateLimiterFor(cc.qps, cc.burst, clock), userAgent: 'kube-scheduler-ts/leader-election', timeoutMs: renewDeadlineMs / 2 });
  log.info('Starting kube-scheduler-ts', { profiles: config.profiles.map((p) => p.schedulerName), server: kc.getCurrentCluster()?.server });
  const running = await startScheduler({
    config,
    registry,
    transport,
    eventTransport,
    leaseTransport,
    clock,
    log,
    serve: flags.securePort > 0 ? { host: flags.bindAddress, port: flags.securePort } : undefined,
  });
  let received = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    received++;
    if (received === 1) {
      log.info('Received signal, shutting down gracefully', { signal: sig });
      void running.shutdown();
    } else {
      log.info('Received a second signal, exiting at once', { signal: sig });
      running.abort();
    }
  };
  signals.on('SIGTERM', onSignal);
  signals.on('SIGINT', onSignal);
  try {
    return await running.done;
  } finally {
    signals.off('SIGTERM', onSignal);
    signals.off('SIGINT', onSignal);
    for (const t of [transport, eventTransport, leaseTransport]) t.destroy();
  }
}
