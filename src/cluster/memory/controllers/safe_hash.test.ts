// Hash names as upstream's functions compute them: the expected values come from a Go program over
// k8s.io/apimachinery v0.37.2 (hash/fnv New32a, binary.LittleEndian collision bytes,
// rand.SafeEncodeString of fmt.Sprint(Sum32())).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { templateHash } from './deployment.js';
import { safeHash } from './safe_hash.js';

const webTemplate = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };

describe('safe hashes', () => {
  it('SafeEncodeString maps character codes, as upstream ("0123456789" would be 456789bcdf)', () => {
    // Go: rand.SafeEncodeString(fmt.Sprint(fnv32a("{}"))) == "5859f96865".
    assert.equal(safeHash('{}'), '5859f96865');
    assert.equal(safeHash('{"a":"é"}'), '7b5dfb6b86', 'hashed over UTF-8 bytes');
  });

  it('templateHash is ComputeHash over the canonical JSON, with the collision count\'s 8 bytes when set', () => {
    const cases: { template: unknown; collisionCount?: number; want: string }[] = [
      { template: {}, want: '5859f96865' },
      { template: {}, collisionCount: 0, want: '7b58f74dd9' },
      { template: {}, collisionCount: 1, want: '648d6bd896' },
      { template: webTemplate, want: '5776f98846' },
      { template: webTemplate, collisionCount: 0, want: '68669c6dfd' },
      { template: webTemplate, collisionCount: 1, want: '7fdf679775' },
      { template: { a: 'é' }, collisionCount: 0, want: '6745fb8fd' },
    ];
    for (const c of cases) assert.equal(templateHash(c.template, c.collisionCount), c.want, JSON.stringify(c));
  });
});
