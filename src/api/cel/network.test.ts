// The IP and CIDR libraries against the apiserver's ip_test.go and cidr_test.go cases (in our
// words), and netip's address text and parse errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CelEvaluationError, DeviceActivation, getCompiler } from './index.js';
import { parseAddr, parsePrefix } from './network.js';

const compiler = getCompiler({ consumableCapacity: true, listTypeAttributes: false });
const device = new DeviceActivation({ driver: 'dra.example.com' });

/** Each expression must be true. */
const truths = [
  'ip("192.168.0.1") == ip("192.168.0.1")',
  'isIP("192.168.0.1")',
  '!isIP("192.168.0.1.0")',
  'ip.isCanonical("127.0.0.1")',
  'ip("192.168.0.1").family() == 4',
  'ip("0.0.0.0").isUnspecified()',
  '!ip("127.0.0.1").isUnspecified()',
  'ip("127.0.0.1").isLoopback()',
  '!ip("1.2.3.4").isLoopback()',
  'ip("224.0.0.1").isLinkLocalMulticast()',
  '!ip("224.0.1.1").isLinkLocalMulticast()',
  'ip("169.254.169.254").isLinkLocalUnicast()',
  '!ip("192.168.0.1").isLinkLocalUnicast()',
  'ip("192.168.0.1").isGlobalUnicast()',
  '!ip("255.255.255.255").isGlobalUnicast()',
  'isIP("2001:db8::68")',
  '!isIP("2001:db8:::68")',
  'ip.isCanonical("2001:db8::68")',
  '!ip.isCanonical("2001:DB8::68")',
  'ip("2001:db8::68").family() == 6',
  'ip("::").isUnspecified()',
  '!ip("::1").isUnspecified()',
  'ip("::1").isLoopback()',
  '!ip("2001:db8::abcd").isLoopback()',
  'ip("ff02::1").isLinkLocalMulticast()',
  '!ip("fd00::1").isLinkLocalMulticast()',
  'ip("fe80::1").isLinkLocalUnicast()',
  '!ip("fd80::1").isLinkLocalUnicast()',
  'ip("2001:db8::abcd").isGlobalUnicast()',
  '!ip("ff00::1").isGlobalUnicast()',
  'string(ip("192.168.0.1")) == "192.168.0.1"',
  'cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))',
  '!cidr("192.168.0.0/24").containsIP(ip("192.168.1.1"))',
  'cidr("192.168.0.0/24").containsIP("192.168.0.1")',
  '!cidr("192.168.0.0/24").containsIP("192.168.1.1")',
  'cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25"))',
  'cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.1/32"))',
  '!cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23"))',
  '!cidr("192.168.0.0/24").containsCIDR(cidr("192.169.0.1/32"))',
  'cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")',
  '!cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23")',
  'cidr("192.168.0.0/24").ip() == ip("192.168.0.0")',
  'cidr("192.168.0.1/24").masked() == cidr("192.168.0.0/24")',
  'cidr("192.168.0.0/24").prefixLength() == 24',
  'cidr("2001:db8::/32").containsIP(ip("2001:db8::1"))',
  '!cidr("2001:db8::/32").containsIP("2001:dc8::1")',
  'cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))',
  '!cidr("2001:db8::/32").containsCIDR("2001:db8::/31")',
  'cidr("2001:db8:1::/32").masked() == cidr("2001:db8::/32")',
  'cidr("2001:db8::/32").prefixLength() == 32',
  'string(cidr("192.168.0.0/24")) == "192.168.0.0/24"',
  '!cidr("10.0.0.0/8").containsIP("2001:db8::1")',
  'isCIDR("10.0.0.0/8") && !isCIDR("10.0.0.0/33") && !isCIDR("10.0.0.0")',
];

test('cel network: ip and cidr functions', () => {
  for (const e of truths) {
    const result = compiler.compile(e);
    assert.equal(result.error, null, `${e}: ${result.error?.detail}`);
    assert.equal(result.deviceMatches(device), true, e);
  }
});

test('cel network: runtime errors in upstream words', () => {
  const cases: [string, string][] = [
    ['ip("192.168.0.1.0").family() == 4', 'IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long'],
    ['ip.isCanonical("127.0.0.1.0")', 'IP Address "127.0.0.1.0" parse error during conversion from string: ParseAddr("127.0.0.1.0"): IPv4 address too long'],
    ['ip("2001:db8:::68").family() == 6', 'IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")'],
    ['ip("fe80::1%eth0").family() == 6', 'IP address "fe80::1%eth0" with zone value is not allowed'],
    ['ip("::ffff:1.2.3.4").family() == 6', 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed'],
    [
      'cidr("192.168.0.0/").prefixLength() == 0',
      'network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""',
    ],
  ];
  for (const [expression, message] of cases) {
    const result = compiler.compile(expression);
    assert.equal(result.error, null, result.error?.detail);
    assert.throws(
      () => result.deviceMatches(device),
      (err: unknown) => err instanceof CelEvaluationError && err.message === message,
      expression,
    );
  }
});

test('cel network: an IP is no string to isIP', () => {
  const result = compiler.compile('isIP(cidr("192.168.0.0/24"))');
  assert.match(result.error?.detail ?? '', /compilation failed/);
});

test('netip: address text and parse errors', () => {
  const texts: [string, string][] = [
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['0:0:0:0:0:0:0:0', '::'],
    ['1:0:0:2:0:0:0:3', '1:0:0:2::3'],
    ['1:2:3:4:5:6:7:0', '1:2:3:4:5:6:7:0'],
    ['::1.2.3.4', '::102:304'],
    ['10.0.0.1', '10.0.0.1'],
  ];
  for (const [input, text] of texts) assert.equal(parseAddr(input).toString(), text, input);
  const errors: [string, RegExp][] = [
    ['1.2.3', /IPv4 address too short/],
    ['1.2.3.256', /IPv4 field has value >255/],
    ['1..2.3', /IPv4 field must have at least one digit \(at "\.2\.3"\)/],
    ['1.2.3.x', /unexpected character \(at "x"\)/],
    ['%eth0', /missing IPv6 address/],
    ['abc', /unable to parse IP/],
    ['1::2::3', /multiple :: in address/],
    ['1:2:3:4:5:6:7', /address string too short/],
    ['1:2:3:4:5:6:7:8::', /the :: must expand to at least one field of zeros/],
    ['12345::', /each group must have 4 or less digits/],
  ];
  for (const [input, message] of errors) assert.throws(() => parseAddr(input), message, input);
  assert.throws(() => parsePrefix('10.0.0.0'), /no '\/'/);
  assert.throws(() => parsePrefix('10.0.0.0/08'), /bad bits after slash: "08"/);
  assert.throws(() => parsePrefix('fe80::1%eth0/64'), /IPv6 zones cannot be present in a prefix/);
  assert.equal(parsePrefix('10.1.2.3/8').masked().toString(), '10.0.0.0/8');
});
