import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FeatureGates } from '../config/feature_gates.js';
import { defaultFeatures, featuresFromGates } from '../framework/features.js';

describe('Features', () => {
  it('defaultFeatures are the pinned release\'s gate defaults', () => {
    assert.deepEqual(featuresFromGates((g) => FeatureGates.defaults.enabled(g)), defaultFeatures);
  });

  it('copies the gates\' values', () => {
    const gates = FeatureGates.parse(['MatchLabelKeysInPodTopologySpread=false,MatchLabelKeysInPodTopologySpreadSelectorMerge=false']);
    assert.deepEqual(featuresFromGates((g) => gates.enabled(g)), { ...defaultFeatures, enableMatchLabelKeysInPodTopologySpread: false });
  });
});
