// `kube-scheduler-ts/testing`: the test kit for plugins, in-tree and out-of-tree alike: builders
// of pods and nodes (upstream's st.MakePod()/st.MakeNode()), a Handle over a fixed snapshot that
// records what the plugin writes, status assertions, and a scenario builder with a whole
// simulation for a plugin exercised through real scheduling cycles.
export { makePod, makeNode, type PodOptions, type NodeOptions } from './builders.js';
export { newTestHandle, type TestHandleOptions, type RecordedCalls } from './handle.js';
export { assertStatus } from './assert_status.js';
export { assertEqualData } from './assert_data.js';
export { scenario, simulate, ScenarioBuilder, type SimulateOptions } from './scenario.js';
export type { Scenario } from '../sim/scenario/scenario.js';
export type { SimReport, SimPod } from '../sim/simulate/simulate.js';
