// The named-format library (the apiserver's format.go; cases in the spirit of its tests, in our words).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeviceActivation, getCompiler } from './index.js';

const compiler = getCompiler({ consumableCapacity: true, listTypeAttributes: false });
const device = new DeviceActivation({ driver: 'dra.example.com', attributes: { name: { string: 'gpu-0' } } });

const truths = [
  '!format.dns1123Label().validate("my-name").hasValue()',
  'format.dns1123Label().validate("MyName").hasValue()',
  '!format.named("dns1123Label").value().validate("my-name").hasValue()',
  '!format.named("no-such-format").hasValue()',
  '!format.dns1123Subdomain().validate("a.b.c").hasValue()',
  'format.dns1035Label().validate("1abc").hasValue()',
  '!format.qualifiedName().validate("example.com/name").hasValue()',
  // A prefix may end in a dash, as a generateName may.
  '!format.dns1123LabelPrefix().validate("abc-").hasValue()',
  'format.dns1123Label().validate("abc-").hasValue()',
  'format.labelValue().validate("a b").value().size() == 1',
  `format.dns1123Label().validate("${'a'.repeat(64)}").value().size() == 1`,
  '!format.uuid().validate("123e4567-e89b-12d3-a456-426614174000").hasValue()',
  'format.uuid().validate("123e4567").value() == ["does not match the UUID format"]',
  '!format.byte().validate("aGVsbG8=").hasValue()',
  'format.byte().validate("aGVsbG8").value() == ["invalid base64"]',
  '!format.date().validate("2024-02-29").hasValue()',
  'format.date().validate("2023-02-29").value() == ["invalid date"]',
  '!format.datetime().validate("2024-02-29T10:00:00Z").hasValue()',
  'format.datetime().validate("2024-02-29").value() == ["invalid datetime"]',
  '!format.uri().validate("https://example.com/path").hasValue()',
  '!format.uri().validate("/relative/path").hasValue()',
  'format.uri().validate("example").value() == ["parse \\"example\\": invalid URI for request"]',
  '!format.dns1123Label().validate(device.attributes["dra.example.com"].name).hasValue()',
];

test('cel format: named formats validate as the apiserver does', () => {
  for (const e of truths) {
    const result = compiler.compile(e);
    assert.equal(result.error, null, `${e}: ${result.error?.detail}`);
    assert.equal(result.deviceMatches(device), true, e);
  }
});

test('cel format: the DNS label message is the apiserver one', () => {
  const result = compiler.compile('format.dns1123Label().validate("MyName").value()[0].startsWith("a lowercase RFC 1123 label must consist of")');
  assert.equal(result.deviceMatches(device), true);
});

test('cel format: validate costs grow with the string', () => {
  const short = compiler.compile('format.dns1123Label().validate("a").hasValue()').maxCost;
  const long = compiler.compile(`format.dns1123Label().validate("${'a'.repeat(60)}").hasValue()`).maxCost;
  assert.ok(long > short, `${long} vs ${short}`);
});
