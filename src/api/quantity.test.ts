// Tests for quantity.ts: the parse scenarios of apimachinery's quantity_test.go (TestQuantityParse
// and its invalid inputs) and Value/MilliValue results checked against upstream's Go code.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { exactScaledValue, parseQuantity, QuantityError, quantityMilliValue, quantityValue, type QuantityFormat } from './quantity.js';

/** value × 10^exponent in nano-units. */
function nanos(value: bigint | number, exponent: number): bigint {
  const v = BigInt(value);
  const k = exponent + 9;
  return k >= 0 ? v * 10n ** BigInt(k) : v / 10n ** BigInt(-k);
}

const maxInt64 = 9223372036854775807n;

// input, exact value as (mantissa, exponent), format: TestQuantityParse's table.
const parseTable: [string, bigint | number, number, QuantityFormat][] = [
  ['0', 0, 0, 'DecimalSI'],
  ['0n', 0, 0, 'DecimalSI'],
  ['0u', 0, 0, 'DecimalSI'],
  ['0m', 0, 0, 'DecimalSI'],
  ['0Ki', 0, 0, 'BinarySI'],
  ['0k', 0, 0, 'DecimalSI'],
  ['0Mi', 0, 0, 'BinarySI'],
  ['0M', 0, 0, 'DecimalSI'],
  ['0Gi', 0, 0, 'BinarySI'],
  ['0G', 0, 0, 'DecimalSI'],
  ['0Ti', 0, 0, 'BinarySI'],
  ['0T', 0, 0, 'DecimalSI'],
  // a bare number
  ['1', 1, 0, 'DecimalSI'],
  // binary suffixes
  ['1Ki', 1024, 0, 'BinarySI'],
  ['8Ki', 8 * 1024, 0, 'BinarySI'],
  ['7Mi', 7 * 1024 * 1024, 0, 'BinarySI'],
  ['6Gi', 6 * 1024 ** 3, 0, 'BinarySI'],
  ['5Ti', 5 * 1024 ** 4, 0, 'BinarySI'],
  ['4Pi', 4n * 1024n ** 5n, 0, 'BinarySI'],
  ['3Ei', 3n * 1024n ** 6n, 0, 'BinarySI'],
  ['10Ti', 10 * 1024 ** 4, 0, 'BinarySI'],
  ['100Ti', 100 * 1024 ** 4, 0, 'BinarySI'],
  // decimal suffixes
  ['5n', 5, -9, 'DecimalSI'],
  ['4u', 4, -6, 'DecimalSI'],
  ['3m', 3, -3, 'DecimalSI'],
  ['9', 9, 0, 'DecimalSI'],
  ['8k', 8, 3, 'DecimalSI'],
  ['50k', 5, 4, 'DecimalSI'],
  ['7M', 7, 6, 'DecimalSI'],
  ['6G', 6, 9, 'DecimalSI'],
  ['5T', 5, 12, 'DecimalSI'],
  ['40T', 4, 13, 'DecimalSI'],
  ['300T', 3, 14, 'DecimalSI'],
  ['2P', 2, 15, 'DecimalSI'],
  ['1E', 1, 18, 'DecimalSI'],
  // decimal exponents
  ['1E-3', 1, -3, 'DecimalExponent'],
  ['1e3', 1, 3, 'DecimalExponent'],
  ['1E6', 1, 6, 'DecimalExponent'],
  ['1e9', 1, 9, 'DecimalExponent'],
  ['1E12', 1, 12, 'DecimalExponent'],
  ['1e15', 1, 15, 'DecimalExponent'],
  ['1E18', 1, 18, 'DecimalExponent'],
  // nonstandard but parsable
  ['1e14', 1, 14, 'DecimalExponent'],
  ['1e13', 1, 13, 'DecimalExponent'],
  ['100.035k', 100035, 0, 'DecimalSI'],
  // things that look like floating point
  ['0.001', 1, -3, 'DecimalSI'],
  ['0.0005k', 5, -1, 'DecimalSI'],
  ['0.005', 5, -3, 'DecimalSI'],
  ['0.05', 5, -2, 'DecimalSI'],
  ['0.5', 5, -1, 'DecimalSI'],
  ['0.00050k', 5, -1, 'DecimalSI'],
  ['0.00500', 5, -3, 'DecimalSI'],
  ['0.05000', 5, -2, 'DecimalSI'],
  ['0.50000', 5, -1, 'DecimalSI'],
  ['0.5e0', 5, -1, 'DecimalExponent'],
  ['0.5e-1', 5, -2, 'DecimalExponent'],
  ['0.5e-2', 5, -3, 'DecimalExponent'],
  ['10.035M', 10035, 3, 'DecimalSI'],
  ['1.2e3', 12, 2, 'DecimalExponent'],
  ['1.3E+6', 13, 5, 'DecimalExponent'],
  ['1.40e9', 14, 8, 'DecimalExponent'],
  ['1.53E12', 153, 10, 'DecimalExponent'],
  ['1.6e15', 16, 14, 'DecimalExponent'],
  ['1.7E18', 17, 17, 'DecimalExponent'],
  ['9.01', 901, -2, 'DecimalSI'],
  ['8.1k', 81, 2, 'DecimalSI'],
  ['7.123456M', 7123456, 0, 'DecimalSI'],
  ['6.987654321G', 6987654321, 0, 'DecimalSI'],
  ['5.444T', 5444, 9, 'DecimalSI'],
  ['40.1T', 401, 11, 'DecimalSI'],
  ['300.2T', 3002, 11, 'DecimalSI'],
  ['2.5P', 25, 14, 'DecimalSI'],
  ['1.01E', 101, 16, 'DecimalSI'],
  // things that saturate or round up to whole nano-units
  ['3.001n', 4, -9, 'DecimalSI'],
  ['1.1E-9', 2, -9, 'DecimalExponent'],
  ['0.0000000001', 1, -9, 'DecimalSI'],
  ['0.0000000005', 1, -9, 'DecimalSI'],
  ['0.00000000050', 1, -9, 'DecimalSI'],
  ['0.5e-9', 1, -9, 'DecimalExponent'],
  ['0.9n', 1, -9, 'DecimalSI'],
  ['0.00000012345', 124, -9, 'DecimalSI'],
  ['0.00000012354', 124, -9, 'DecimalSI'],
  ['9Ei', maxInt64, 0, 'BinarySI'],
  ['9223372036854775807Ki', maxInt64, 0, 'BinarySI'],
  ['12E', 12, 18, 'DecimalSI'],
  // fractional binary values
  ['100.035Ki', 10243584, -2, 'BinarySI'],
  ['0.5Mi', 0.5 * 1024 * 1024, 0, 'BinarySI'],
  ['0.05Gi', 536870912, -1, 'BinarySI'],
  ['0.025Ti', 274877906944, -1, 'BinarySI'],
  // odd but accepted spellings; a tiny binary value becomes DecimalSI
  ['0.000000000001Ki', 2, -9, 'DecimalSI'],
  ['.001', 1, -3, 'DecimalSI'],
  ['.0001k', 100, -3, 'DecimalSI'],
  ['1.', 1, 0, 'DecimalSI'],
  ['1.G', 1, 9, 'DecimalSI'],
];

describe('parseQuantity: upstream parse table', () => {
  for (const [input, mantissa, exponent, format] of parseTable) {
    for (const prefix of ['', '+', '-']) {
      const text = prefix + input;
      it(`parses ${JSON.stringify(text)}`, () => {
        const q = parseQuantity(text);
        const want = nanos(mantissa, exponent);
        assert.equal(q.nanoValue(), prefix === '-' ? -want : want);
        assert.equal(q.format, format);
      });
    }
  }
});

describe('parseQuantity: rejected input', () => {
  const invalid: [string, string][] = [
    ['', 'FormatWrong'],
    ['1.1.M', 'FormatWrong'],
    ['1+1.0M', 'FormatWrong'],
    ['0.1mi', 'Suffix'],
    ['0.1am', 'FormatWrong'],
    ['aoeu', 'FormatWrong'],
    ['.5i', 'Suffix'],
    ['1i', 'Suffix'],
    ['-3.01i', 'Suffix'],
    ['-3.01e-', 'Suffix'],
    [' 1', 'FormatWrong'],
    ['1 ', 'FormatWrong'],
    ['1.2.3', 'FormatWrong'],
    ['1Ki5', 'Suffix'],
    ['1e3Ki', 'FormatWrong'],
    ['1ki', 'Suffix'],
    ['1K', 'Suffix'],
    ['1e', 'Suffix'],
    ['1e+', 'Suffix'],
    ['1ee3', 'Suffix'],
    ['1e99999999999999999999', 'Suffix'],
    ['Non-Numeric', 'FormatWrong'],
    // no digits where upstream needs its decimal parser
    ['Pi', 'Numeric'],
    ['Ei', 'Numeric'],
    ['e-20', 'Numeric'],
  ];
  for (const [input, reason] of invalid) {
    it(`rejects ${JSON.stringify(input)} (${reason})`, () => {
      assert.throws(
        () => parseQuantity(input),
        (err: unknown) => err instanceof QuantityError && err.reason === reason && err.input === input && err.message.includes(JSON.stringify(input)),
      );
      assert.throws(() => quantityValue(input), QuantityError);
      assert.throws(() => quantityMilliValue(input), QuantityError);
    });
  }

  it('names the input and upstream reason in the message', () => {
    assert.throws(() => quantityValue('1.2.3'), {
      name: 'QuantityError',
      message: `invalid quantity "1.2.3": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    });
    assert.throws(() => quantityValue('5Q'), { message: `invalid quantity "5Q": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'` });
    assert.throws(() => quantityValue('5ki'), { message: `invalid quantity "5ki": unable to parse quantity's suffix` });
    assert.throws(() => quantityValue('Ei'), { message: 'invalid quantity "Ei": unable to parse numeric part of quantity' });
  });

  it('rejects non-finite numbers', () => {
    assert.throws(() => quantityValue(Number.NaN), QuantityError);
    assert.throws(() => quantityValue(Number.POSITIVE_INFINITY), QuantityError);
  });
});

describe('parseQuantity: inputs upstream accepts as zero', () => {
  // Upstream's scanner treats a missing number as 0 wherever its int64 path applies.
  for (const input of ['Mi', 'Ki', 'Ti', 'e3', 'E', 'm', '.', '-', '+', '-.', '+.', '0Pi', '0.0Gi', '-0']) {
    it(`${JSON.stringify(input)} is 0`, () => {
      assert.equal(quantityValue(input), 0);
      assert.equal(quantityMilliValue(input), 0);
      assert.equal(parseQuantity(input).sign, 0);
    });
  }
});

// Value() and MilliValue() as upstream's Go code returns them (int64), for common and edge forms.
const valueTable: [string, bigint, bigint, boolean][] = [
  // input, Value, MilliValue, int64 form
  ['100m', 1n, 100n, true],
  ['0.1m', 1n, 1n, true],
  ['1.5m', 1n, 2n, true],
  ['2', 2n, 2000n, true],
  ['0.5', 1n, 500n, true],
  ['1.5', 2n, 1500n, true],
  ['1Gi', 1073741824n, 1073741824000n, true],
  ['1.5Gi', 1610612736n, 1610612736000n, false],
  ['0.5Gi', 536870912n, 536870912000n, false],
  ['512Mi', 536870912n, 536870912000n, true],
  ['1k', 1000n, 1000000n, true],
  ['1.1e2', 110n, 110000n, true],
  ['5e-1', 1n, 500n, true],
  ['1e-3', 1n, 1n, true],
  ['1e-10', 1n, 1n, false],
  ['3.001n', 1n, 1n, false],
  ['1P', 1000000000000000n, 1000000000000000000n, true],
  // int64 overflow inside upstream's readers: wrapped products or 0, as Go computes them
  ['1E', 1000000000000000000n, 0n, true],
  ['9E', 9000000000000000000n, 0n, true],
  ['10E', 0n, 0n, true],
  ['1e19', 0n, 0n, true],
  ['100000000000000000k', 7766279631452241920n, 200376420520689664n, true],
  ['12345678901234567', 12345678901234567n, -6101065172474984616n, true],
  ['1234567890123456789', 1234567890123456789n, -1363962815083169272n, false],
  ['9223372036854775807', 9223372036854775807n, -1000n, false],
  ['9223372036854775808', -9223372036854775808n, 0n, false],
  ['9Ei', 9223372036854775807n, -1000n, false],
  ['1Ei', 1152921504606846976n, -9223372036854775808n, false],
  ['7Pi', 7881299347898368n, 7881299347898368000n, false],
  // the exponent is narrowed to int32 as upstream does: 2^32+1 becomes 1
  ['1e4294967297', 10n, 10000n, true],
  // negative values: the int64 form rounds away from zero, the decimal form up
  ['-1.5', -2n, -1500n, true],
  ['-0.5', -1n, -500n, true],
  ['-1.5m', -1n, -2n, true],
  ['-1Gi', -1073741824n, -1073741824000n, true],
  ['-0.0000000001', 1n, 1n, false],
];

describe('Value and MilliValue', () => {
  for (const [input, value, milli, int64Form] of valueTable) {
    it(`${input}: Value ${value}, MilliValue ${milli}`, () => {
      const q = parseQuantity(input);
      assert.equal(q.int64Form, int64Form);
      assert.equal(q.scaledValue(0), value);
      assert.equal(q.scaledValue(-3), milli);
      assert.equal(quantityValue(input), Number(value));
      assert.equal(quantityMilliValue(input), Number(milli));
      assert.equal(q.value(), Number(value));
      assert.equal(q.milliValue(), Number(milli));
    });
  }

  it('reads other scales as ScaledValue does', () => {
    assert.equal(parseQuantity('100m').scaledValue(-9), 100000000n);
    assert.equal(parseQuantity('1Gi').scaledValue(3), 1073742n);
    // ×10^12 is done by the overflowing loop: 0
    assert.equal(parseQuantity('1Gi').scaledValue(-12), 0n);
    assert.equal(parseQuantity('9Ei').scaledValue(-9), -1000000000n);
  });

  it('evaluates huge exponents without expanding them', () => {
    assert.equal(quantityValue('1e2147483647'), 0);
    assert.equal(quantityValue('1e-2147483648'), 0); // -MinInt32 wraps: 10^2147483648
    assert.equal(quantityValue('5e-2147483639'), 1);
    assert.equal(quantityMilliValue('1e-400'), 1);
    assert.throws(() => parseQuantity('1e999999').nanoValue(), QuantityError);
  });
});

describe('numbers from JSON or YAML', () => {
  const cases: [number, string][] = [
    [2, '2'], [0.5, '0.5'], [0.25, '0.25'], [110, '110'], [1.5, '1.5'], [-3, '-3'], [0, '0'],
    [1e21, '1e21'], [1e-7, '1e-7'], [1 / 3, '0.3333333333333333'], [2 ** 53 + 2, '9007199254740994'],
  ];
  for (const [n, text] of cases) {
    it(`${n} reads as ${text}`, () => {
      assert.equal(quantityValue(n), quantityValue(text));
      assert.equal(quantityMilliValue(n), quantityMilliValue(text));
      assert.equal(parseQuantity(n).nanoValue(), parseQuantity(text).nanoValue());
    });
  }

  it('reads null as zero, as JSON null decodes', () => {
    assert.equal(quantityValue(null), 0);
    assert.equal(parseQuantity(null).sign, 0);
  });

  it('never returns negative zero', () => {
    assert.ok(Object.is(quantityValue(-0), 0));
    assert.ok(Object.is(quantityMilliValue('-0.0'), 0));
  });
});

describe('exactScaledValue', () => {
  const cases: [string, 0 | -3, number | undefined][] = [
    ['100m', -3, 100],
    ['100m', 0, undefined],
    ['1.5m', -3, undefined],
    ['2', -3, 2000],
    ['1Gi', 0, 1073741824],
    ['1.5Gi', 0, 1610612736],
    ['0.5', 0, undefined],
    ['0.5', -3, 500],
    ['1e-10', -3, undefined],
    ['1E', 0, undefined], // beyond 2^53
    ['12345678901234567', 0, undefined],
    ['1.1e2', 0, 110],
    ['-250m', -3, -250],
  ];
  for (const [input, scale, want] of cases) {
    it(`${input} at 10^${scale} is ${want}`, () => {
      assert.equal(exactScaledValue(input, scale), want);
    });
  }
});

describe('readings kept per string', () => {
  it('a string read again, at each scale, reads as a fresh parse does, also past the bound', () => {
    // More distinct strings than the readings keep, each read twice at every scale, interleaved.
    const inputs: string[] = [];
    for (let i = 0; i < 5000; i++) inputs.push(i % 3 === 0 ? `${i}m` : i % 3 === 1 ? `${i}Mi` : `${i / 8}`);
    for (let round = 0; round < 2; round++) {
      for (const input of inputs) {
        const q = parseQuantity(input);
        assert.equal(quantityValue(input), q.value(), `${input} Value, round ${round}`);
        assert.equal(quantityMilliValue(input), q.milliValue(), `${input} MilliValue, round ${round}`);
        const whole = q.scaledValue(0) * 1000n === q.scaledValue(-3) && q.nanoValue() % 1_000_000_000n === 0n;
        assert.equal(exactScaledValue(input, 0), whole ? q.value() : undefined, `${input} exact at 10^0, round ${round}`);
      }
    }
  });

  it('a value that is not whole at a scale stays undefined when read again', () => {
    for (let i = 0; i < 2; i++) {
      assert.equal(exactScaledValue('1.5m', -3), undefined);
      assert.equal(exactScaledValue('100m', 0), undefined);
      assert.equal(exactScaledValue('100m', -3), 100);
    }
  });

  it('a bad string is refused every time it is read', () => {
    for (let i = 0; i < 3; i++) {
      assert.throws(() => quantityValue('1ki'), QuantityError);
      assert.throws(() => quantityMilliValue('1ki'), QuantityError);
      assert.throws(() => exactScaledValue('1ki', -3), QuantityError);
    }
  });
});
