import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SchedulerMetrics } from './metrics.js';

/** The _count of every series of a metric in the exposition, by its labels' text. */
async function countsOf(m: SchedulerMetrics, metric: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const line of (await m.expose()).split('\n')) {
    const hit = new RegExp(`^${metric}_count\\{(.*)\\} (\\d+)$`).exec(line);
    if (hit) out.set(hit[1]!, Number(hit[2]));
  }
  return out;
}

test("plugin durations: at most 1,000 kept a second, the first ones, as upstream's asynchronous recorder drops the rest", async () => {
  let now = 5_000;
  const m = new SchedulerMetrics(() => now);
  for (let i = 0; i < 1_500; i++) m.observePluginDuration(i < 600 ? 'A' : 'B', 'Filter', 'Success', 0.00001);
  let counts = await countsOf(m, 'scheduler_plugin_execution_duration_seconds');
  assert.equal(counts.get('plugin="A",extension_point="Filter",status="Success"'), 600);
  assert.equal(counts.get('plugin="B",extension_point="Filter",status="Success"'), 400);
  assert.equal(m.pluginDurationWanted(), false, 'full until the next flush');
  now += 999;
  assert.equal(m.pluginDurationWanted(), false);
  // Sign's duration shares the buffer (framework.go); the other points are observed as they come.
  m.observeExtensionPointDuration('Sign', 'Success', 'p', 0.001);
  m.observeExtensionPointDuration('Filter', 'Success', 'p', 0.001);
  const points = await countsOf(m, 'scheduler_framework_extension_point_duration_seconds');
  assert.equal(points.get('extension_point="Sign",status="Success",profile="p"'), undefined);
  assert.equal(points.get('extension_point="Filter",status="Success",profile="p"'), 1);
  now += 1;
  assert.equal(m.pluginDurationWanted(), true, 'a second after the recorder began: flushed, room again');
  for (let i = 0; i < 10; i++) m.observePluginDuration('B', 'Filter', 'Success', 0.00001);
  m.observeExtensionPointDuration('Sign', 'Success', 'p', 0.001);
  counts = await countsOf(m, 'scheduler_plugin_execution_duration_seconds');
  assert.equal(counts.get('plugin="B",extension_point="Filter",status="Success"'), 410);
  assert.equal((await countsOf(m, 'scheduler_framework_extension_point_duration_seconds')).get('extension_point="Sign",status="Success",profile="p"'), 1);
  // Room left over is not carried: a quiet period and then 1,200 in the next keep 1,000.
  now += 5_000;
  for (let i = 0; i < 1_200; i++) m.observePluginDuration('C', 'Score', 'Success', 0.00001);
  counts = await countsOf(m, 'scheduler_plugin_execution_duration_seconds');
  assert.equal(counts.get('plugin="C",extension_point="Score",status="Success"'), 1_000);
});
