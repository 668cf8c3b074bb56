/**
 * The crypto engine's own calls (issue 13), registered with the trade calls (crypto.adapter.ts):
 * - GET api/all_crypto_scanner: one row per coin by Symbol, optional filters symbol, signal (and
 *   horizon); rows' IsNew (DateCreated within 24 h) is taken at read time, as the idea detail's.
 * - GET api/crypto_scorecard?from&to&symbol: the signal scorecard (docs/rules/crypto.md §3.4),
 *   computeCryptoScorecard over the stored signal log and the coins' closes.
 */
import type { FastifyInstance } from 'fastify';
import {
  computeCryptoScorecard,
  CRYPTO_BENCHMARK,
  CRYPTO_PARAMS,
  cryptoSignalLog,
  tradesEndpoints,
  type CryptoCloses,
  type CryptoScorecard,
} from '@signalboard/core';
import { route } from '../../../lib/endpoint';
import { badRequest } from '../../../lib/errors';
import { UnknownSymbolError } from '../../../providers/market/types';
import type { EngineRoutesContext } from '../engine-adapter';
import { HISTORY_DAYS, toDailySeries } from '../trades.market';
import { cryptoPassDay } from './crypto';

/** Crypto rows at most (one per coin; the live universe is ≤ 50 coins, a dataset's may be more). */
const CRYPTO_ROWS_MAX = 1000;
const HOUR_MS = 3_600_000;

/** A crypto row with IsNew as of `nowMs`: a signal changed (DateCreated) within the last 24 h. */
export function cryptoRowAt(row: Record<string, unknown>, nowMs: number): Record<string, unknown> {
  const created = typeof row.DateCreated === 'string' ? Date.parse(row.DateCreated) : Number.NaN;
  return { ...row, IsNew: Number.isFinite(created) && nowMs - created < CRYPTO_PARAMS.newHours * HOUR_MS };
}

export function cryptoRoutes(app: FastifyInstance, { versions, repo, market, marketClock }: EngineRoutesContext): void {
  route(app, tradesEndpoints.getCryptoScanner, async (_request, _reply, query) => {
    if (query.horizon !== undefined && query.signal === undefined) throw badRequest('horizon needs a signal (Buy, Sell or Hold)');
    const engine = await versions.current('crypto');
    if (!engine) return [];
    const page = await repo.list({ engine: 'crypto', currentVersion: engine.ruleVersion, limit: CRYPTO_ROWS_MAX, ...(query.symbol ? { symbol: query.symbol } : {}) });
    const nowMs = marketClock.nowMs();
    // Newest first: a coin that left the universe and came back shows its current row only.
    const bySymbol = new Map<string, Record<string, unknown>>();
    for (const stored of page.rows) {
      const row = JSON.parse(stored.json) as Record<string, unknown>;
      const symbol = String(row.Symbol);
      if (!bySymbol.has(symbol)) bySymbol.set(symbol, cryptoRowAt(row, nowMs));
    }
    const horizons = query.horizon ? [query.horizon] : (['Short', 'Medium', 'Long'] as const);
    const shows = (row: Record<string, unknown>) => query.signal === undefined || horizons.some((horizon) => row[`${horizon}TermSignal`] === query.signal);
    return [...bySymbol.keys()]
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((symbol) => bySymbol.get(symbol)!)
      .filter(shows);
  });

  route(app, tradesEndpoints.getCryptoScorecard, async (_request, _reply, query): Promise<CryptoScorecard> => {
    if (query.from && query.to && query.from > query.to) throw badRequest('from must not be after to');
    const engine = await versions.current('crypto');
    const nowMs = marketClock.nowMs();
    const stored = engine ? await repo.ideasOf('crypto') : { rows: [] };
    const events = await repo.eventsOf(
      repo.db,
      stored.rows.filter((row) => !row.isVoided).map((row) => row.id),
    );
    const signals = cryptoSignalLog([...events.values()].flat());
    // The closes of every coin with signals and of the benchmark, through the last completed candle.
    const lastDay = cryptoPassDay(nowMs);
    const closes = new Map<string, CryptoCloses>();
    for (const symbol of new Set([...signals.map((signal) => signal.symbol), CRYPTO_BENCHMARK])) {
      try {
        const bars = await market.getRecentDailyBars(symbol, HISTORY_DAYS);
        closes.set(symbol, toDailySeries(bars.value, 'CRYPTO', lastDay));
      } catch (error) {
        if (!(error instanceof UnknownSymbolError)) throw error;
      }
    }
    try {
      return computeCryptoScorecard({ signals, closes, now: new Date(nowMs).toISOString(), scope: { from: query.from ?? null, to: query.to ?? null, symbol: query.symbol ?? null } });
    } catch (error) {
      // A date that does not exist (2026-02-30) is refused by the scorecard's scope check.
      if (error instanceof RangeError) throw badRequest(error.message);
      throw error;
    }
  });
}
