/**
 * Option chains through the trade jobs (docs/rules/option-trades.md §4.3: "chain" where the source can price the
 * contract at the needed moment, the model otherwise), on the simulated market, with the options
 * engine on 20 OPTION_ALERT tickers:
 * - a source that keeps past chains (the simulated market): the replay and the daily pass choose
 *   and price from the chain as of each session, open trades are marked at its bid after their
 *   entry bar (the entry and its bar are valued with the model at the entry's σ);
 * - a session the source has no chain for: the model, and the trade says so;
 * - a source with today's chains only (a live one): the replay prices with the model, the live
 *   daily pass with the chain of now.
 */
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { bidOf, dayNumber, dropEngine, isoFromDayNumber, modelValue, optionsEngine, type ContractTerms, type DropItem, type StoredIdeaEvent, type UniverseMember } from '@signalboard/core';
import { createTestApp, REPLAY_TIMEOUT_MS, type TestApp } from '../../../test/helpers';
import { ideas, tradeEngineVersions } from '../../db/schema';
import { createMarket } from '../../providers/market';
import type { CachedMarket } from '../../providers/market/cached-market';
import { OPTION_ALERT_TICKERS } from '../../providers/market/universe';
import { createTradesRepo } from './trades.repo';
import type { AnyEngine } from './trades.types';

const ENGINE = optionsEngine as unknown as AnyEngine;
const UNIVERSE = OPTION_ALERT_TICKERS.slice(0, 20);
const universeOf =
  (symbols: readonly string[]) =>
  async (survivorshipBiased: boolean): Promise<UniverseMember[]> =>
    symbols.map((symbol) => ({ symbol, market: 'US', survivorshipBiased }));
/** Monday 2 November 2026, 16:31 New York (EST): the daily pass of that session is due. */
const AFTER_CLOSE = Date.UTC(2026, 10, 2, 21, 31);
/** Tuesday 3 November 2026, 11:00 New York: the market is open (marks). */
const TUESDAY_OPEN = Date.UTC(2026, 10, 3, 16, 0);

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** An app running the options engine (or `engine`, on `symbols`) on `market(simulated)`, its history replayed (the clock: Monday 10:00 New York). */
async function replayed(market?: (simulated: CachedMarket) => CachedMarket, engine: AnyEngine = ENGINE, symbols: readonly string[] = UNIVERSE): Promise<TestApp> {
  const app = await createTestApp(
    {},
    {
      tradeEngines: [engine],
      tradeUniverse: universeOf(symbols),
      ...(market && {
        market: (config, clock) => market(createMarket(config, clock)),
      }),
    },
  );
  await app.app.tradeJobs.tick();
  await app.app.tradeJobs.replaysIdle();
  return app;
}

async function logs(app: TestApp): Promise<StoredIdeaEvent[][]> {
  const rows = await app.db.select().from(ideas);
  const events = await createTradesRepo(app.db).eventsOf(
    app.db,
    rows.map((row) => row.id),
  );
  return [...events.values()];
}

const side = (value: unknown) => (value === 'CALL' ? 'call' : 'put');

/** The quote of a trade's contract in the source's chain as of `date`. */
async function quoteOf(market: CachedMarket, symbol: string, date: string, contract: { side: unknown; expiry: string; strike: number }) {
  const chain = (await market.getOptionChainAsOf!(symbol, date, contract.expiry)).value;
  return chain?.contracts.find((c) => c.type === side(contract.side) && c.strike === contract.strike);
}

/** The model's bid for an option trade's contract at `spot` on `date`, at the trade's σ (its opened data). */
const modelBid = (data: ContractTerms & { sigma: number }, spot: number, date: string) => bidOf(modelValue(data, spot, dayNumber(date), data.sigma), data.halfSpread);

describe('option chains through the jobs', { timeout: REPLAY_TIMEOUT_MS }, () => {
  it('a source that keeps past chains: the replay, the live daily pass and the marks price from the chain of the moment (after the entry bar)', async () => {
    t = await replayed();
    const replayedLogs = await logs(t);
    const opened = replayedLogs.map((log) => log[0]!);
    expect(opened.length).toBeGreaterThan(5);
    for (const event of opened) {
      expect(event.data, event.ideaId).toMatchObject({ priceSource: 'chain', sigmaSource: 'chain' });
      const quote = await quoteOf(t.market, event.symbol, event.barDate, event.data as { side: string; expiry: string; strike: number });
      // Chosen from the chain of its signal session: pending at its ask, marked at its bid, σ its IV.
      expect(event.data).toMatchObject({ signalValue: quote!.ask, signalMark: quote!.bid, sigma: quote!.impliedVolatility });
    }
    // Every close mark the log carries after the entry bar is the bid of that session's chain; the
    // entry bar's is the model's at the entry's σ (the chain's IV at the signal).
    const checked = { entryBar: 0, later: 0 };
    for (const log of replayedLogs.slice(0, 15)) {
      const contract = log[0]!.data as unknown as ContractTerms & { side: string; sigma: number };
      const entryBar = log.find((e) => e.type === 'entry_filled')?.barDate;
      for (const event of log.filter((e) => e.type === 'entry_filled' || e.type === 'alert_repeat' || e.type === 'time_stop')) {
        const at = `${event.ideaId} ${event.type} ${event.barDate}`;
        if (event.barDate === entryBar) {
          checked.entryBar += 1;
          expect(event.data, at).toMatchObject({ sigma: contract.sigma, markValue: modelBid(contract, event.data.stockClose as number, event.barDate) });
        } else {
          checked.later += 1;
          expect(event.data.markValue, at).toBe((await quoteOf(t.market, event.symbol, event.barDate, contract))!.bid);
        }
      }
    }
    expect(checked.entryBar).toBeGreaterThan(0);
    expect(checked.later).toBeGreaterThan(0);
    // An open row is marked at the chain's bid on `date` past its entry bar, else with the model at its σ.
    const expectMarked = async (date: string, chainBid: (row: typeof ideas.$inferSelect) => Promise<number>) => {
      const entries = new Map((await logs(t!)).map((log) => [log[0]!.ideaId, { data: log[0]!.data as unknown as ContractTerms & { sigma: number }, entryBar: log.find((e) => e.type === 'entry_filled')?.barDate }]));
      const counts = { chain: 0, model: 0 };
      for (const row of (await t!.db.select().from(ideas)).filter((one) => one.isOpen)) {
        const trade = row.row as { Current_Value: number; PriceSource: string; CurrentPriceStock: number };
        expect(trade.PriceSource).toBe('chain');
        const { data, entryBar } = entries.get(row.id)!;
        if (entryBar !== undefined && entryBar < date) {
          counts.chain += 1;
          const bid = await chainBid(row);
          expect([row.markOptionValue, trade.Current_Value], row.id).toEqual([bid, bid]);
        } else {
          counts.model += 1;
          expect([row.markOptionValue, trade.Current_Value], row.id).toEqual([null, modelBid(data, trade.CurrentPriceStock, date)]);
        }
      }
      return counts;
    };

    // The live pass of Monday 2 November: the session's events and every open trade's mark from Monday's chain.
    t.clock.advance(AFTER_CLOSE - t.clock.nowMs());
    expect(await t.app.tradeJobs.runDaily(ENGINE)).toBe('done');
    const [version] = await t.db.select().from(tradeEngineVersions).where(eq(tradeEngineVersions.engine, 'options'));
    expect(version!.lastSession).toBe('2026-11-02');
    const monday = (await logs(t)).flat().filter((event) => event.barDate === '2026-11-02');
    expect(monday.filter((e) => e.type === 'opened').length).toBeGreaterThan(0);
    for (const event of monday.filter((e) => e.type === 'opened')) {
      expect(event.origin).toBe('live');
      expect(event.data).toMatchObject({ priceSource: 'chain', signalMark: (await quoteOf(t.market, event.symbol, '2026-11-02', event.data as { side: string; expiry: string; strike: number }))!.bid });
    }
    const mondayMarks = await expectMarked('2026-11-02', async (row) => {
      const trade = row.row as { Side: string; Expiry: string; Strike: number };
      return (await quoteOf(t!.market, row.symbol, '2026-11-02', { side: trade.Side, expiry: trade.Expiry, strike: trade.Strike }))!.bid;
    });
    expect(mondayMarks.chain).toBeGreaterThan(0);
    expect(mondayMarks.model).toBeGreaterThan(0);

    // Tuesday 11:00: the marks read Tuesday's chain so far, the bid of each open contract past its
    // entry bar (those entered Monday too); Monday's alerts, entering today, take the model at their σ.
    t.clock.advance(TUESDAY_OPEN - t.clock.nowMs());
    expect(await t.app.tradeJobs.runMarks(ENGINE)).toBe('done');
    const tuesdayMarks = await expectMarked('2026-11-03', async (row) => {
      const trade = row.row as { Side: string; Expiry: string; Strike: number };
      return (await t!.market.getOptionChain(row.symbol, trade.Expiry)).value.contracts.find((c) => c.type === side(trade.Side) && c.strike === trade.Strike)!.bid;
    });
    expect(tuesdayMarks.chain).toBeGreaterThan(0);
    for (const row of (await t.db.select().from(ideas)).filter((one) => one.isOpen)) {
      expect((row.row as { CurrentPriceStock: number }).CurrentPriceStock).toBe((await t.market.getQuote(row.symbol)).value.price);
    }
  });

  it('a session the source has no chain for is priced with the model, and the trade says so', async () => {
    // The source keeps the chains of even-numbered days only.
    const hasChain = (date: string) => dayNumber(date) % 2 === 0;
    t = await replayed((simulated) => ({
      ...simulated,
      getOptionChainAsOf: async (symbol, date, expiration) => (hasChain(date) ? simulated.getOptionChainAsOf!(symbol, date, expiration) : { value: null, stale: false, fetchedAtMs: 0 }),
    }));
    const opened = (await logs(t)).map((log) => log[0]!);
    const bySource = { chain: 0, model: 0 };
    for (const event of opened) {
      const source = hasChain(event.barDate) ? 'chain' : 'model';
      bySource[source] += 1;
      expect(event.data.priceSource, `${event.ideaId} ${isoFromDayNumber(dayNumber(event.barDate))}`).toBe(source);
      if (source === 'model') expect(event.data.sigmaSource).not.toBe('chain');
    }
    expect(bySource.chain).toBeGreaterThan(0);
    expect(bySource.model).toBeGreaterThan(0);
    // The list shows which is which (the screen's "model" badge).
    const rows = (await t.db.select().from(ideas)).map((row) => row.row as { Id: string; PriceSource: string });
    expect(new Set(rows.map((row) => row.PriceSource))).toEqual(new Set(['chain', 'model']));
  });

  it("a source with today's chains only: the replay prices with the model, the live pass with the chain of now", async () => {
    const asked: string[] = [];
    t = await replayed((simulated) => {
      const { getOptionChainAsOf: _pastChains, ...live } = simulated;
      void _pastChains;
      return {
        ...live,
        getOptionChain: (symbol, expiration) => {
          asked.push(symbol);
          return simulated.getOptionChain(symbol, expiration);
        },
      };
    });
    expect(t.market.getOptionChainAsOf).toBeUndefined();
    const replayedOpened = (await logs(t)).map((log) => log[0]!);
    expect(replayedOpened.length).toBeGreaterThan(5);
    for (const event of replayedOpened) expect(event.data.priceSource).toBe('model');
    expect(asked).toEqual([]);

    t.clock.advance(AFTER_CLOSE - t.clock.nowMs());
    expect(await t.app.tradeJobs.runDaily(ENGINE)).toBe('done');
    const monday = (await logs(t)).map((log) => log[0]!).filter((event) => event.barDate === '2026-11-02');
    // The day's alerts asked for their chains (the open model-priced trades read none).
    expect([...new Set(asked)].sort()).toEqual([...new Set(monday.map((event) => event.symbol))].sort());
    expect(monday.length).toBeGreaterThan(0);
    for (const event of monday) expect(event.data).toMatchObject({ priceSource: 'chain', sigmaSource: 'chain' });
  });
});

/**
 * Drop's O items (docs/rules/drop-items.md §5.3: valued "as in docs/rules/option-trades.md §4"): a CALL chosen from the simulated chain is
 * marked at that chain's bid, at each close (the time exit included), in the stored row at the end
 * of the replay and of the live pass, and intraday. The simulated bid (2 % under the chain's mid)
 * differs from the model's bid side at the chain's IV (3 % under), so the two cannot be mistaken.
 */
describe('drop O items chosen from a chain', { timeout: REPLAY_TIMEOUT_MS }, () => {
  const DROP = dropEngine as unknown as AnyEngine;
  /** The CALL of an O item's quote in the source's chain as of `date`, or its chain of now. */
  const callQuote = async (market: CachedMarket, symbol: string, date: string | null, contract: { expiry: string; strike: number }) => {
    const chain = date === null ? (await market.getOptionChain(symbol, contract.expiry)).value : (await market.getOptionChainAsOf!(symbol, date, contract.expiry)).value;
    return chain?.contracts.find((c) => c.type === 'call' && c.strike === contract.strike);
  };
  const openOItems = async (app: TestApp) => (await app.db.select().from(ideas)).filter((row) => row.isOpen && (row.row as DropItem).StockType === 'O');

  it('are marked at the chain’s bid past their entry bar (the entry bar at the entry’s σ): the time exits, the open items at the replay’s last close, the live pass and intraday', async () => {
    t = await replayed(undefined, DROP, OPTION_ALERT_TICKERS);
    const oLogs = (await logs(t)).filter((log) => log[0]!.data.stockType === 'O');
    expect(oLogs.length).toBeGreaterThan(3);
    let timeExits = 0;
    for (const log of oLogs) {
      const option = log[0]!.data.option as { expiry: string; strike: number; pricing: { priceSource: string } };
      expect(option.pricing.priceSource, log[0]!.ideaId).toBe('chain');
      // A time exit is the close mark: the bid of that session's chain when it quotes one.
      for (const event of log.filter((e) => e.type === 'time_stop')) {
        const bid = (await callQuote(t.market, event.symbol, event.barDate, option))?.bid ?? 0;
        if (!(bid > 0)) continue;
        expect(event.price, `${event.ideaId} ${event.barDate}`).toBe(bid);
        timeExits += 1;
      }
    }
    expect(timeExits).toBeGreaterThan(0);

    // An open O item is marked at the chain's bid on `date` past its entry bar; on its entry bar (entered
    // on `date`, or waiting to enter) with the model at the entry's σ (docs/strategies/option-sigma.md).
    const expectMarked = async (date: string, chainBid: (row: typeof ideas.$inferSelect, item: DropItem) => Promise<number>) => {
      const entries = new Map((await logs(t!)).map((log) => [log[0]!.ideaId, { option: log[0]!.data.option as { strike: number; expiry: string; halfSpread: number; pricing: { sigma: number; rate: number; dividendYield: number } }, entryBar: log.find((e) => e.type === 'entry_filled')?.barDate }]));
      const counts = { chain: 0, model: 0 };
      for (const row of await openOItems(t!)) {
        const item = row.row as DropItem;
        const { option, entryBar } = entries.get(row.id)!;
        if (entryBar !== undefined && entryBar < date) {
          counts.chain += 1;
          const bid = await chainBid(row, item);
          expect([row.markOptionValue, item.OptionCurrentValue], row.id).toEqual([bid, bid]);
        } else {
          counts.model += 1;
          const terms: ContractTerms = { side: 'CALL', strike: option.strike, expiry: option.expiry, rate: option.pricing.rate, dividendYield: option.pricing.dividendYield, halfSpread: option.halfSpread };
          const model = bidOf(modelValue(terms, item.StockCurrentPrice, dayNumber(date), option.pricing.sigma), option.halfSpread);
          expect([row.markOptionValue, item.OptionCurrentValue], row.id).toEqual([model, model]);
        }
      }
      return counts;
    };

    // The open items at the end of the replay: the bid of the last session's chain, stored with the mark.
    const last = (await t.db.select().from(tradeEngineVersions)).find((version) => version.engine === 'drop')!.lastSession!;
    const atClose = await expectMarked(last, async (row, item) => (await callQuote(t!.market, row.symbol, last, { expiry: item.OptionExpiry!, strike: strikeOf(item.ContractName!) }))!.bid);
    expect(atClose.chain).toBeGreaterThan(0);

    // The live pass of Monday 2 November: every open O item past its entry bar at Monday's bid.
    t.clock.advance(AFTER_CLOSE - t.clock.nowMs());
    expect(await t.app.tradeJobs.runDaily(DROP)).toBe('done');
    const monday = await expectMarked('2026-11-02', async (row, item) => (await callQuote(t!.market, row.symbol, '2026-11-02', { expiry: item.OptionExpiry!, strike: strikeOf(item.ContractName!) }))!.bid);
    expect(monday.chain).toBeGreaterThan(0);

    // Tuesday 11:00: the marks read Tuesday's chain so far (Monday's entries too); Monday's signals, entering today, the model at their σ.
    t.clock.advance(TUESDAY_OPEN - t.clock.nowMs());
    expect(await t.app.tradeJobs.runMarks(DROP)).toBe('done');
    const tuesday = await expectMarked('2026-11-03', async (row, item) => (await callQuote(t!.market, row.symbol, null, { expiry: item.OptionExpiry!, strike: strikeOf(item.ContractName!) }))!.bid);
    expect(tuesday.chain).toBeGreaterThan(0);
    for (const row of await openOItems(t)) expect((row.row as DropItem).StockCurrentPrice).toBe((await t.market.getQuote(row.symbol)).value.price);
    // Entry bars were met: the end of the replay or Monday holds an item on its entry bar.
    expect(atClose.model + monday.model + tuesday.model).toBeGreaterThan(0);
  });
});

/** The strike of a compact OCC name (its last 8 digits, thousandths). */
const strikeOf = (contractName: string) => Number(contractName.slice(-8)) / 1000;
