// Starts `simulate --serve`'s server on a free loopback port for tests, with client-node configured for it.
import { CoreV1Api, KubeConfig, Watch } from '@kubernetes/client-node';
import type { KubeObject, Pod } from '../api/types.js';
import { configFromObject, defaultConfiguration } from '../config/index.js';
import { withShippedPlugins } from '../outoftree/registry.js';
import type { FeatureGates } from '../config/feature_gates.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../plugins/registry.js';
import type { Scenario } from '../sim/scenario/scenario.js';
import { makeNode } from '../testing/builders.js';
import { serveScenario, type Serving } from '../sim/serve/serve.js';

export interface TestServer {
  serving: Serving;
  url: string;
  kc: KubeConfig;
  core: CoreV1Api;
  /** Raw request to the server; the body is parsed JSON (or the text when it is not JSON). */
  request(method: string, path: string, body?: unknown, contentType?: string): Promise<{ code: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

function twoNodeScenario(): Scenario {
  return {
    name: 'test', metadata: {}, config: null, objects: [], pods: [], pending: [], steps: [],
    nodes: [makeNode('node-a', { allocatable: { cpu: '2', memory: '4Gi', pods: '10' } }), makeNode('node-b', { allocatable: { cpu: '2', memory: '4Gi', pods: '10' } })],
  };
}

function kubeConfigFor(url: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'embedded', server: url, skipTLSVerify: true }],
    users: [{ name: 'embedded' }],
    contexts: [{ name: 'embedded', cluster: 'embedded', user: 'embedded', namespace: 'default' }],
    currentContext: 'embedded',
  });
  return kc;
}

export async function startTestServer(o: { bookmarkIntervalMs?: number; watchHistorySize?: number; scenario?: Scenario; kubelet?: boolean; featureGates?: FeatureGates; config?: Record<string, unknown> } = {}): Promise<TestServer> {
  const registry = withShippedPlugins(inTreeRegistry());
  const serving = await serveScenario(o.scenario ?? twoNodeScenario(), {
    config: o.config ? configFromObject(o.config, 'test config', registry) : defaultConfiguration(registry),
    registry,
    notYetAvailable: notYetAvailablePlugins,
    port: 0,
    bookmarkIntervalMs: o.bookmarkIntervalMs,
    watchHistorySize: o.watchHistorySize,
    kubelet: o.kubelet,
    featureGates: o.featureGates,
  });
  const kc = kubeConfigFor(serving.url);
  return {
    serving,
    url: serving.url,
    kc,
    core: kc.makeApiClient(CoreV1Api),
    async request(method, path, body, contentType = 'application/json') {
      const res = await fetch(serving.url + path, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': contentType },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(text) as Record<string, unknown>;
      } catch {
        parsed = { text };
      }
      return { code: res.status, body: parsed };
    },
    close: () => serving.close(),
  };
}

export function testPod(name: string, extra: Partial<Pod['spec']> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: name } },
    spec: { containers: [{ name: 'c', image: 'pause', resources: { requests: { cpu: '100m', memory: '64Mi' } } }], ...extra },
  };
}

export interface WatchEventLine {
  type: string;
  object: KubeObject & { code?: number; reason?: string; message?: string };
}

/**
 * Watches `path` with client-node's Watch and resolves with the events seen once `until` returns
 * true (or the stream ends); the watch is then aborted.
 */
export async function collectWatch(kc: KubeConfig, path: string, query: Record<string, string | number | boolean | undefined>, until: (events: WatchEventLine[]) => boolean): Promise<WatchEventLine[]> {
  const events: WatchEventLine[] = [];
  const watch = new Watch(kc);
  return new Promise((resolve, reject) => {
    let controller: AbortController | undefined;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      controller?.abort();
      resolve(events);
    };
    watch.watch(path, query, (type, object) => {
      events.push({ type, object: object as WatchEventLine['object'] });
      if (until(events)) finish();
    }, (err: unknown) => {
      if (err && !finished && (err as Error).name !== 'AbortError') reject(err as Error);
      else finish();
    }).then((c) => {
      controller = c;
      if (finished) c.abort();
    }, reject);
  });
}
