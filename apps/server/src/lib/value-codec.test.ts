import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeValue, encodeValue } from './value-codec';

const sameBits = (a: Float64Array, b: Float64Array) =>
  a.length === b.length && a.every((value, index) => Object.is(value, b[index]));

const barsArbitrary = fc
  .record({
    symbol: fc.string(),
    values: fc.array(fc.double(), { maxLength: 64 }),
    from: fc.nat(70),
    extra: fc.nat(70),
  })
  .map(({ symbol, values, from, extra }) => {
    const all = new Float64Array(values);
    const start = Math.min(from, all.length);
    const end = Math.min(all.length, start + extra);
    // Views into one buffer, as sliceBars makes them.
    const view = all.subarray(start, end);
    return { symbol, time: view, open: view, high: all, low: all.subarray(0, 0), close: view, volume: all.subarray(start) };
  });

describe('value codec', () => {
  it('round-trips bars: every typed array (views included) as a Float64Array of the same bits', () => {
    fc.assert(
      fc.property(barsArbitrary, (bars) => {
        const back = decodeValue<typeof bars>(encodeValue(bars));
        expect(back.symbol).toBe(bars.symbol);
        for (const field of ['time', 'open', 'high', 'low', 'close', 'volume'] as const) {
          expect(back[field]).toBeInstanceOf(Float64Array);
          expect(sameBits(back[field], bars[field])).toBe(true);
        }
      }),
    );
  });

  it('keeps NaN, -0 and the infinities inside typed arrays', () => {
    const source = new Float64Array([1, NaN, -0, Infinity, -Infinity, 5e-324, 2]);
    const back = decodeValue<{ v: Float64Array }>(encodeValue({ v: source.subarray(1, 6) }));
    expect(sameBits(back.v, source.subarray(1, 6))).toBe(true);
    expect(Object.is(back.v[1], -0)).toBe(true);
  });

  it('round-trips plain JSON values unchanged', () => {
    fc.assert(
      // msgpackr renames a `__proto__` key (prototype-pollution guard); no market value has one.
      fc.property(fc.jsonValue().filter((value) => !JSON.stringify(value).includes('"__proto__"')), (value) => {
        // JSON has no -0: compare with what JSON itself keeps.
        expect(decodeValue(encodeValue(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('keeps candles and optional fields of a market value', () => {
    const value = { symbol: 'AAPL', time: new Float64Array([1, 2]), candles: [{ t: 1, o: 2 }], note: null };
    expect(decodeValue(encodeValue(value))).toEqual(value);
  });
});
