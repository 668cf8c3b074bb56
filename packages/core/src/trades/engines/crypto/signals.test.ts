import { describe, expect, it } from 'vitest';
import { isoFromDayNumber } from '../../../market/trading-calendar';
import { replay } from '../../kit/replay';
import type { DailySeries, StoredIdeaEvent } from '../../types';
import { cryptoEngine } from './engine';
import { CRYPTO_PARAMS } from './params';
import { hysteresis, rawLong, rawMedium, rawShort } from './series';
import { candlesFromCloses } from './test-candles';

/** docs/rules/crypto.md §3.3: the raw signals of each horizon and the two-close hysteresis, alone and through the engine. */

const P = CRYPTO_PARAMS;
const nan = Number.NaN;

describe('raw signals (bar t only)', () => {
  // Closes: seven at 100, then 105 on t = 7 (7-candle return +5 %) or 95 (−5 %).
  const up = [100, 100, 100, 100, 100, 100, 100, 105];
  const down = [100, 100, 100, 100, 100, 100, 100, 95];
  const at7 = (value: number) => [nan, nan, nan, nan, nan, nan, nan, value];

  it('Short: close vs EMA20, the 7-candle return and RSI14 < 70 / > 30; Hold on a missing input', () => {
    expect(rawShort(P, up, at7(102), at7(60), 7)).toBe(1);
    expect(rawShort(P, up, at7(102), at7(70), 7)).toBe(0); // overbought: not < 70
    expect(rawShort(P, up, at7(106), at7(60), 7)).toBe(0); // below its EMA
    expect(rawShort(P, down, at7(98), at7(40), 7)).toBe(-1);
    expect(rawShort(P, down, at7(98), at7(30), 7)).toBe(0); // oversold: not > 30
    expect(rawShort(P, up, at7(nan), at7(60), 7)).toBe(0);
    expect(rawShort(P, up.slice(1), at7(102).slice(1), at7(60).slice(1), 6)).toBe(0); // no close 7 candles back
  });

  it('Medium: close vs SMA50, SMA50 vs SMA50 ten candles back, the 28-candle return', () => {
    const closes = Array.from({ length: 29 }, (_, i) => (i === 28 ? 110 : 100));
    const sma = (now: number, before: number) => Array.from({ length: 29 }, (_, i) => (i === 28 ? now : i === 18 ? before : nan));
    expect(rawMedium(P, closes, sma(105, 104), 28)).toBe(1);
    expect(rawMedium(P, closes, sma(105, 105), 28)).toBe(0); // flat SMA50
    expect(rawMedium(P, closes, sma(105, nan), 28)).toBe(0);
    const falling = closes.map((c, i) => (i === 28 ? 90 : c));
    expect(rawMedium(P, falling, sma(95, 96), 28)).toBe(-1);
    expect(rawMedium(P, falling, sma(95, 94), 28)).toBe(0); // SMA50 rising
  });

  it('Long: close and SMA50 both above SMA200 (Buy), both below (Sell), else Hold', () => {
    expect(rawLong([110], [105], [100], 0)).toBe(1);
    expect(rawLong([90], [95], [100], 0)).toBe(-1);
    expect(rawLong([90], [105], [100], 0)).toBe(0);
    expect(rawLong([110], [95], [100], 0)).toBe(0);
    expect(rawLong([110], [105], [nan], 0)).toBe(0);
  });
});

describe('two-close hysteresis: L(t) = raw(t) if raw(t) = raw(t − 1), else L(t − 1), from Hold', () => {
  it('suppresses flicker and needs two closes for every change, a return to Hold included', () => {
    const raw = [0, 1, 0, 1, 1, 1, 0, 1, 1, -1, -1, 0, 0];
    // t1–t3 alternate (Hold stays), t4 is the 2nd Buy in a row, t6's lone Hold is ignored,
    // t9 the 1st Sell (Buy stays), t10 the 2nd (Sell), t11 the 1st Hold (Sell stays), t12 Hold.
    expect(Array.from(hysteresis(raw))).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 1, 1, -1, -1, 0]);
  });

  it('starts at Hold: candle 0 has no previous raw label; alternating raw labels never leave Hold', () => {
    expect(Array.from(hysteresis([1, 1, 1]))).toEqual([0, 1, 1]);
    expect(Array.from(hysteresis([-1]))).toEqual([0]);
    expect(Array.from(hysteresis([1, -1, 1, -1, 1, -1]))).toEqual([0, 0, 0, 0, 0, 0]);
  });
});

function run(series: DailySeries, fromIndex: number): StoredIdeaEvent[] {
  const sessions = [...series.day.subarray(fromIndex)].map((day) => isoFromDayNumber(day));
  return replay(cryptoEngine, { series: new Map([[series.symbol, series]]), sessions, universeFor: () => [{ symbol: series.symbol, market: 'CRYPTO', survivorshipBiased: false }], origin: 'replayed' });
}

describe('the engine logs every displayed change: the signal log of §3.4', () => {
  it('Medium turns Buy on the second close its raw label is Buy (a steady rise: raw Buy from candle 59)', () => {
    // Closes rise 1 a day: SMA50 exists from candle 49, SMA50(t − 10) from 59; so raw Buy from 59, displayed from 60.
    const series = candlesFromCloses('TST', Array.from({ length: 70 }, (_, i) => 100 + i));
    const events = run(series, 29);
    expect(events[0]).toMatchObject({ type: 'opened', barDate: isoFromDayNumber(series.day[29]!), ideaId: `crypto.TST.${isoFromDayNumber(series.day[29]!)}` });
    const changes = events.filter((e) => e.type === 'signal_changed');
    // RSI is 100 on a steady rise (overbought), so Short stays Hold; Long needs 200 candles.
    expect(changes.map((e) => ({ level: e.level, barDate: e.barDate, price: e.price, data: e.data }))).toEqual([
      { level: 'Medium', barDate: isoFromDayNumber(series.day[60]!), price: 160, data: { horizon: 'Medium', from: 'Hold', to: 'Buy' } },
    ]);
    // Every pass after the opening writes the row once.
    expect(events.filter((e) => e.type === 'updated')).toHaveLength(70 - 30);
  });

  it('Long: a one-candle dip below SMA200 changes nothing; two closes in a row go back to Hold; two above to Buy', () => {
    // 210 candles rising 1 a day (Long Buy from candle 200), then closes 150, 311, 312, 150, 150, 313, 314.
    const closes = [...Array.from({ length: 210 }, (_, i) => 100 + i), 150, 311, 312, 150, 150, 313, 314];
    const series = candlesFromCloses('TST', closes);
    const events = run(series, 205);
    expect((events[0]!.data.signals as Record<string, string>).Long).toBe('Buy');
    const long = events.filter((e) => e.type === 'signal_changed' && e.level === 'Long');
    expect(long.map((e) => [e.barDate, e.price, e.data.from, e.data.to])).toEqual([
      [isoFromDayNumber(series.day[214]!), 150, 'Buy', 'Hold'],
      [isoFromDayNumber(series.day[216]!), 314, 'Hold', 'Buy'],
    ]);
    // The row follows the log: DateCreated is the pass of the last change (any horizon).
    const row = cryptoEngine.fold(events, null, '2030-01-01T00:00:00.000Z');
    const lastChange = events.filter((e) => e.type === 'signal_changed').at(-1)!;
    expect(row).toMatchObject({ LongTermSignal: 'Buy', DateCreated: lastChange.recordedAt, SignalChangedOn: lastChange.barDate, SignalPrice: lastChange.price });
    // The pass deciding candle D runs at D + 1, 00:05 UTC.
    expect(lastChange.recordedAt).toBe(`${isoFromDayNumber(series.day[216]! + 1)}T00:05:00.000Z`);
  });
});
