// Extension-point and plugin latency metrics for a profile's framework, added from outside so the
// embedded simulation pays nothing for them (runtime/framework.go's metrics and metricsRecorder:
// every extension point is timed; plugins are timed in a 10% sample of scheduling cycles).
import type { CycleState } from '../framework/cycle_state.js';
import type * as fw from '../framework/interfaces.js';
import type { PodInfo } from '../framework/pod_info.js';
import type { Framework } from '../framework/runtime/framework.js';
import { Code, codeName, type Status } from '../framework/status.js';
import type { SchedulerMetrics } from './metrics.js';

/** Share of scheduling cycles whose plugins are timed (pluginMetricsSamplePercent). */
export const pluginMetricsSamplePercent = 10;

export interface InstrumentOptions {
  /** Monotonic seconds. */
  now?: () => number;
  random?: () => number;
}

const statusName = (s: Status | null | undefined): string => codeName(s ? s.code : Code.Success);

type Timer = () => number;

/** Times every extension point of `fwk` and, in sampled cycles, each plugin at it. */
export function instrumentFramework(fwk: Framework, m: SchedulerMetrics, o: InstrumentOptions = {}): void {
  const now: Timer = o.now ?? (() => performance.now() / 1000);
  const random = o.random ?? Math.random;
  const profile = fwk.profileName;
  const ep = m.frameworkExtensionPointDuration;
  const observePoint = (point: string, s: Status | null | undefined, start: number) => ep.observe({ extension_point: point, status: statusName(s), profile }, now() - start);
  const observePlugin = (plugin: string, point: string, s: Status | null | undefined, start: number) =>
    m.pluginExecutionDuration.observe({ plugin, extension_point: point, status: statusName(s) }, now() - start);

  const preFilter = fwk.runPreFilterPlugins.bind(fwk);
  fwk.runPreFilterPlugins = (state, pod, nodes) => {
    // PreFilter opens every cycle: this is where the cycle is picked for plugin sampling.
    state.recordPluginMetrics = random() * 100 < pluginMetricsSamplePercent;
    const t = now();
    const r = preFilter(state, pod, nodes);
    observePoint('PreFilter', r.status, t);
    return r;
  };
  const postFilter = fwk.runPostFilterPlugins.bind(fwk);
  fwk.runPostFilterPlugins = (state, pod, statuses) => {
    const t = now();
    const r = postFilter(state, pod, statuses);
    observePoint('PostFilter', r.status, t);
    return r;
  };
  const preScore = fwk.runPreScorePlugins.bind(fwk);
  fwk.runPreScorePlugins = (state, pod, nodes) => {
    const t = now();
    const s = preScore(state, pod, nodes);
    observePoint('PreScore', s, t);
    return s;
  };
  const score = fwk.runScorePlugins.bind(fwk);
  fwk.runScorePlugins = (state, pod, nodes, breakdown) => {
    const t = now();
    const r = score(state, pod, nodes, breakdown);
    observePoint('Score', Array.isArray(r) ? null : r, t);
    return r;
  };
  const scoreTotals = fwk.runScorePluginTotals.bind(fwk);
  fwk.runScorePluginTotals = (state, pod, nodes, totals) => {
    const t = now();
    const s = scoreTotals(state, pod, nodes, totals);
    observePoint('Score', s, t);
    return s;
  };
  const reserve = fwk.runReservePluginsReserve.bind(fwk);
  fwk.runReservePluginsReserve = (state, pod, node) => {
    const t = now();
    const s = reserve(state, pod, node);
    observePoint('Reserve', s, t);
    return s;
  };
  const unreserve = fwk.runReservePluginsUnreserve.bind(fwk);
  fwk.runReservePluginsUnreserve = (state, pod, node) => {
    const t = now();
    unreserve(state, pod, node);
    observePoint('Unreserve', null, t);
  };
  const permit = fwk.runPermitPlugins.bind(fwk);
  fwk.runPermitPlugins = (state, pod, node) => {
    const t = now();
    const s = permit(state, pod, node);
    observePoint('Permit', s, t);
    return s;
  };
  const waitOnPermit = fwk.waitOnPermit.bind(fwk);
  fwk.waitOnPermit = async (pod) => {
    const t = now();
    const s = await waitOnPermit(pod);
    m.permitWaitDuration.observe({ result: statusName(s) }, now() - t);
    return s;
  };
  const preBind = fwk.runPreBindPlugins.bind(fwk);
  fwk.runPreBindPlugins = async (state, pod, node) => {
    const t = now();
    const s = await preBind(state, pod, node);
    observePoint('PreBind', s, t);
    return s;
  };
  const bind = fwk.runBindPlugins.bind(fwk);
  fwk.runBindPlugins = async (state, pod, node) => {
    const t = now();
    const s = await bind(state, pod, node);
    observePoint('Bind', s, t);
    return s;
  };
  const postBind = fwk.runPostBindPlugins.bind(fwk);
  fwk.runPostBindPlugins = (state, pod, node) => {
    const t = now();
    postBind(state, pod, node);
    observePoint('PostBind', null, t);
  };

  instrumentPlugins(fwk, m, now, observePlugin);
}

type ObservePlugin = (plugin: string, point: string, s: Status | null | undefined, start: number) => void;

/** Replaces each plugin in the framework's per-point lists by a wrapper timing sampled cycles. */
function instrumentPlugins(fwk: Framework, m: SchedulerMetrics, now: Timer, observe: ObservePlugin): void {
  const sampled = (state: CycleState) => state.recordPluginMetrics;

  const wrapExtensions = (name: string, ext: fw.PreFilterExtensions): fw.PreFilterExtensions => ({
    addPod: (state, p, add, ni) => {
      if (!sampled(state)) return ext.addPod(state, p, add, ni);
      const t = now();
      const s = ext.addPod(state, p, add, ni);
      observe(name, 'PreFilterExtensionAddPod', s, t);
      return s;
    },
    removePod: (state, p, rm, ni) => {
      if (!sampled(state)) return ext.removePod(state, p, rm, ni);
      const t = now();
      const s = ext.removePod(state, p, rm, ni);
      observe(name, 'PreFilterExtensionRemovePod', s, t);
      return s;
    },
  });

  fwk.preFilterPlugins = fwk.preFilterPlugins.map((p): fw.PreFilterPlugin => {
    const ext = p.preFilterExtensions?.() ?? null;
    const wrappedExt = ext ? wrapExtensions(p.name, ext) : null;
    return {
      name: p.name,
      preFilter: (state, pod, nodes) => {
        if (!sampled(state)) return p.preFilter(state, pod, nodes);
        const t = now();
        const r = p.preFilter(state, pod, nodes);
        observe(p.name, 'PreFilter', r?.status, t);
        return r;
      },
      preFilterExtensions: () => wrappedExt,
    };
  });
  fwk.filterPlugins = fwk.filterPlugins.map((p): fw.FilterPlugin => ({
    name: p.name,
    filter: (state, pod, ni) => {
      if (!sampled(state)) return p.filter(state, pod, ni);
      const t = now();
      const s = p.filter(state, pod, ni);
      observe(p.name, 'Filter', s, t);
      return s;
    },
  }));
  fwk.postFilterPlugins = fwk.postFilterPlugins.map((p): fw.PostFilterPlugin => ({
    name: p.name,
    postFilter: (state, pod, statuses) => {
      // DefaultPreemption counts every PostFilter call as a preemption attempt.
      if (p.name === 'DefaultPreemption') m.preemptionAttempts.inc();
      if (!sampled(state)) return p.postFilter(state, pod, statuses);
      const t = now();
      const r = p.postFilter(state, pod, statuses);
      observe(p.name, 'PostFilter', r.status, t);
      return r;
    },
  }));
  fwk.preScorePlugins = fwk.preScorePlugins.map((p): fw.PreScorePlugin => ({
    name: p.name,
    preScore: (state, pod, nodes) => {
      if (!sampled(state)) return p.preScore(state, pod, nodes);
      const t = now();
      const s = p.preScore(state, pod, nodes);
      observe(p.name, 'PreScore', s, t);
      return s;
    },
  }));
  fwk.scorePlugins = fwk.scorePlugins.map((p): fw.ScorePlugin => {
    const ext = p.scoreExtensions?.() ?? null;
    const wrappedExt: fw.ScoreExtensions | null = ext
      ? {
        normalizeScore: (state, pod, scores) => {
          if (!sampled(state)) return ext.normalizeScore(state, pod, scores);
          const t = now();
          const s = ext.normalizeScore(state, pod, scores);
          observe(p.name, 'ScoreExtensionNormalize', s, t);
          return s;
        },
      }
      : null;
    return {
      name: p.name,
      score: (state, pod, ni) => {
        if (!sampled(state)) return p.score(state, pod, ni);
        const t = now();
        const r = p.score(state, pod, ni);
        observe(p.name, 'Score', typeof r === 'number' ? null : r, t);
        return r;
      },
      scoreExtensions: () => wrappedExt,
    };
  });
  fwk.reservePlugins = fwk.reservePlugins.map((p): fw.ReservePlugin => ({
    name: p.name,
    reserve: (state, pod, node) => {
      if (!sampled(state)) return p.reserve(state, pod, node);
      const t = now();
      const s = p.reserve(state, pod, node);
      observe(p.name, 'Reserve', s, t);
      return s;
    },
    unreserve: (state, pod, node) => {
      if (!sampled(state)) return p.unreserve(state, pod, node);
      const t = now();
      p.unreserve(state, pod, node);
      observe(p.name, 'Unreserve', null, t);
    },
  }));
  fwk.permitPlugins = fwk.permitPlugins.map((p): fw.PermitPlugin => ({
    name: p.name,
    permit: (state, pod, node) => {
      if (!sampled(state)) return p.permit(state, pod, node);
      const t = now();
      const r = p.permit(state, pod, node);
      observe(p.name, 'Permit', r.status, t);
      return r;
    },
  }));
  fwk.preBindPlugins = fwk.preBindPlugins.map((p): fw.PreBindPlugin => ({
    name: p.name,
    preBind: async (state, pod, node) => {
      if (!sampled(state)) return p.preBind(state, pod, node);
      const t = now();
      const s = await p.preBind(state, pod, node);
      observe(p.name, 'PreBind', s, t);
      return s;
    },
  }));
  fwk.bindPlugins = fwk.bindPlugins.map((p): fw.BindPlugin => ({
    name: p.name,
    bind: async (state, pod, node) => {
      if (!sampled(state)) return p.bind(state, pod, node);
      const t = now();
      const s = await p.bind(state, pod, node);
      observe(p.name, 'Bind', s, t);
      return s;
    },
  }));
  fwk.postBindPlugins = fwk.postBindPlugins.map((p): fw.PostBindPlugin => ({
    name: p.name,
    postBind: (state, pod: PodInfo, node) => {
      if (!sampled(state)) return p.postBind(state, pod, node);
      const t = now();
      p.postBind(state, pod, node);
      observe(p.name, 'PostBind', null, t);
    },
  }));
}
