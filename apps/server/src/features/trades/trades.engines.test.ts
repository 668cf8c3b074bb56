/**
 * The real engines (packages/core TRADE_ENGINES) through the platform: a replay over the simulated
 * market, then the lists and the detail answer their contract rows, and every stored row is the
 * fold of its stored events. Layered and swing run on 80 S&P 500 members; options on OPTION_ALERT
 * tickers (ETFs included); drop on both; crypto on the simulated market's coins (every UTC day a
 * session). The simulated market prices option chains for any session, so the option trades and O
 * items are chosen and marked from its chains.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bidOf, cryptoTradesResponse, dayNumber, dropItemsResponse, modelValue, type ContractTerms, ideaDetail, layeredTrade, optionTradesResponse, swingTrade, trackRecord, type EngineId, type UniverseMember } from '@signalboard/core';
import { createTestApp, createUser, login, REPLAY_TIMEOUT_MS, uniqueEmail, type TestApp } from '../../../test/helpers';
import { ideas, tradeEngineVersions } from '../../db/schema';
import { CRYPTOS, OPTION_ALERT_TICKERS, universeBySymbol, US_STOCKS } from '../../providers/market/universe';
import { SERVER_TRADE_ENGINES } from './engines';
import { markFor } from './trades.extras';
import { createTradesRepo } from './trades.repo';

const member = (symbol: string, survivorshipBiased: boolean): UniverseMember => {
  const sector = universeBySymbol.get(symbol)?.sector;
  return { symbol, market: 'US', ...(sector ? { sector } : {}), survivorshipBiased };
};
/** 80 S&P 500 members: enough signals for the stock engines, quick enough for the suite. */
const STOCKS = US_STOCKS.slice(0, 80).map((entry) => entry.symbol);
/** 24 OPTION_ALERT tickers, the index ETFs among them. */
const OPTIONS = OPTION_ALERT_TICKERS.slice(0, 24);
const universe = async (survivorshipBiased: boolean, engine: EngineId): Promise<UniverseMember[]> => {
  if (engine === 'crypto') return CRYPTOS.map((entry) => ({ symbol: entry.symbol, market: 'CRYPTO' as const, survivorshipBiased }));
  const symbols = engine === 'options' ? OPTIONS : engine === 'drop' ? [...new Set([...STOCKS, ...OPTIONS])] : STOCKS;
  return symbols.map((symbol) => member(symbol, survivorshipBiased));
};

let t: TestApp;
let headers: { authorization: string };
let replayMs = 0;
beforeAll(async () => {
  t = await createTestApp({}, { tradeUniverse: universe });
  const email = uniqueEmail('engines');
  await createUser(t.db, email, 'pw');
  headers = await login(t.app, email, 'pw');
  const started = performance.now();
  await t.app.tradeJobs.tick();
  await t.app.tradeJobs.replaysIdle();
  replayMs = performance.now() - started;
}, 600_000);
afterAll(async () => t.close());

const get = (url: string, auth = true) => t.app.inject({ method: 'GET', url, ...(auth ? { headers } : {}) });

/** Every page of a list, following X-Next-Cursor. */
async function allPages(path: string, query: string, limit: number): Promise<unknown[]> {
  const rows: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 200; page += 1) {
    const response = await get(`${path}?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(response.statusCode, response.body).toBe(200);
    rows.push(...response.json<unknown[]>());
    cursor = response.headers['x-next-cursor'] as string | undefined;
    if (!cursor) return rows;
  }
  throw new Error('too many pages');
}

describe('the engines of packages/core on the platform', { timeout: REPLAY_TIMEOUT_MS }, () => {
  it('replay every engine, and the stock lists answer their contract rows', async () => {
    const status = (await get('/api/trade_ideas/replay_status')).json<Array<{ engine: string; state: string; ruleVersion: string }>>();
    console.info(`install replay of every engine on the simulated market: ${replayMs.toFixed(0)} ms`);
    expect(status.map((row) => [row.engine, row.state])).toEqual([
      ['layered', 'done'],
      ['swing', 'done'],
      ['options', 'done'],
      ['drop', 'done'],
      ['crypto', 'done'],
    ]);
    const layered = z.array(layeredTrade).parse((await get('/api/all_stocks_scanner?limit=500')).json());
    const swing = z.array(swingTrade).parse((await get('/api/get_swing_trade_entries?limit=500')).json());
    expect(layered.length + swing.length).toBeGreaterThan(0);
    for (const row of [...layered, ...swing]) expect(row).toMatchObject({ Origin: 'replayed', SurvivorshipBiased: true });
    const idea = swing[0] ?? layered[0]!;
    const engine = swing[0] ? 'swing' : 'layered';
    const detail = ideaDetail.parse((await get(`/api/trade_ideas/${engine}/${encodeURIComponent(idea.Id)}`)).json());
    expect(detail.events[0]!.type).toBe('opened');
    expect(detail.bars.length).toBeGreaterThan(60);
  });

  it('api/all_crypto_scanner: one row per simulated coin, decided every UTC day (weekends too) at 00:05 UTC', async () => {
    const rows = cryptoTradesResponse.parse((await get('/api/all_crypto_scanner')).json());
    expect(rows.map((row) => row.Symbol)).toEqual(CRYPTOS.map((entry) => entry.symbol).sort());
    for (const row of rows) {
      expect(row).toMatchObject({ Origin: 'replayed', RuleVersion: 'crypto@1.0.0', SurvivorshipBiased: true, IsActive: true });
      expect(row.Candles).toBeGreaterThan(400);
    }
    const btc = rows.find((row) => row.Symbol === 'BTC')!;
    const detail = ideaDetail.parse((await get(`/api/trade_ideas/crypto/${encodeURIComponent(btc.Id)}`)).json());
    const updates = detail.events.filter((event) => event.type === 'updated' || event.type === 'opened');
    expect(new Set(updates.map((event) => new Date(`${event.barDate}T00:00:00Z`).getUTCDay())).size).toBe(7);
    for (const event of detail.events) expect(event.recordedAt.slice(11)).toBe('00:05:00.000Z');
    const weekendBars = detail.bars.filter((bar) => [0, 6].includes(new Date(`${bar.date}T00:00:00Z`).getUTCDay()));
    expect(weekendBars.length).toBeGreaterThan(detail.bars.length / 5);
  });

  it('api/get_combined_options_data: option trades on the OPTION_ALERT tickers, ProfitPercent descending, filtered and paged', async () => {
    const response = await get('/api/get_combined_options_data');
    expect(response.statusCode).toBe(200);
    const first = optionTradesResponse.parse(response.json());
    const all = optionTradesResponse.parse(await allPages('/api/get_combined_options_data', '', 7));
    expect(all.length).toBeGreaterThan(5);
    expect(first).toEqual(all.slice(0, 100));
    expect(new Set(all.map((row) => row.Id)).size).toBe(all.length);
    for (let i = 1; i < all.length; i += 1) expect(all[i - 1]!.ProfitPercent).toBeGreaterThanOrEqual(all[i]!.ProfitPercent);
    for (const row of all) {
      expect(OPTIONS).toContain(row.Symbol);
      // The simulated market prices a chain for any session: the replay chooses and prices from it.
      expect(row).toMatchObject({ Origin: 'replayed', RuleVersion: 'options@1.1.0', PriceSource: 'chain' });
      expect(row.ContractName.startsWith(row.Symbol)).toBe(true);
    }
    expect(all.some((row) => !row.IsActive)).toBe(true);
    for (const status of ['active', 'successful', 'failed'] as const) {
      const rows = optionTradesResponse.parse(await allPages('/api/get_combined_options_data', `&status=${status}`, 50));
      expect(rows.map((row) => row.Id).sort()).toEqual(all.filter((row) => row.Status.toLowerCase() === status).map((row) => row.Id).sort());
    }
    const symbol = all[0]!.Symbol;
    const bySymbol = optionTradesResponse.parse((await get(`/api/get_combined_options_data?symbol=${symbol}&limit=500`)).json());
    expect(bySymbol.length).toBeGreaterThan(0);
    expect(bySymbol.every((row) => row.Symbol.includes(symbol))).toBe(true);
  });

  it('api/get_stock_scanner_data: S, L and O drop items, newest first, filtered by status and type', async () => {
    const all = dropItemsResponse.parse(await allPages('/api/get_stock_scanner_data', '', 25));
    expect(all.length).toBeGreaterThan(5);
    for (let i = 1; i < all.length; i += 1) expect(all[i - 1]!.StockCreatedDate >= all[i]!.StockCreatedDate).toBe(true);
    const types = new Set(all.map((row) => row.StockType));
    expect(types.has('O')).toBe(true);
    expect(types.has('S') || types.has('L')).toBe(true);
    for (const row of all) {
      expect(row).toMatchObject({ Origin: 'replayed', RuleVersion: 'drop@1.1.0' });
      if (row.StockType === 'O') {
        expect(OPTION_ALERT_TICKERS).toContain(row.StockSymbol);
        expect(row.ContractName).toMatch(new RegExp(`^${row.StockSymbol}\\d{6}C\\d{8}$`));
        expect(row.OptionEntryValue).toBeGreaterThan(0);
      } else expect(STOCKS).toContain(row.StockSymbol);
    }
    const options = dropItemsResponse.parse(await allPages('/api/get_stock_scanner_data', '&type=O', 100));
    expect(options.map((row) => row.StockScannerId)).toEqual(all.filter((row) => row.StockType === 'O').map((row) => row.StockScannerId));
    const stocks = dropItemsResponse.parse(await allPages('/api/get_stock_scanner_data', '&type=S,L', 100));
    expect(stocks.map((row) => row.StockScannerId)).toEqual(all.filter((row) => row.StockType !== 'O').map((row) => row.StockScannerId));
    for (const status of ['active', 'deactivated'] as const) {
      const rows = dropItemsResponse.parse(await allPages('/api/get_stock_scanner_data', `&status=${status}`, 100));
      expect(rows.map((row) => row.StockScannerId)).toEqual(all.filter((row) => row.Status.toLowerCase() === status).map((row) => row.StockScannerId));
    }
    expect(all.some((row) => row.Status === 'Deactivated')).toBe(true);
    // A type may carry the one status wanted of it: the screen's per-type boxes in one call, paged.
    const picked = dropItemsResponse.parse(await allPages('/api/get_stock_scanner_data', '&type=O,S:deactivated,L:active', 5));
    const wanted = all.filter((row) => row.StockType === 'O' || (row.StockType === 'S' && row.Status === 'Deactivated') || (row.StockType === 'L' && row.Status === 'Active'));
    expect(wanted.some((row) => row.StockType === 'S')).toBe(true);
    expect(picked.map((row) => row.StockScannerId)).toEqual(wanted.map((row) => row.StockScannerId));
    const deactivatedOptions = dropItemsResponse.parse(await allPages('/api/get_stock_scanner_data', '&type=O:deactivated,S:deactivated&status=deactivated', 100));
    expect(deactivatedOptions.map((row) => row.StockScannerId)).toEqual(all.filter((row) => row.StockType !== 'L' && row.Status === 'Deactivated').map((row) => row.StockScannerId));
  });

  it('answer 400 with a msg for a filter the list does not have, and 401 without a token', async () => {
    const cases: Array<[string, string]> = [
      ['/api/get_combined_options_data?status=partial', 'status of api/get_combined_options_data must be a comma-separated list of active, successful or failed'],
      ['/api/get_combined_options_data?status=deactivated', 'status of api/get_combined_options_data must be a comma-separated list of active, successful or failed'],
      ['/api/get_combined_options_data?type=O', 'type applies to api/get_swing_trade_entries and api/get_stock_scanner_data only'],
      ['/api/get_stock_scanner_data?status=successful', 'status of api/get_stock_scanner_data must be a comma-separated list of active or deactivated'],
      ['/api/get_stock_scanner_data?type=trend', 'type of api/get_stock_scanner_data must be a comma-separated list of S, L or O, each optionally with :active, :deactivated'],
      ['/api/get_swing_trade_entries?type=S', 'type of api/get_swing_trade_entries must be a comma-separated list of trend, drop or level, each optionally with :active, :successful, :partial, :failed'],
      ['/api/get_swing_trade_entries?type=drop,S:active', 'type of api/get_swing_trade_entries must be a comma-separated list of trend, drop or level, each optionally with :active, :successful, :partial, :failed'],
      ['/api/get_stock_scanner_data?type=S:successful', 'type of api/get_stock_scanner_data must be a comma-separated list of S, L or O, each optionally with :active, :deactivated'],
      ['/api/get_stock_scanner_data?type=S:won', 'type must be a comma-separated list of trend, drop, level (swing) or S, L, O (drop items), each optionally with :status (one status of its list)'],
      ['/api/all_stocks_scanner?status=deactivated', 'status of api/all_stocks_scanner must be a comma-separated list of active, successful, partial or failed'],
    ];
    for (const [url, msg] of cases) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ msg });
    }
    for (const url of ['/api/get_stock_scanner_data?type=X', '/api/get_combined_options_data?limit=0', '/api/get_stock_scanner_data?cursor=nope', '/api/get_combined_options_data?status=active,']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(typeof response.json<{ msg: string }>().msg).toBe('string');
    }
    for (const url of ['/api/get_combined_options_data', '/api/get_stock_scanner_data', '/api/trade_ideas/options/track_record']) expect((await get(url, false)).statusCode, url).toBe(401);
  });

  it('answer the detail of an option trade and of a drop item', async () => {
    const option = optionTradesResponse.parse((await get('/api/get_combined_options_data?limit=1')).json())[0]!;
    const detail = ideaDetail.parse((await get(`/api/trade_ideas/options/${encodeURIComponent(option.Id)}`)).json());
    expect(detail.engine).toBe('options');
    expect(detail.idea).toEqual(option);
    expect(detail.events[0]).toMatchObject({ type: 'opened', origin: 'replayed' });
    expect(detail.bars.length).toBeGreaterThan(60);
    const item = dropItemsResponse.parse((await get('/api/get_stock_scanner_data?type=O&limit=1')).json())[0]!;
    const dropDetail = ideaDetail.parse((await get(`/api/trade_ideas/drop/${encodeURIComponent(item.StockScannerId)}`)).json());
    expect(dropDetail.engine).toBe('drop');
    expect(dropDetail.idea).toEqual(item);
    expect(dropDetail.events[0]!.data).toMatchObject({ stockType: 'O' });
    expect((await get(`/api/trade_ideas/drop/${encodeURIComponent(option.Id)}`)).statusCode).toBe(404);
  });

  it('answer their track records (options against SPY, baselines through simulate with the variant)', async () => {
    for (const engine of ['layered', 'swing', 'options', 'drop']) {
      const response = await get(`/api/trade_ideas/${engine}/track_record`);
      expect(response.statusCode, response.body).toBe(200);
      const record = trackRecord.parse(response.json());
      expect(record.engine).toBe(engine);
      expect(record.groups.every((group) => group.origin === 'replayed')).toBe(true);
      if (engine === 'options' || engine === 'drop') {
        const all = record.groups.find((group) => group.type === 'All')!;
        expect(all.allClosed.n).toBeGreaterThan(0);
        expect(all.benchmark?.symbol).toBe('SPY');
        expect(all.baseline?.n).toBeGreaterThan(0);
      }
    }
    const types = trackRecord.parse((await get('/api/trade_ideas/drop/track_record')).json()).groups.map((group) => group.type);
    expect(types).toContain('O');
    const sides = trackRecord.parse((await get('/api/trade_ideas/options/track_record')).json()).groups.map((group) => group.type);
    expect(sides.some((type) => type === 'CALL' || type === 'PUT')).toBe(true);
  });

  it('stores every row as the fold of its events (drop O rows marked with the option’s value)', async () => {
    const repo = createTradesRepo(t.db);
    const rows = await t.db.select().from(ideas);
    const events = await repo.eventsOf(
      t.db,
      rows.map((row) => row.id),
    );
    const byId = new Map(SERVER_TRADE_ENGINES.map((engine) => [engine.id, engine]));
    expect(new Set(rows.map((row) => row.engine))).toEqual(new Set(['layered', 'swing', 'options', 'drop', 'crypto']));
    for (const row of rows) {
      const engine = byId.get(row.engine as EngineId)!;
      const log = events.get(row.id)!;
      const mark = row.markPrice === null ? null : { price: row.markPrice, at: row.markAt!.toISOString(), ...(row.markOptionValue === null ? {} : { optionValue: row.markOptionValue }) };
      expect(JSON.parse(JSON.stringify(engine.fold(log, markFor(engine, log, mark), row.updatedAt.toISOString())))).toEqual(row.row);
    }
  });

  it('prices from the simulated chain of each session: contracts chosen from it, open trades past their entry bar marked at its bid at the last close', async () => {
    const repo = createTradesRepo(t.db);
    const rows = await t.db.select().from(ideas);
    const events = await repo.eventsOf(
      t.db,
      rows.map((row) => row.id),
    );
    const opened = [...events.values()].map((log) => log[0]!);
    const options = opened.filter((event) => event.engine === 'options');
    const oItems = opened.filter((event) => event.engine === 'drop' && event.data.stockType === 'O');
    expect(options.length).toBeGreaterThan(5);
    expect(oItems.length).toBeGreaterThan(0);
    for (const event of options) expect(event.data).toMatchObject({ priceSource: 'chain', sigmaSource: 'chain' });
    for (const event of oItems) expect((event.data.option as { pricing: unknown }).pricing).toMatchObject({ priceSource: 'chain', sigmaSource: 'chain' });
    // Each trade's contract is listed in the chain as of its signal session, at the ask it entered pending with.
    for (const event of options.slice(0, 10)) {
      const chain = (await t.market.getOptionChainAsOf!(event.symbol, event.barDate, event.data.expiry as string)).value!;
      const listed = chain.contracts.find((c) => c.type === (event.data.side === 'CALL' ? 'call' : 'put') && c.strike === event.data.strike);
      expect(listed, event.ideaId).toBeDefined();
      expect(event.data).toMatchObject({ signalValue: listed!.ask, signalMark: listed!.bid, sigma: listed!.impliedVolatility });
    }
    // The open ones (still open at the end of the replay) are marked at the bid of the last session's
    // chain; those on their entry bar (entered that session, or entering the next) with the model at
    // their σ (the chain's IV at the signal).
    const last = (await t.db.select().from(tradeEngineVersions)).find((version) => version.engine === 'options')!.lastSession!;
    const open = rows.filter((row) => row.engine === 'options' && row.isOpen && row.markAt !== null);
    const onEntryBar = (id: string) => (events.get(id)!.find((event) => event.type === 'entry_filled')?.barDate ?? last) >= last;
    expect(open.filter((row) => !onEntryBar(row.id)).length).toBeGreaterThan(0);
    expect(open.filter((row) => onEntryBar(row.id)).length).toBeGreaterThan(0);
    for (const row of open) {
      const trade = row.row as { ContractName: string; Expiry: string; Strike: number; Side: string; Current_Value: number };
      if (onEntryBar(row.id)) {
        const data = events.get(row.id)![0]!.data as unknown as ContractTerms & { sigma: number };
        const markDay = dayNumber(row.markAt!.toISOString().slice(0, 10));
        expect([row.markOptionValue, trade.Current_Value], row.id).toEqual([null, bidOf(modelValue(data, row.markPrice!, markDay, data.sigma), data.halfSpread)]);
        continue;
      }
      const chain = (await t.market.getOptionChainAsOf!(row.symbol, last, trade.Expiry)).value!;
      const quote = chain.contracts.find((c) => c.type === (trade.Side === 'CALL' ? 'call' : 'put') && c.strike === trade.Strike)!;
      expect(row.markOptionValue, row.id).toBe(quote.bid);
      expect(trade.Current_Value).toBe(quote.bid);
    }
  });
});
