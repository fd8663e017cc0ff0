// A bounded cache of compiled selectors (k8s.io/dynamic-resource-allocation/cel/cache.go).
import { getCompiler, type CelFeatures, type CompilationResult, type DeviceSelectorCompiler } from './compile.js';

/** Compiles each expression once; least recently used entries leave first. Failures are not kept. */
export class CelCache {
  private readonly compiler: DeviceSelectorCompiler;
  private readonly entries = new Map<string, CompilationResult>();

  constructor(
    private readonly maxEntries: number,
    features: CelFeatures,
  ) {
    this.compiler = getCompiler(features);
  }

  /** GetOrCompile: compiled without a cost estimate, as the scheduler needs no estimate. */
  getOrCompile(expression: string): CompilationResult {
    const cached = this.entries.get(expression);
    if (cached) {
      // Re-insert to mark it most recently used (a Map iterates in insertion order).
      this.entries.delete(expression);
      this.entries.set(expression, cached);
      return cached;
    }
    const result = this.compiler.compile(expression, { disableCostEstimation: true });
    if (result.error === null) {
      this.entries.set(expression, result);
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    }
    return result;
  }

  get size(): number {
    return this.entries.size;
  }
}
