// DynamicResourcesArgs defaulting and validation (TestValidateDynamicResourcesArgs, SetDefaults).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultDynamicResourcesArgs, validateDynamicResourcesArgs } from './args.js';
import { pinnedDraFeatures } from './features.js';

describe('DynamicResourcesArgs', () => {
  it('defaults both timeouts, their gates being on in v1.37', () => {
    assert.deepEqual(defaultDynamicResourcesArgs({}), { filterTimeout: '10s', bindingTimeout: '10m0s' });
  });

  it('leaves a timeout unset when its gate is off', () => {
    const f = { ...pinnedDraFeatures, enableDRASchedulerFilterTimeout: false, enableDRADeviceBindingConditions: false };
    assert.deepEqual(defaultDynamicResourcesArgs({}, f), {});
  });

  it('refuses an unknown field', () => {
    assert.throws(() => defaultDynamicResourcesArgs({ timeout: '1s' }), /unknown field "timeout"/);
  });

  const cases: { name: string; args: { filterTimeout?: string; bindingTimeout?: string }; gatesOff?: boolean; want: string[] }[] = [
    { name: 'zero filter timeout disables the limit', args: { filterTimeout: '0s' }, want: [] },
    { name: 'negative filter timeout', args: { filterTimeout: '-1s' }, want: ['args.filterTimeout: must be zero or positive'] },
    { name: 'binding timeout below a second', args: { bindingTimeout: '500ms' }, want: ['args.bindingTimeout: must be at least 1 second'] },
    {
      name: 'timeouts set while their gates are off',
      args: { filterTimeout: '1s', bindingTimeout: '1m' },
      gatesOff: true,
      want: ['args.filterTimeout: DRASchedulingFilterTimeout feature gate is disabled', 'args.bindingTimeout: DRADeviceBindingConditions or DRAResourceClaimDeviceStatus feature gate is disabled'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const f = c.gatesOff ? { ...pinnedDraFeatures, enableDRASchedulerFilterTimeout: false, enableDRAResourceClaimDeviceStatus: false } : pinnedDraFeatures;
      const errs = validateDynamicResourcesArgs(c.args, 'args', f);
      assert.equal(errs.length, c.want.length, JSON.stringify(errs));
      for (let i = 0; i < errs.length; i++) {
        const [path, detail] = c.want[i]!.split(': ');
        assert.equal(errs[i]!.path, path);
        assert.ok(errs[i]!.message.includes(detail!), errs[i]!.message);
      }
    });
  }
});
