// Scenarios of upstream's queuesort/priority_sort_test.go.
import { defaultFeatures } from '../../framework/features.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { QueuedPodInfo } from '../../framework/interfaces.js';
import { PodInfo } from '../../framework/pod_info.js';
import { makePod } from '../../testing/builders.js';
import { prioritySortDefinition } from './index.js';
import { newTestHandle } from '../../testing/handle.js';
import { isQueueSortPlugin } from '../../framework/interfaces.js';

function queued(name: string, priority: number | undefined, timestamp: number): QueuedPodInfo {
  return {
    podInfo: new PodInfo(makePod(name, priority === undefined ? {} : { priority })),
    timestamp,
    attempts: 0,
    initialAttemptTimestamp: null,
    unschedulablePlugins: new Set(),
    pendingPlugins: new Set(),
    gatingPlugin: null,
  };
}

describe('PrioritySort', () => {
  const plugin = prioritySortDefinition.factory(undefined, newTestHandle(), defaultFeatures);
  assert.ok(isQueueSortPlugin(plugin));
  const cases = [
    { name: 'p1.priority less than p2.priority', a: queued('p1', 1, 0), b: queued('p2', 100, 0), want: false },
    { name: 'p1.priority greater than p2.priority', a: queued('p1', 100, 0), b: queued('p2', 1, 0), want: true },
    { name: 'equal priority, p1 added to the queue earlier', a: queued('p1', 100, 10), b: queued('p2', 100, 20), want: true },
    { name: 'equal priority, p2 added to the queue earlier', a: queued('p1', 100, 20), b: queued('p2', 100, 10), want: false },
    { name: 'equal priority and timestamp is not less', a: queued('p1', 100, 10), b: queued('p2', 100, 10), want: false },
    { name: 'a pod without priority counts as priority 0', a: queued('p1', undefined, 0), b: queued('p2', -1, 0), want: true },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(plugin.less(c.a, c.b), c.want));
  }
});
