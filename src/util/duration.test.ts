import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDurationNanos, parseDurationNanos } from './duration.js';

test('parseDurationNanos reads Go durations', () => {
  const cases: [string, number][] = [
    ['0', 0],
    ['15s', 15e9],
    ['+5s', 5e9],
    ['-1.5h', -5400e9],
    ['2h45m', 9900e9],
    ['300ms', 300e6],
    ['1.5s', 1.5e9],
    ['.5s', 0.5e9],
    ['1µs', 1e3],
    ['1us', 1e3],
    ['10ns', 10],
    ['1m0.1s', 60.1e9],
  ];
  for (const [text, want] of cases) assert.equal(parseDurationNanos(text), want, text);
});

test('parseDurationNanos rejects what time.ParseDuration rejects, with its messages', () => {
  const cases: [string, string][] = [
    ['', 'time: invalid duration ""'],
    ['abc', 'time: invalid duration "abc"'],
    ['.s', 'time: invalid duration ".s"'],
    ['1', 'time: missing unit in duration "1"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['-', 'time: invalid duration "-"'],
  ];
  for (const [text, message] of cases) assert.throws(() => parseDurationNanos(text), { message }, text);
});

test('formatDurationNanos prints as Duration.String', () => {
  const cases: [number, string][] = [
    [0, '0s'],
    [15e9, '15s'],
    [90e9, '1m30s'],
    [3600e9, '1h0m0s'],
    [1.5e9, '1.5s'],
    [300e6, '300ms'],
    [1500, '1.5µs'],
    [7, '7ns'],
    [-2e9, '-2s'],
  ];
  for (const [nanos, want] of cases) assert.equal(formatDurationNanos(nanos), want, want);
});
