import { describe, expect, it } from 'vitest';
import { dropItem } from '../../../contract/drop-items';
import { dayNumber, isoFromDayNumber, tradingDayOnOrAfter } from '../../../market/trading-calendar';
import { replay } from '../../kit/replay';
import { randomUniverse, seriesOf, type Bar } from '../../kit/test-bars';
import { chooseExpiry, modelExpiries, occName } from '../option-trades/contracts';
import { OPTIONS_PARAMS } from '../option-trades/params';
import { bsmDelta, modelValue } from '../option-trades/pricing';
import type { DailySeries, UniverseMember } from '../../types';
import { createDropEngine, dropEngine } from './engine';
import { bidValue } from './option';
import { createDropOptionPricer, dropChainNeeds, dropMarkAt, dropOptionPricer } from './option-pricer';

/**
 * The drop engine's option pricer (docs/rules/option-trades.md §4.2–4.3 through the options engine's code): the
 * CALL it chooses on a crafted series, its values, and O items in a replay of the registered engine.
 */

/** 300 bars of a 100 → ~130 climb with a 1 % daily wiggle: realised σ well above the 15 % floor. */
function crafted(symbol = 'AAA'): DailySeries {
  const bars: Bar[] = [];
  let close = 100;
  for (let i = 0; i < 300; i += 1) {
    const open = close;
    close = open * (1 + 0.001 + (i % 2 === 0 ? 0.012 : -0.011));
    bars.push({ o: open, h: Math.max(open, close) * 1.006, l: Math.min(open, close) * 0.994, c: close });
  }
  return seriesOf(symbol, bars);
}

/** The expiry §4.2 takes from the model's Fridays after `fromDay` (a chain listing it is chosen from). */
const chooseExpiryDay = (fromDay: number) => chooseExpiry(modelExpiries(fromDay, fromDay + 60), fromDay, OPTIONS_PARAMS)!;

describe('drop option pricer (the options engine’s contract choice and model)', () => {
  const series = crafted();
  const t = series.close.length - 1;
  const date = isoFromDayNumber(series.day[t]!);
  const contract = dropOptionPricer.chooseCall({ series, sessionDate: date, extras: {} })!;

  it('chooses a CALL with |Δ| ≈ 0.45 and DTE ≈ 35 from the model’s Friday expiries and strike grid', () => {
    expect(contract).not.toBeNull();
    const fromDay = tradingDayOnOrAfter(series.day[t]! + 1);
    const dte = dayNumber(contract.expiry) - fromDay;
    expect(dte).toBeGreaterThanOrEqual(32);
    expect(dte).toBeLessThanOrEqual(38);
    // A Friday (or the Thursday before a holiday Friday).
    expect([4, 5]).toContain(new Date(`${contract.expiry}T00:00:00Z`).getUTCDay());
    const pricing = contract.pricing as { sigma: number; rate: number; dividendYield: number; deltaAtEntry: number; priceSource: string };
    expect(pricing.priceSource).toBe('model');
    const delta = bsmDelta({ side: 'CALL', spot: series.close[t]!, strike: contract.strike, years: (dayNumber(contract.expiry) - series.day[t]!) / 365, rate: pricing.rate, dividendYield: 0, sigma: pricing.sigma });
    expect(delta).toBeCloseTo(pricing.deltaAtEntry, 12);
    expect(Math.abs(delta - 0.45)).toBeLessThan(0.05);
    // $1 strikes between $25 and $200; the call is a little out of the money at Δ 0.45.
    expect(Number.isInteger(contract.strike)).toBe(true);
    expect(contract.strike).toBeGreaterThan(series.close[t]!);
    expect(contract.contractName).toBe(occName('AAA', contract.expiry, 'CALL', contract.strike));
    expect(contract.halfSpread).toBe(0.03);
    expect(pricing.rate).toBe(0.04);
  });

  it('values the contract with the model: fair values at the bar’s open, high, low and close, deterministic', () => {
    const pricing = contract.pricing as { sigma: number; rate: number; dividendYield: number };
    const terms = { side: 'CALL' as const, strike: contract.strike, expiry: contract.expiry, rate: pricing.rate, dividendYield: pricing.dividendYield, halfSpread: contract.halfSpread };
    expect(contract.signalValue).toBeCloseTo(modelValue(terms, series.close[t]!, series.day[t]!, pricing.sigma), 12);
    const bar = dropOptionPricer.valueOn({ contract, series, extras: {} })!;
    expect(bar.close).toBeCloseTo(contract.signalValue, 12);
    expect(bar.high).toBeGreaterThan(bar.low);
    expect(bar.dte).toBe(dayNumber(contract.expiry) - series.day[t]!);
    expect(createDropOptionPricer().valueOn({ contract, series, extras: {} })).toEqual(bar);
    expect(createDropOptionPricer().chooseCall({ series, sessionDate: date, extras: {} })).toEqual(contract);
  });

  it('follows an IV index: σ scales with the index’s move, and a rate from the session is used', () => {
    const spy = crafted('SPY');
    const chosen = dropOptionPricer.chooseCall({ series: spy, sessionDate: date, extras: { ivIndexes: new Map([['VIX', 20]]), riskFreeRate: 0.05 } })!;
    const pricing = chosen.pricing as { sigma: number; sigmaSource: string; rate: number };
    expect(pricing).toMatchObject({ sigma: 0.2, sigmaSource: 'index', rate: 0.05 });
    expect(chosen.halfSpread).toBe(0.015);
    const calm = dropOptionPricer.valueOn({ contract: chosen, series: spy, extras: { ivIndexes: new Map([['VIX', 20]]) } })!;
    const scared = dropOptionPricer.valueOn({ contract: chosen, series: spy, extras: { ivIndexes: new Map([['VIX', 30]]) } })!;
    expect(scared.close).toBeGreaterThan(calm.close);
  });

  it('chooses from the session’s chain when it lists calls (priceSource chain, σ its IV); dropChainNeeds asks for it', () => {
    const fromDay = tradingDayOnOrAfter(series.day[t]! + 1);
    const expiry = isoFromDayNumber(chooseExpiryDay(fromDay));
    const strike = Math.round(series.close[t]! * 1.02);
    const chain = { underlying: 'AAA', contracts: [{ expiry, strike, side: 'CALL' as const, bid: 2.9, ask: 3.1, iv: 0.31, delta: 0.45, openInterest: 900 }] };
    const chosen = dropOptionPricer.chooseCall({ series, sessionDate: date, extras: { optionChains: new Map([['AAA', chain]]) } })!;
    expect(chosen).toMatchObject({ expiry, strike, contractName: occName('AAA', expiry, 'CALL', strike) });
    expect(chosen.pricing).toMatchObject({ priceSource: 'chain', sigma: 0.31, sigmaSource: 'chain', deltaAtEntry: 0.45 });
    // Later sessions value it at the chain's IV for the contract when the chain quotes it, else at the sticky σ.
    const quoted = dropOptionPricer.valueOn({ contract: chosen, series, extras: { optionChains: new Map([['AAA', { ...chain, contracts: [{ ...chain.contracts[0]!, iv: 0.4 }] }]]) } })!;
    expect(quoted.close).toBeGreaterThan(dropOptionPricer.valueOn({ contract: chosen, series, extras: {} })!.close);

    const opened = (symbol: string, option: typeof chosen | null, stockType: 'O' | 'S') => ({ ideaId: `drop.${symbol}.x.${stockType}`, symbol, market: 'US' as const, ruleVersion: 'drop@1.1.0', state: { stockType, option } as never });
    const input = { params: {}, session: { date, now: `${date}T21:30:00.000Z` }, bars: new Map([['AAA', series], ['BBB', crafted('BBB')], ['CCC', crafted('CCC')]]), universe: [], cooldowns: new Map(), extras: {} };
    const needs = dropChainNeeds({ ...input, openIdeas: [opened('AAA', chosen, 'O'), opened('BBB', contract, 'O'), opened('CCC', null, 'S')] }, [{ symbol: 'DDD' }]);
    // AAA's CALL came from a chain: its expiry; BBB's from the model and CCC's S item read none; DDD is a candidate: every expiry.
    expect([...needs]).toEqual([['AAA', expiry], ['DDD', null]]);
  });

  it('answers null for a contract it cannot price', () => {
    expect(dropOptionPricer.valueOn({ contract: { ...contract, pricing: {} }, series, extras: {} })).toBeNull();
  });
});

describe('the registered drop engine creates O items with the pricer', () => {
  const SERIES = randomUniverse(12, 40, 400);
  const sessions = [...SERIES.get('S000')!.day.subarray(262)].map((d) => isoFromDayNumber(d));
  const members: UniverseMember[] = [...SERIES.keys()].map((symbol) => ({ symbol, market: 'US', survivorshipBiased: true }));
  const underlyings = new Set([...SERIES.keys()].filter((_, i) => i % 2 === 0));
  const run = () => replay(dropEngine, { series: SERIES, sessions, universeFor: () => members, extras: () => ({ dropOptionUnderlyings: underlyings }), origin: 'replayed' });
  const events = run();

  it('O items appear, priced by the model, on the OPTION_ALERT underlyings only, and the run is deterministic', () => {
    const opened = events.filter((event) => event.type === 'opened' && event.data.stockType === 'O');
    expect(opened.length).toBeGreaterThan(3);
    for (const event of opened) {
      expect(underlyings.has(event.symbol)).toBe(true);
      const option = event.data.option as { contractName: string; pricing: { priceSource: string } };
      expect(option.contractName).toMatch(new RegExp(`^${event.symbol}\\d{6}C\\d{8}$`));
      expect(option.pricing.priceSource).toBe('model');
    }
    const ids = new Set(opened.map((event) => event.ideaId));
    const rows = [...ids].map((id) => dropItem.parse(dropEngine.fold(events.filter((event) => event.ideaId === id), null, '2030-01-01T00:00:00.000Z')));
    expect(rows.every((row) => row.OptionEntryValue !== null && row.OptionEntryValue > 0)).toBe(true);
    expect(rows.some((row) => !row.StockIsActive)).toBe(true);
    expect(JSON.stringify(run())).toBe(JSON.stringify(events));
  });

  it('dropMarkAt marks an open O item’s option at the underlying price; S and L items by the price alone', () => {
    const openO = [...new Set(events.filter((event) => event.data.stockType === 'O').map((event) => event.ideaId))]
      .map((id) => events.filter((event) => event.ideaId === id))
      .find((log) => dropEngine.openState(log) !== null && log.some((event) => event.type === 'entry_filled'));
    expect(openO).toBeDefined();
    const log = openO!;
    const option = log[0]!.data.option as Parameters<typeof dropOptionPricer.valueOn>[0]['contract'];
    const at = `${sessions[sessions.length - 1]}T18:00:00.000Z`;
    const up = dropMarkAt(log, { price: 1.05 * log[0]!.price!, at });
    const down = dropMarkAt(log, { price: 0.95 * log[0]!.price!, at });
    expect(up.optionValue!).toBeGreaterThan(down.optionValue!);
    const one = Float64Array.of(1.05 * log[0]!.price!);
    const expected = dropOptionPricer.valueOn({ contract: option, series: { symbol: log[0]!.symbol, market: 'US', day: Int32Array.of(dayNumber(at.slice(0, 10))), open: one, high: one, low: one, close: one, volume: Float64Array.of(0) }, extras: {} })!;
    expect(up.optionValue).toBe(bidValue(expected.close, option.halfSpread));
    const row = dropItem.parse(dropEngine.fold(log, up, at));
    expect(row.OptionCurrentValue).toBe(up.optionValue);
    const stock = events.filter((event) => event.ideaId === events.find((e) => e.type === 'opened' && e.data.stockType !== 'O')!.ideaId);
    expect(dropMarkAt(stock, { price: 10, at })).toEqual({ price: 10, at });
  });

  it('an engine without a pricer makes no O items', () => {
    const bare = replay(createDropEngine(), { series: SERIES, sessions, universeFor: () => members, extras: () => ({ dropOptionUnderlyings: underlyings }), origin: 'replayed' });
    expect(bare.some((event) => event.type === 'opened' && event.data.stockType === 'O')).toBe(false);
  });
});
