import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { featureSpecs } from '../api/feature_gate_specs.js';
import { FeatureGates, schedulerGates } from './feature_gates.js';

describe('FeatureGates.parse', () => {
  const refused: { name: string; flags: string[]; want: string }[] = [
    { name: 'an unknown gate, in upstream\'s words', flags: ['NoSuchGate=true'], want: 'unrecognized feature gate: NoSuchGate' },
    { name: 'a gate without a value', flags: ['PodLevelResources'], want: 'missing bool value for PodLevelResources' },
    { name: 'a value strconv.ParseBool refuses', flags: ['PodLevelResources=yes'], want: 'invalid value of PodLevelResources=yes, err: strconv.ParseBool: parsing "yes": invalid syntax' },
    { name: 'a GA gate locked to its default', flags: ['DynamicResourceAllocation=false'], want: 'cannot set feature gate DynamicResourceAllocation to false, feature is locked to true' },
    { name: 'several errors, aggregated', flags: ['DynamicResourceAllocation=false,VolumeAttributesClass=false'], want: '[cannot set feature gate DynamicResourceAllocation to false, feature is locked to true, cannot set feature gate VolumeAttributesClass to false, feature is locked to true]' },
    {
      name: 'a gate enabled while one it depends on is disabled',
      flags: ['MatchLabelKeysInPodTopologySpread=false'],
      want: 'MatchLabelKeysInPodTopologySpreadSelectorMerge is enabled, but depends on features that are disabled: [MatchLabelKeysInPodTopologySpread]',
    },
    {
      name: 'CompositePodGroup without the workload gates it depends on',
      flags: ['CompositePodGroup=true,GenericWorkload=true'],
      want: 'CompositePodGroup is enabled, but depends on features that are disabled: [TopologyAwareWorkloadScheduling]',
    },
    {
      name: 'enabling a gate we have only the default of',
      flags: ['TaintTolerationComparisonOperators=true'],
      want: 'feature gate TaintTolerationComparisonOperators=true is not supported by kube-scheduler-ts: it has only the default\'s behaviour (TaintTolerationComparisonOperators=false, KEP-5471)',
    },
  ];
  for (const tc of refused) it(`refuses ${tc.name}`, () => assert.throws(() => FeatureGates.parse(tc.flags), { name: 'FeatureGateError', message: tc.want }));

  it('takes every gate at its default, and gates no scheduler reads at any value', () => {
    const gates = FeatureGates.parse(['SchedulerPopFromBackoffQ=true, GenericWorkload=false', 'CPUManagerPolicyBetaOptions=false']);
    assert.equal(gates.enabled('SchedulerPopFromBackoffQ'), true);
    assert.equal(gates.enabled('CPUManagerPolicyBetaOptions'), false);
    assert.equal(gates.toString(), 'CPUManagerPolicyBetaOptions=false');
  });

  it('takes CompositePodGroup on with GenericWorkload and TopologyAwareWorkloadScheduling', () => {
    const gates = FeatureGates.parse(['CompositePodGroup=true,GenericWorkload=true,TopologyAwareWorkloadScheduling=true']);
    assert.equal(gates.enabled('CompositePodGroup'), true);
  });

  it('honours MatchLabelKeysInPodTopologySpread off (with the API server\'s merge that depends on it)', () => {
    const gates = FeatureGates.parse(['MatchLabelKeysInPodTopologySpread=false,MatchLabelKeysInPodTopologySpreadSelectorMerge=false']);
    assert.equal(gates.enabled('MatchLabelKeysInPodTopologySpread'), false);
  });

  it('honours DRADeviceTaintRules off (not locked in v1.37.2, unlike DynamicResourceAllocation)', () => {
    const gates = FeatureGates.parse(['DRADeviceTaintRules=false']);
    assert.equal(gates.enabled('DRADeviceTaintRules'), false);
    assert.equal(gates.toString(), 'DRADeviceTaintRules=false');
  });

  it('a later flag overrides an earlier one, and an explicit gate overrides AllBeta', () => {
    assert.equal(FeatureGates.parse(['CPUManagerPolicyBetaOptions=false', 'CPUManagerPolicyBetaOptions=true']).enabled('CPUManagerPolicyBetaOptions'), true);
    assert.throws(() => FeatureGates.parse(['AllBeta=false']), /SchedulerPopFromBackoffQ=false is not supported/);
  });

  it('knows every gate a scheduler reads, and the defaults are the table\'s', () => {
    for (const name of Object.keys(schedulerGates)) {
      assert.ok(featureSpecs[name], name);
      assert.equal(FeatureGates.defaults.enabled(name), featureSpecs[name]!.default, name);
    }
  });
});
