// A scenario built in code for tests (what a scenario file holds, checked as the loader checks a
// file), and a whole simulation of it with out-of-tree plugins registered beside the in-tree ones,
// configured as the CLI's `simulate --plugins` would be.
import type { KubeObject, Node, Pod } from '../api/types.js';
import { admitPod } from '../cluster/memory/admission.js';
import { configFromObject, defaultConfiguration } from '../config/index.js';
import { Registry, type AnyPluginDefinition } from '../framework/registry.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../plugins/registry.js';
import { withShippedPlugins } from '../outoftree/registry.js';
import { scenarioFromDocuments, type Scenario } from '../sim/scenario/scenario.js';
import { runSimulation, type SimReport } from '../sim/simulate/simulate.js';

/** Collects nodes, pods and objects; `build()` checks them as a scenario file's would be. */
export class ScenarioBuilder {
  private readonly nodes: Node[] = [];
  private readonly pods: Pod[] = [];
  private readonly pending: Pod[] = [];
  private readonly objects: KubeObject[] = [];
  private config: Record<string, unknown> | null = null;

  constructor(private readonly name: string) {}

  /** Nodes of the cluster. */
  withNodes(...nodes: Node[]): this {
    this.nodes.push(...nodes);
    return this;
  }

  /** Existing load: pods already bound (spec.nodeName set). */
  withRunningPods(...pods: Pod[]): this {
    this.pods.push(...pods);
    return this;
  }

  /** Pods to schedule, in this order. */
  withPendingPods(...pods: Pod[]): this {
    this.pending.push(...pods);
    return this;
  }

  /** Other objects: PriorityClasses, volumes, DRA objects, workloads. */
  withObjects(...objects: KubeObject[]): this {
    this.objects.push(...objects);
    return this;
  }

  /** A KubeSchedulerConfiguration object the scenario carries (upstream's defaults without one). */
  withConfig(config: Record<string, unknown>): this {
    this.config = config;
    return this;
  }

  /** The scenario; throws a ScenarioError naming the object and field when one is refused. */
  build(): Scenario {
    const doc: Record<string, unknown> = { nodes: this.nodes, pods: this.pods, pending: this.pending, objects: this.objects };
    if (this.config) doc.config = this.config;
    return scenarioFromDocuments([structuredClone(doc)], this.name);
  }
}

/** A scenario builder; `name` labels the scenario in error messages. */
export function scenario(name = 'test scenario'): ScenarioBuilder {
  return new ScenarioBuilder(name);
}

export interface SimulateOptions {
  /** Out-of-tree plugins, registered after the in-tree ones (a name may appear once; the shipped Coscheduling is there unless given). */
  plugins?: readonly AnyPluginDefinition[];
  /** A KubeSchedulerConfiguration object; else the scenario's own, else upstream's defaults. */
  config?: Record<string, unknown>;
  /** Seed of the random source that breaks ties between top-scored nodes (default 1). */
  seed?: number;
}

/** Runs the scheduler over the scenario until it is idle, as `simulate` does, and reports every pod's fate. */
export function simulate(sc: Scenario, o: SimulateOptions = {}): Promise<SimReport> {
  const registry = withShippedPlugins(o.plugins && o.plugins.length > 0 ? inTreeRegistry().merge(new Registry(o.plugins)) : inTreeRegistry());
  const value = o.config ?? sc.config;
  const config = value ? configFromObject(value, `${sc.source ?? sc.name}: config`, registry) : defaultConfiguration(registry);
  return runSimulation(sc, { config, registry, notYetAvailable: notYetAvailablePlugins, seed: o.seed ?? 1, admitPod });
}
