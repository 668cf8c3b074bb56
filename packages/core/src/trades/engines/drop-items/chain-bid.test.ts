import { describe, expect, it } from 'vitest';
import { dropItem } from '../../../contract/drop-items';
import { dayNumber, isoFromDayNumber, tradingDayOnOrAfter } from '../../../market/trading-calendar';
import { roundCentDown, roundCentUp } from '../../kit/prices';
import { replay } from '../../kit/replay';
import { risingBars, seriesOf, type Bar } from '../../kit/test-bars';
import { chooseExpiry, modelExpiries } from '../option-trades/contracts';
import { OPTIONS_PARAMS } from '../option-trades/params';
import { modelValue, type ContractTerms } from '../option-trades/pricing';
import type { OptionChainContract, StoredIdeaEvent } from '../../types';
import { dropEngine } from './engine';
import type { DropExtras } from './extras';
import { askValue, bidValue } from './option';
import { dropMarkAt } from './option-pricer';
import type { DropOptionContract } from './state';

/**
 * O items whose CALL was chosen from a chain are valued as the options engine values its trades
 * (docs/rules/drop-items.md §5.3 "as in docs/rules/option-trades.md §4", §4.3): entered with the model at the open and close t's σ, marked
 * at the session chain's bid at each close and intraday (the target, the stop and the time exit read
 * that mark), and with the model when the chain does not quote the contract.
 */

const b = (o: number, h: number, l: number, c: number): Bar => ({ o, h, l, c, v: 1_000_000 });
/** A steady climb from 50 to 109.8, then a 4 % drop on the signal bar t (the O trigger, threshold 4 %). */
const CLIMB = risingBars(300, 50, 0.2);
const SIGNAL = b(109.8, 109.9, 105.3, 105.8);
/** A quiet session after the signal: the model's values barely move. */
const QUIET = b(105.8, 106, 105.6, 105.8);
const STRIKE = 108;
const IV_AT_SIGNAL = 0.3;

/** The series through the signal and `after` sessions of QUIET bars; the sessions the engine runs (the signal's first). */
function setup(after: number) {
  const series = seriesOf('AAA', [...CLIMB, SIGNAL, ...Array.from({ length: after }, () => QUIET)]);
  const signalIndex = CLIMB.length;
  const sessions = [...series.day.subarray(signalIndex)].map((day) => isoFromDayNumber(day));
  const fromDay = tradingDayOnOrAfter(series.day[signalIndex]! + 1);
  const expiry = isoFromDayNumber(chooseExpiry(modelExpiries(fromDay, fromDay + 60), fromDay, OPTIONS_PARAMS)!);
  return { series, signalIndex, sessions, expiry };
}

const quote = (expiry: string, over: Partial<OptionChainContract> = {}): OptionChainContract => ({ expiry, strike: STRIKE, side: 'CALL', bid: 3, ask: 3.2, iv: IV_AT_SIGNAL, delta: 0.45, openInterest: 900, ...over });

/**
 * Runs the registered drop engine over the signal and `after` sessions. `chainOn(i)` is the quote
 * session i after the signal lists (0: the signal's chain, from which the CALL is chosen), or null
 * for no chain that session; `contracts` adds other contracts to it.
 */
function run(after: number, chainOn: (i: number, expiry: string) => OptionChainContract | null, contracts: (expiry: string) => OptionChainContract[] = () => []) {
  const { series, sessions, expiry, signalIndex } = setup(after);
  const extras = (date: string): DropExtras => {
    const i = sessions.indexOf(date);
    const listed = i === 0 ? [quote(expiry)] : [chainOn(i, expiry), ...contracts(expiry)].filter((c): c is OptionChainContract => c !== null);
    return {
      dropIndexMembers: new Set<string>(),
      dropOptionUnderlyings: new Set(['AAA']),
      ...(listed.length > 0 ? { optionChains: new Map([['AAA', { underlying: 'AAA', contracts: listed }]]) } : {}),
    };
  };
  const events = replay(dropEngine, { series: new Map([['AAA', series]]), sessions, universeFor: () => [{ symbol: 'AAA', market: 'US', survivorshipBiased: false }], extras, origin: 'replayed' });
  const option = events[0]!.data.option as DropOptionContract;
  const terms: ContractTerms = { side: 'CALL', strike: option.strike, expiry: option.expiry, rate: 0.04, dividendYield: 0, halfSpread: option.halfSpread };
  // §4.3 Entry: the model at the t + 1 open with close t's σ (the chain's IV at the signal), at the ask.
  const entryDay = series.day[signalIndex + 1]!;
  const entryValue = askValue(modelValue(terms, QUIET.o, entryDay, IV_AT_SIGNAL), option.halfSpread);
  return { events, option, terms, series, sessions, entryValue, target: roundCentUp(1.3 * entryValue), stop: roundCentDown(0.5 * entryValue) };
}

const ofType = (events: readonly StoredIdeaEvent[], type: string) => events.filter((event) => event.type === type);
const NOW = '2030-01-01T00:00:00.000Z';

describe('drop O items chosen from a chain are valued at the chain’s bid (§4.3, §5.3)', () => {
  it('chooses the CALL from the signal’s chain and enters at the t + 1 open with close t’s σ, not the entry session’s IV', () => {
    // The entry session's chain quotes the contract at a much higher IV: the entry ignores it.
    const { events, option, entryValue } = run(1, (_i, expiry) => quote(expiry, { iv: 0.6, bid: 3 }));
    expect(events[0]).toMatchObject({ type: 'opened', data: { stockType: 'O', option: { strike: STRIKE, expiry: option.expiry, pricing: { priceSource: 'chain', sigma: IV_AT_SIGNAL } } } });
    expect(events[1]).toMatchObject({ type: 'entry_filled', price: entryValue, data: { optionEntryValue: entryValue } });
    expect(entryValue).toBeGreaterThan(1);
  });

  it('target: a close bid at 1.30 × the entry value closes the item at the target, though the model’s best stays below it', () => {
    const probe = run(2, () => null);
    const { events, target, terms, series } = run(2, (i, expiry) => quote(expiry, { bid: i === 2 ? probe.target : 3 }));
    // The model never reaches the target on these quiet bars (the bid alone decides).
    const day = series.day[series.day.length - 1]!;
    expect(bidValue(modelValue(terms, QUIET.h, day, IV_AT_SIGNAL), terms.halfSpread)).toBeLessThan(target);
    expect(ofType(events, 'target_hit')).toHaveLength(1);
    const closed = ofType(events, 'closed')[0]!;
    expect(closed).toMatchObject({ barDate: isoFromDayNumber(day), price: target, data: { reason: 'target', exitAt: 'close' } });
    const row = dropItem.parse(dropEngine.fold(events, null, NOW));
    expect(row).toMatchObject({ StockIsActive: false, StockIsTarget: true, OptionExitValue: target, OptionCurrentValue: target });
    // The target is rounded up to the cent: a little over +30 %.
    expect(row.OptionProfitPercent).toBeGreaterThanOrEqual(30);
    expect(row.OptionProfitPercent).toBeLessThan(30.5);
  });

  it('a close bid one cent short of the target keeps the item open, marked at that bid', () => {
    const probe = run(2, () => null);
    const short = probe.target - 0.01;
    const { events, sessions } = run(2, (i, expiry) => quote(expiry, { bid: i === 2 ? short : 3 }));
    expect(ofType(events, 'target_hit')).toHaveLength(0);
    expect(ofType(events, 'closed')).toHaveLength(0);
    // Its close mark (the runner's mark of the session, with the session's chain) is that bid.
    const chain = new Map([['AAA', { underlying: 'AAA', contracts: [quote(probe.option.expiry, { bid: short })] }]]);
    const mark = dropMarkAt(events, { price: QUIET.c, at: `${sessions[2]}T21:00:00.000Z` }, undefined, { optionChains: chain });
    expect(mark.optionValue).toBe(short);
    expect(dropItem.parse(dropEngine.fold(events, mark, NOW))).toMatchObject({ StockIsActive: true, OptionCurrentValue: short, StockIsTarget: false });
  });

  it('stop: a close bid at 0.50 × the entry value stops the item at the stop, though the model’s worst stays above it', () => {
    const probe = run(2, () => null);
    const { events, stop, terms, series } = run(2, (i, expiry) => quote(expiry, { bid: i === 2 ? probe.stop : 3 }));
    const day = series.day[series.day.length - 1]!;
    expect(bidValue(modelValue(terms, QUIET.l, day, IV_AT_SIGNAL), terms.halfSpread)).toBeGreaterThan(stop);
    expect(ofType(events, 'stop_hit')[0]).toMatchObject({ price: stop, data: { stop } });
    expect(ofType(events, 'closed')[0]).toMatchObject({ barDate: isoFromDayNumber(day), price: stop, data: { reason: 'stop', exitAt: 'close' } });
    // One cent above the stop holds.
    const holds = run(2, (i, expiry) => quote(expiry, { bid: i === 2 ? probe.stop + 0.01 : 3 }));
    expect(ofType(holds.events, 'closed')).toHaveLength(0);
  });

  it('the time exit at the close of session 10 is the chain’s bid of that session', () => {
    const { events, sessions } = run(10, (i, expiry) => quote(expiry, { bid: 3 + i / 100 }));
    const exit = ofType(events, 'time_stop')[0]!;
    expect(exit).toMatchObject({ barDate: sessions[10], price: 3.1, data: { sessionsHeld: 10 } });
    expect(ofType(events, 'closed')[0]).toMatchObject({ price: 3.1, data: { reason: 'time' } });
  });

  it('falls back to the model when the chain does not quote the contract (no bid, another strike, or no chain)', () => {
    // Another strike quoted at the target, the contract quoted without a bid, then no chain at all.
    const { events, sessions, terms, series, target } = run(
      10,
      (i, expiry) => (i === 3 ? quote(expiry, { bid: 0 }) : null),
      (expiry) => [quote(expiry, { strike: STRIKE + 1, bid: 100 })],
    );
    expect(ofType(events, 'target_hit')).toHaveLength(0);
    const exit = ofType(events, 'time_stop')[0]!;
    const day = series.day[series.day.length - 1]!;
    // The model at the close with σ of the choice (the chain gave no IV for the contract that day), at the bid.
    const model = bidValue(modelValue(terms, QUIET.c, day, IV_AT_SIGNAL), terms.halfSpread);
    expect(exit).toMatchObject({ barDate: sessions[10], price: model });
    expect(model).toBeLessThan(target);
    // Intraday: a mark whose chain does not quote the contract is the model's bid at the price.
    const open = run(2, () => null);
    const at = `${open.sessions[2]}T18:00:00.000Z`;
    const other = new Map([['AAA', { underlying: 'AAA', contracts: [quote(open.option.expiry, { strike: STRIKE + 1, bid: 100 })] }]]);
    const markDay = dayNumber(open.sessions[2]!);
    expect(dropMarkAt(open.events, { price: 106.5, at }, undefined, { optionChains: other }).optionValue).toBe(bidValue(modelValue(open.terms, 106.5, markDay, IV_AT_SIGNAL), open.terms.halfSpread));
    expect(dropMarkAt(open.events, { price: 106.5, at }).optionValue).toBe(bidValue(modelValue(open.terms, 106.5, markDay, IV_AT_SIGNAL), open.terms.halfSpread));
  });

  it('intraday marks: the bid of the chain of the moment, and the row shows it (Current value and profit)', () => {
    const { events, sessions, option, entryValue } = run(2, (_i, expiry) => quote(expiry, { bid: 3 }));
    const at = `${sessions[2]}T18:00:00.000Z`;
    const chains = new Map([['AAA', { underlying: 'AAA', contracts: [quote(option.expiry, { bid: 4.37, iv: 0.9 })] }]]);
    const mark = dropMarkAt(events, { price: 106.5, at }, undefined, { optionChains: chains });
    expect(mark).toEqual({ price: 106.5, at, optionValue: 4.37 });
    const row = dropItem.parse(dropEngine.fold(events, mark, NOW));
    expect(row).toMatchObject({ StockIsActive: true, StockCurrentPrice: 106.5, OptionCurrentValue: 4.37, OptionEntryValue: entryValue });
    expect(row.OptionProfitPercent).toBeCloseTo(Math.round(10_000 * (4.37 / entryValue - 1)) / 100, 10);
  });

  it('a gap against the CALL: the entry and the entry bar’s marks at one σ (close t’s chain IV), so no target at the entry’s open; later sessions are marked at the chain’s bid', () => {
    // The entry bar gaps down to 101 from the signal's 105.8 close, against the CALL. Each later
    // chain quotes the contract at a far higher IV (0.9: the gap in the realised volatility) and a
    // bid to match (6), which at a second σ on the entry bar would value the CALL far above its
    // target. The entry bar is valued at the entry's σ; from the next session the chain's bid marks it.
    const GAP = b(101, 101.4, 100.6, 101);
    const series = seriesOf('AAA', [...CLIMB, SIGNAL, GAP, GAP]);
    const signalIndex = CLIMB.length;
    const sessions = [...series.day.subarray(signalIndex)].map((day) => isoFromDayNumber(day));
    const fromDay = tradingDayOnOrAfter(series.day[signalIndex]! + 1);
    const expiry = isoFromDayNumber(chooseExpiry(modelExpiries(fromDay, fromDay + 60), fromDay, OPTIONS_PARAMS)!);
    const gapQuote = quote(expiry, { iv: 0.9, bid: 6, ask: 6.2 });
    const extras = (date: string): DropExtras => ({
      dropIndexMembers: new Set<string>(),
      dropOptionUnderlyings: new Set(['AAA']),
      optionChains: new Map([['AAA', { underlying: 'AAA', contracts: [sessions.indexOf(date) === 0 ? quote(expiry) : gapQuote] }]]),
    });
    const events = replay(dropEngine, { series: new Map([['AAA', series]]), sessions, universeFor: () => [{ symbol: 'AAA', market: 'US', survivorshipBiased: false }], extras, origin: 'replayed' });
    const option = events[0]!.data.option as DropOptionContract;
    const terms: ContractTerms = { side: 'CALL', strike: option.strike, expiry: option.expiry, rate: 0.04, dividendYield: 0, halfSpread: option.halfSpread };
    const entryDay = series.day[signalIndex + 1]!;
    const entryValue = askValue(modelValue(terms, GAP.o, entryDay, IV_AT_SIGNAL), option.halfSpread);
    const target = roundCentUp(1.3 * entryValue);
    // At the entry session's IV the CALL would be worth more than its target at the entry's open.
    expect(bidValue(modelValue(terms, GAP.o, entryDay, 0.9), option.halfSpread)).toBeGreaterThan(target);
    expect(gapQuote.bid).toBeGreaterThan(target);
    expect(events.map((event) => [event.type, event.barDate])).toEqual([['opened', sessions[0]], ['entry_filled', sessions[1]], ['target_hit', sessions[2]], ['closed', sessions[2]]]);
    expect(events[1]).toMatchObject({ price: entryValue, data: { optionEntryValue: entryValue } });
    // After the entry bar: open, at a loss (the gap went against it), marked at the entry's σ; the
    // entry session's chain is not read, at its close nor intraday.
    const afterEntry = events.slice(0, 2);
    const entryMark = bidValue(modelValue(terms, GAP.c, entryDay, IV_AT_SIGNAL), option.halfSpread);
    const chains = { optionChains: new Map([['AAA', { underlying: 'AAA', contracts: [gapQuote] }]]) };
    for (const [log, at] of [[afterEntry, `${sessions[1]}T21:00:00.000Z`], [events.slice(0, 1), `${sessions[1]}T15:00:00.000Z`]] as const) {
      const mark = dropMarkAt(log, { price: GAP.c, at }, undefined, chains);
      expect(mark.optionValue, at).toBe(entryMark);
    }
    const row = dropItem.parse(dropEngine.fold(afterEntry, dropMarkAt(afterEntry, { price: GAP.c, at: `${sessions[1]}T21:00:00.000Z` }, undefined, chains), NOW));
    expect(row).toMatchObject({ StockIsActive: true, StockIsTarget: false, OptionEntryValue: entryValue, OptionCurrentValue: entryMark });
    expect(row.OptionProfitPercent).toBeLessThan(0);
    // The session after: the chain's bid, at the target.
    expect(events[2]).toMatchObject({ price: target });
    expect(dropMarkAt(afterEntry, { price: GAP.c, at: `${sessions[2]}T18:00:00.000Z` }, undefined, chains).optionValue).toBe(gapQuote.bid);
  });
});
