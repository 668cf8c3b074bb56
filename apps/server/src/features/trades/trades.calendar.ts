/**
 * Each engine's calendar (docs/rules/conventions.md §0.3; EngineCalendar in engine-adapter.ts): which
 * days are sessions, when the pass deciding a session runs, and when marks run, as its adapter says.
 * Stocks and options (trades.market.ts STOCK_CALENDAR): NYSE trading days, the pass at 16:30 New
 * York, marks while the market is open. Crypto (engines/crypto.ts CRYPTO_CALENDAR): every UTC day,
 * the pass at 00:05 UTC the next day, marks around the clock.
 */
import type { EngineId } from '@signalboard/core';
import type { EngineCalendar } from './engine-adapter';
import { ENGINE_ADAPTERS } from './engines';

export const calendarOf = (engine: EngineId): EngineCalendar => ENGINE_ADAPTERS[engine].calendar;
