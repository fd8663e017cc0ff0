// The DRA CEL environment (k8s.io/dynamic-resource-allocation/cel at v0.37.2), shared by API
// validation (which compiles selectors with a cost estimate) and the structured allocator
// (which evaluates them per device through a CelCache).
//
// Library: @marcbachmann/cel-js. It type-checks against declared variables and custom object
// types, lets opaque types (Quantity, Semver) carry receiver-style methods, supports optional
// types and the standard macros, and has no dependencies. @bufbuild/cel is conformance-tested
// but models custom types as protobuf messages, which Quantity and Semver are not.
//
// Differences from cel-go that remain (rare in real selectors):
// - compile errors carry cel-js's message after upstream's `compilation failed: ERROR:
//   <input>:line:col:` prefix, not cel-go's parser text;
// - `"domain" in device.attributes` is true for any domain (upstream: only present domains),
//   because a lookup of a missing domain must give an empty map and cel-js's `in` is a lookup;
// - costs are estimated by cost.ts, an approximation of cel-go's estimator, and no runtime
//   cost is tracked: device inputs are bounded (32 attributes, 64-character values), so an
//   expression within the estimate stays within the per-evaluation limit;
// - of the apiserver's base libraries, Quantity, Semver, Lists, Regex (find/findAll), optional
//   types and the string functions are there; URLs, IP/CIDR, Format, Authz, Sets and the
//   two-variable comprehensions are not.
export {
  CELSelectorExpressionMaxCost,
  CelEvaluationError,
  CompilationResult,
  DeviceActivation,
  DeviceSelectorCompiler,
  enhanceRuntimeError,
  getCompiler,
  type CelError,
  type CelFeatures,
  type CompileOptions,
  type DeviceInput,
} from './compile.js';
export { CelCache } from './cache.js';
export { parseSemver, Semver, SemverError } from './semver.js';
