// Bad input is recognised by one base class: every error the user's input causes extends
// BadInputError, so the CLI exits 2 with the message alone; an internal error does not.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../src/config/errors.js';
import { FeatureGateError } from '../src/config/feature_gates.js';
import { UsageError } from '../src/cli/io.js';
import { ExtenderSetupError } from '../src/extender/build.js';
import { ScenarioError } from '../src/sim/scenario/scenario.js';
import { BadInputError } from '../src/util/bad_input.js';
import { runCli } from '../src/cli/main.js';

describe('BadInputError', () => {
  const cases: { name: string; err: Error }[] = [
    { name: 'ConfigError', err: new ConfigError('cfg.yaml', [{ path: 'profiles', message: 'Required value' }]) },
    { name: 'FeatureGateError', err: new FeatureGateError('unrecognized feature gate: Nope') },
    { name: 'UsageError', err: new UsageError('unknown flag --nope') },
    { name: 'ExtenderSetupError', err: new ExtenderSetupError([{ path: 'extenders[0].tlsConfig.caFile', message: 'cannot read' }]) },
    { name: 'ScenarioError', err: new ScenarioError('s.yaml: bad') },
  ];
  for (const c of cases) {
    it(`${c.name} is bad input and keeps its own name`, () => {
      assert.ok(c.err instanceof BadInputError);
      assert.equal(c.err.name, c.name);
    });
  }

  it('a profile the framework cannot build (FrameworkError) makes the CLI exit 2 with the message only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bad-input-'));
    const config = join(dir, 'cfg.yaml');
    // NodeName enabled at Score: configuration validation cannot know, building the profile refuses it.
    writeFileSync(config, [
      'apiVersion: kubescheduler.config.k8s.io/v1',
      'kind: KubeSchedulerConfiguration',
      'profiles:',
      '  - schedulerName: default-scheduler',
      '    plugins:',
      '      score:',
      '        enabled: [{ name: NodeName }]',
    ].join('\n'));
    let stderr = '';
    const code = await runCli(['simulate', '--config', config], { stdout: () => {}, stderr: (t) => (stderr += t) });
    assert.equal(code, 2, stderr);
    assert.equal(stderr, 'error: plugin "NodeName" does not extend ScorePlugin plugin\n');
  });
});
