/**
 * Each engine's calendar (docs/rules/conventions.md §0.3): which days are sessions, when the pass deciding a
 * session runs, and when marks run. Stocks and options: NYSE trading days, the pass at 16:30 New
 * York, marks while the market is open. Crypto: every UTC day, the pass at 00:05 UTC the next day,
 * marks around the clock.
 */
import { isTradingDayNumber, marketSession, type DailySeries, type EngineId } from '@signalboard/core';
import { CRYPTO_MARK_INTERVAL_MS, cryptoPassDay, cryptoPassTimeMs, cryptoSessionDays } from './trades.crypto';
import { passSessionDay, passTimeMs, sessionDays } from './trades.market';

export interface EngineCalendar {
  /** The latest session whose daily pass has come at `nowMs` (day number). */
  passDay(nowMs: number): number;
  /** The instant (ms) of the pass deciding session `day` (a replay's `now`). */
  passTimeMs(day: number): number;
  isSession(day: number): boolean;
  /** The sessions on which some series has a bar, within [fromDay, toDay], ascending. */
  sessionDays(series: Iterable<DailySeries>, fromDay: number, toDay: number): number[];
  /** The marks' slot at `nowMs` (null: no marks now), given the source's stock interval. */
  markSlot(nowMs: number, stockIntervalMs: number): Date | null;
}

const STOCK_CALENDAR: EngineCalendar = {
  passDay: passSessionDay,
  passTimeMs,
  isSession: isTradingDayNumber,
  sessionDays,
  markSlot: (nowMs, interval) => (marketSession(nowMs).phase === 'open' ? new Date(Math.floor(nowMs / interval) * interval) : null),
};

const CRYPTO_CALENDAR: EngineCalendar = {
  passDay: cryptoPassDay,
  passTimeMs: cryptoPassTimeMs,
  isSession: () => true,
  sessionDays: cryptoSessionDays,
  markSlot: (nowMs) => new Date(Math.floor(nowMs / CRYPTO_MARK_INTERVAL_MS) * CRYPTO_MARK_INTERVAL_MS),
};

export const calendarOf = (engine: EngineId): EngineCalendar => (engine === 'crypto' ? CRYPTO_CALENDAR : STOCK_CALENDAR);
