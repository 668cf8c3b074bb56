/**
 * The crypto engine's adapter (engine id 'crypto'; docs/rules/crypto.md §3): its universe, calendar,
 * candles and extras (crypto.ts), its own calls (crypto.routes.ts: the scanner and the scorecard, in
 * place of a list call), its rows' IsNew taken at read time, and its idea detail's bars: UTC-day
 * candles, the completed ones only (today's is still open).
 */
import type { EngineAdapter } from '../engine-adapter';
import { createCryptoExtras, CRYPTO_CALENDAR, cryptoCandles, cryptoUniverseOf } from './crypto';
import { cryptoRoutes, cryptoRowAt } from './crypto.routes';

const DAY_MS = 86_400_000;
const DAY_SECONDS = 86_400;

export const cryptoAdapter: EngineAdapter<'crypto'> = {
  id: 'crypto',
  universe: cryptoUniverseOf,
  calendar: CRYPTO_CALENDAR,

  async extras(_engine, universe, deps) {
    const { market } = deps;
    const candles = deps.series ? await cryptoCandles(market, deps.series) : { closeOnly: new Set<string>(), volumeUnit: market.source === 'file' ? ('usd' as const) : ('base' as const) };
    return createCryptoExtras(market, universe, candles, { nowMs: deps.nowMs ?? (() => Date.now()) });
  },

  typesOf: () => [],
  rowAt: cryptoRowAt,
  detailBarsTo: (nowMs) => Math.floor(nowMs / DAY_MS) * DAY_SECONDS - 1,
  routes: cryptoRoutes,
};
