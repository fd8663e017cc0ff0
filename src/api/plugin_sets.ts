// A profile's plugin sets in their kubescheduler.config.k8s.io/v1 JSON shape (Plugins, PluginSet,
// Plugin, PluginConfig in staging/src/k8s.io/kube-scheduler/config/v1/types.go), declared once
// for the configuration (which loads and defaults them) and the framework runtime (which builds them).
import type { PluginSetName } from './extension_points.js';

/** A plugin reference; `weight` only matters for Score (and multiPoint plugins that score). */
export interface PluginRef {
  name: string;
  weight?: number;
}

export interface PluginSet {
  enabled?: PluginRef[];
  disabled?: { name: string }[];
}

export type Plugins = Partial<Record<PluginSetName, PluginSet>>;

export interface PluginConfig {
  name: string;
  /** Arbitrary JSON; in-tree kinds are decoded strictly and may carry apiVersion/kind. */
  args?: unknown;
}
