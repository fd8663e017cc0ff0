import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '../../util/clock.js';
import { listTextWithoutManagedFields } from './managed_fields.js';

type Obj = Record<string, unknown>;

/** What the informer keeps of a parsed list: the same items without metadata.managedFields. */
function trimmedAfterParse(text: string): unknown {
  const list = JSON.parse(text) as { items: { metadata: Obj }[] };
  for (const it of list.items) delete it.metadata.managedFields;
  return list;
}

/** An item as the API server writes it: ObjectMeta's fields in their declared order, managedFields last, spec after metadata. */
function item(name: string, extra: { labels?: Obj; annotations?: Obj; managedFields?: unknown[]; spec?: Obj; status?: Obj } = {}): Obj {
  const metadata: Obj = { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '7', creationTimestamp: '2026-11-29T00:00:00Z' };
  if (extra.labels) metadata.labels = extra.labels;
  if (extra.annotations) metadata.annotations = extra.annotations;
  if (extra.managedFields) metadata.managedFields = extra.managedFields;
  const out: Obj = { metadata };
  if (extra.spec) out.spec = extra.spec;
  out.status = extra.status ?? { phase: 'Pending' };
  return out;
}

const entry = (manager: string, fieldsV1: Obj): Obj => ({ manager, operation: 'Update', apiVersion: 'v1', time: '2026-11-29T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1 });
const listText = (items: Obj[]) => JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items });

test('managedFields are cut from a list text: the parse equals parsing all and dropping them, whatever the strings hold', () => {
  // Strings holding both markers, escaped quotes and backslashes, and keys named like the fields.
  const tricky = [',"managedFields":[', ']},"spec":', '\\', '"', '\\"', '],"spec":{', 'k:{"name":"c"}', '}]', 'managedFields'];
  const items = [
    item('a', { managedFields: [entry('kubectl', { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {} } } } })], spec: { containers: [{ name: 'c' }] } }),
    item('b', { labels: { managedFields: 'x' }, annotations: Object.fromEntries(tricky.map((t, i) => [`a${i}${t}`, t])), managedFields: [entry(tricky.join(''), { 'f:metadata': { 'f:annotations': { [`f:${tricky[0]}`]: {} } } }), entry('m2', {})], spec: { nodeSelector: { spec: tricky[1]! } } }),
    item('c', { spec: { containers: [] } }),
    item('d', { managedFields: [entry('kubelet', { 'f:status': { 'f:conditions': { 'k:{"type":"Ready"}': { '.': {} } } } })], spec: {}, status: { note: tricky.join('|') } }),
  ];
  const text = listText(items);
  const cut = listTextWithoutManagedFields(text);
  assert.ok(cut.length < text.length);
  assert.deepEqual(JSON.parse(cut), trimmedAfterParse(text));
});

test('a list without managedFields is returned as it is', () => {
  const text = listText([item('a', { spec: {} }), item('b', { spec: {} })]);
  assert.equal(listTextWithoutManagedFields(text), text);
  assert.equal(listTextWithoutManagedFields('{"kind":"Status","code":500}'), '{"kind":"Status","code":500}');
});

test('a text not laid out as the API server writes it is returned whole', () => {
  const mf = [entry('m', { 'f:spec': {} })];
  // An item without a spec after its managedFields: the next metadata end is another item's.
  const noSpec = listText([item('a', { managedFields: mf }), item('b', { managedFields: mf, spec: {} })]);
  assert.equal(listTextWithoutManagedFields(noSpec), noSpec);
  // The last item without a spec.
  const lastNoSpec = listText([item('a', { managedFields: mf, spec: {} }), item('b', { managedFields: mf })]);
  assert.equal(listTextWithoutManagedFields(lastNoSpec), lastNoSpec);
  // managedFields first in the metadata: no field before it, nothing matched, the informer drops it.
  const first = JSON.stringify({ items: [{ metadata: { managedFields: mf, name: 'a' }, spec: {} }] });
  assert.equal(listTextWithoutManagedFields(first), first);
  // A key named managedFields outside the metadata (no Pod or Node has one): its list's end is not
  // followed by a spec before the next item's managedFields.
  const elsewhere = listText([item('a', { managedFields: mf, spec: { x: 1, managedFields: ['y'] } }), item('b', { managedFields: mf, spec: {} })]);
  assert.equal(listTextWithoutManagedFields(elsewhere), elsewhere);
});

test('randomized lists: the cut text parses to the items without managedFields', () => {
  const random = seededRandom(5);
  const alphabet = ['a', 'z', '"', '\\', ',', ':', '[', ']', '{', '}', 'spec', 'managedFields', ',"managedFields":[', ']},"spec":', '\n', 'é', '\u2028'];
  const str = () => Array.from({ length: Math.floor(random() * 6) }, () => alphabet[Math.floor(random() * alphabet.length)]!).join('');
  const fields = (depth: number): Obj => {
    const o: Obj = {};
    const n = Math.floor(random() * 3);
    for (let i = 0; i < n; i++) o[`${['f:', 'k:', 'v:', 'i:'][Math.floor(random() * 4)]}${str()}`] = depth > 0 ? fields(depth - 1) : {};
    return o;
  };
  for (let round = 0; round < 200; round++) {
    const items: Obj[] = [];
    const n = Math.floor(random() * 6);
    for (let i = 0; i < n; i++) {
      const withFields = random() < 0.8;
      items.push(item(`p${i}${str()}`, {
        labels: random() < 0.5 ? { [str()]: str() } : undefined,
        annotations: random() < 0.5 ? { [str()]: str(), spec: str() } : undefined,
        managedFields: withFields ? Array.from({ length: 1 + Math.floor(random() * 3) }, () => entry(str(), fields(3))) : undefined,
        spec: { containers: [{ name: str(), args: [str(), str()] }], [`x-${str()}`]: [str()] },
        status: { message: str() },
      }));
    }
    const text = listText(items);
    assert.deepEqual(JSON.parse(listTextWithoutManagedFields(text)), trimmedAfterParse(text), `round ${round}`);
  }
});
