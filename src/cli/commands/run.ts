// `run`: schedules pods of a real cluster (cmd/kube-scheduler/app/server.go Run, options.go):
// informers synced before the first attempt, leader election with a Lease, the scheduling loop
// while leading, health and metrics endpoints, graceful shutdown on SIGTERM.
import { FeatureGates } from '../../config/feature_gates.js';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { BackoffOptions } from '../../cluster/kube/backoff.js';
import { KubeClusterClient, type KubeClusterClientOptions } from '../../cluster/kube/client.js';
import { rateLimiterFor } from '../../cluster/kube/rate_limiter.js';
import { HttpTransport, KubeConfigError, loadKubeConfig, type RestTransport } from '../../cluster/kube/rest.js';
import type { KubeConfig } from '../../cluster/kube/kube_config.js';
import { parseDuration, type DefaultedConfiguration } from '../../config/index.js';
import type { Registry } from '../../framework/registry.js';
import { LeaderElector, LeaseLock } from '../../leaderelection/index.js';
import type { LeaseLockOptions } from '../../leaderelection/lease_lock.js';
import { createLogger, type Logger } from '../../log/logger.js';
import { withDelegatedAuth, tlsServerOptions, type SecureServing } from '../../metrics/secure_serving.js';
import { endpointsHandler, serveEndpoints, type EndpointsServer, type HealthCheck } from '../../metrics/server.js';
import { SchedulerMetrics } from '../../metrics/metrics.js';
import { notYetAvailablePlugins } from '../../plugins/registry.js';
import { pluginKinds } from '../../scheduler/plugin_kinds.js';
import { Scheduler } from '../../scheduler/scheduler.js';
import { rowPassWorkers } from '../../scheduler/parallel/row_pass_pool.js';
import { RealClock, type Clock } from '../../util/clock.js';
import { UsageError, type CliIO } from '../io.js';
import { registryWithPlugins } from '../plugins.js';
import { targetOf, type FirstLists } from './run_first_lists.js';
import { parseRunFlags, resolveRunConfiguration, type RunFlags } from './run_flags.js';
import { secureServingFromFlags } from './run_serving.js';

export { DefaultSchedulerPort, parseRunFlags, resolveRunConfiguration, type RunFlags } from './run_flags.js';
/** A leader whose lease went unrenewed this long past its duration fails /healthz (NewLeaderHealthzAdaptor). */
const leaderHealthzToleranceMs = 20_000;

export interface StartOptions {
  config: DefaultedConfiguration;
  registry: Registry;
  /** --feature-gates; the pinned release's defaults when absent. */
  featureGates?: FeatureGates;
  /** Worker threads for long Filter walks (SchedulerDeps.rowPass); none when absent. */
  rowWorkers?: number;
  /** API requests of the scheduler (rate limited by clientConnection). */
  transport: RestTransport;
  /** Events, with a rate limiter of their own; defaults to `transport`. */
  eventTransport?: RestTransport;
  /** Lease requests; defaults to `transport`. */
  leaseTransport?: RestTransport;
  clock?: Clock;
  log: Logger;
  /**
   * Where to serve /healthz, /livez, /readyz and /metrics; nothing is served when unset. Over HTTPS
   * with delegated authentication and authorization when `secure` is given (the CLI always does),
   * else plain HTTP (in-process tests and embedding).
   */
  serve?: { host: string; port: number; secure?: SecureServing };
  /** Leader-election identity; hostname_uuid by default. */
  identity?: string;
  random?: () => number;
  /** First lists already asked for (run_first_lists.ts), by the spec's `listKeyOf`. */
  firstLists?: KubeClusterClientOptions['firstLists'];
  /** The leader election Lease as read with them (null: not found), for the elector's first attempt. */
  firstLeaseRead?: LeaseLockOptions['firstRead'];
  /** Watch reconnect backoff (tests shorten it). */
  backoff?: BackoffOptions;
  /** List and watch timeouts of the informers (tests shorten them). */
  reflector?: KubeClusterClientOptions['reflector'];
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

/** Builds the scheduler over the API server and starts it (informers, leader election, loop). */
export async function startScheduler(o: StartOptions): Promise<RunningScheduler> {
  const { config, log } = o;
  const clock = o.clock ?? new RealClock();
  const identity = o.identity ?? `${hostname()}_${randomUUID()}`;
  const metrics = new SchedulerMetrics();
  const gates = o.featureGates ?? FeatureGates.defaults;
  const client = new KubeClusterClient({
    transport: o.transport,
    eventTransport: o.eventTransport,
    clock,
    log: log.withName('client'),
    host: hostname(),
    defaultSchedulerName: config.profiles[0]?.schedulerName,
    random: o.random,
    backoff: o.backoff,
    reflector: o.reflector,
    firstLists: o.firstLists,
    gateEnabled: (gate) => gates.enabled(gate),
  });
  const scheduler = Scheduler.fromConfig(config, {
    registry: o.registry,
    client,
    clock,
    random: o.random ?? Math.random,
    notYetAvailable: notYetAvailablePlugins,
    featureGates: o.featureGates,
    rowPass: rowPassWorkers(o.rowWorkers),
    metrics,
    log: (level, msg) => log.v(level).info(msg),
    // As schedule_one.go: a success is logged once bound, a failure with its reason.
    onAttempt: (a) => {
      const pod = `${a.pod.metadata.namespace}/${a.pod.metadata.name}`;
      if (a.outcome === 'Scheduled') log.v(2).info('Successfully scheduled pod', { pod, node: a.node });
      else if (a.outcome === 'Unschedulable') log.v(2).info('Unable to schedule pod; no fit; waiting', { pod, err: a.message });
      else log.error(a.message, 'Error scheduling pod; retrying', { pod });
    },
  });
  // The informers of the enabled plugins that read kinds the scheduler does not watch (Coscheduling's PodGroups).
  client.watchAlso(pluginKinds(scheduler, o.registry));
  const loop = scheduler.loop;
  for (const [name, fwk] of scheduler.profiles) {
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
      firstRead: o.firstLeaseRead,
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
          // Informers that could not watch lately may miss bindings the previous leader made: those
          // are read afresh before the first pod; watching ones are used at once, as upstream does.
          // An outage that let the lease change hands ended less than a lease duration ago.
          void client.catchUp(parseDuration(le.leaseDuration)).then((reread) => {
            if (reread.length > 0) log.info('Informers out of sync on taking the lease were read afresh', { kinds: reread });
            if (!shuttingDown && !finished) loop.start();
          });
        },
        onStoppedLeading: () => {
          metrics.leaderElectionMasterStatus.set({ name: 'kube-scheduler' }, 0);
          void loop.stop();
          if (shuttingDown) return;
          log.error(null, 'Leaderelection lost');
          // Upstream exits at once (klog.FlushAndExit) and lets the Deployment restart it: a
          // binding still being retried could otherwise land after the next leader has used the
          // same room, overcommitting the node.
          finish(1);
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
  // Fails while an informer cannot list or watch (the API server is away); /healthz stays up meanwhile.
  readyz.push({ name: 'informer-sync', check: () => client.checkInformers() });
  if (o.serve) {
    const handler = endpointsHandler({ metrics, healthz, readyz, log: log.withName('healthz') });
    const secure = o.serve.secure;
    server = secure
      ? await serveEndpoints(o.serve.host, o.serve.port, withDelegatedAuth(handler, secure, log.withName('secure-serving')), tlsServerOptions(secure))
      : await serveEndpoints(o.serve.host, o.serve.port, handler);
    log.info(secure ? 'Serving securely' : 'Serving health and metrics over plain HTTP', { address: `${o.serve.host}:${server.port}` });
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
    if (elector) {
      // Copy the synced cache into the snapshot now, while the lease is awaited: a standby's first
      // cycle after a failover then copies only the nodes changed since, not all of them.
      scheduler.cache.updateSnapshot(scheduler.snapshot);
      electorRun = elector.run().catch((err: unknown) => log.error(err, 'Leader election failed'));
    }
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

/** Where SIGTERM and SIGINT come from: the process, or an emitter in tests. */
export type SignalSource = Pick<NodeJS.EventEmitter, 'on' | 'off'>;

/** The cluster's kubeconfig; a problem with it is a usage error naming where it came from. */
function clusterKubeConfig(flags: RunFlags, path: string) {
  try {
    return loadKubeConfig(path, flags.master);
  } catch (err) {
    if (!(err instanceof KubeConfigError)) throw err;
    const source = flags.kubeconfig !== undefined ? '--kubeconfig ' : path ? 'clientConnection.kubeconfig ' : '';
    throw new UsageError(`${source}${err.message}`);
  }
}

/** What run_first_lists.ts asked for that this client and configuration would ask for too: the same API server and user, the same Lease. */
function earlyAnswers(first: FirstLists | null, kc: KubeConfig, config: DefaultedConfiguration): Pick<StartOptions, 'firstLists' | 'firstLeaseRead'> {
  if (first === null || first.target !== targetOf(kc)) return {};
  const le = config.leaderElection;
  const sameLease = le.leaderElect && first.lease?.namespace === le.resourceNamespace && first.lease.name === le.resourceName;
  return { firstLists: first.lists, firstLeaseRead: sameLease ? first.lease?.read : undefined };
}

/** `first`: the node and pod lists sent before this module loaded (startFirstLists), used when they went to the same API server as the same user. */
export async function runCommand(argv: string[], io: CliIO, signals: SignalSource = process, first: FirstLists | null = null): Promise<number> {
  const flags = parseRunFlags(argv);
  const log = createLogger({ verbosity: flags.verbosity, format: flags.loggingFormat, sink: (line) => io.stderr(line) });
  const registry = await registryWithPlugins(flags.plugins);
  const config = resolveRunConfiguration(flags, registry);
  const kc = clusterKubeConfig(flags, config.clientConnection.kubeconfig);
  const clock = new RealClock();
  const cc = config.clientConnection;
  const renewDeadlineMs = parseDuration(config.leaderElection.renewDeadline);
  // As createClients/NewFromKubeconfig: the scheduler, its events and its lease each get a client
  // (and a token bucket) of their own; the lease client times out at half the renew deadline.
  const transport = new HttpTransport(kc, { limiter: rateLimiterFor(cc.qps, cc.burst, clock), userAgent: 'kube-scheduler-ts/scheduler' });
  const eventTransport = new HttpTransport(kc, { limiter: rateLimiterFor(cc.qps, cc.burst, clock), userAgent: 'kube-scheduler-ts' });
  const leaseTransport = new HttpTransport(kc, { limiter: rateLimiterFor(cc.qps, cc.burst, clock), userAgent: 'kube-scheduler-ts/leader-election', timeoutMs: renewDeadlineMs / 2 });
  const transports = [transport, eventTransport, leaseTransport];
  // The clock's timers do not hold the process open: this does while the scheduler runs, even when
  // nothing else is pending (the API server away and the endpoints off).
  const keepAlive = setInterval(() => undefined, 0x7fffffff);
  let running: RunningScheduler;
  try {
    const secure = flags.securePort > 0 ? await secureServingFromFlags(flags, kc, clock, log) : undefined;
    if (secure) transports.push(...secure.transports);
    log.info('Starting kube-scheduler-ts', { profiles: config.profiles.map((p) => p.schedulerName), server: kc.getCurrentCluster()?.server });
    running = await startScheduler({
      config,
      registry,
      featureGates: flags.featureGates,
      rowWorkers: flags.rowWorkers,
      transport,
      eventTransport,
      leaseTransport,
      ...earlyAnswers(first, kc, config),
      clock,
      log,
      serve: secure ? { host: flags.bindAddress, port: flags.securePort, secure: secure.serving } : undefined,
    });
  } catch (err) {
    clearInterval(keepAlive);
    for (const t of transports) t.destroy();
    throw err;
  }
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
    clearInterval(keepAlive);
    signals.off('SIGTERM', onSignal);
    signals.off('SIGINT', onSignal);
    for (const t of transports) t.destroy();
  }
}
