/**
 * The layered engine's adapter (the long-term feature, engine id 'layered'; docs/rules/long-term.md):
 * the S&P 500 members the source knows, the stock calendar, no extras and no type filter.
 */
import { tradesEndpoints, type LayeredExtras } from '@signalboard/core';
import type { EngineAdapter } from '../engine-adapter';
import { STOCK_CALENDAR, stockUniverse } from '../trades.market';

export const longTermAdapter: EngineAdapter<'layered'> = {
  id: 'layered',
  universe: stockUniverse,
  calendar: STOCK_CALENDAR,
  extras: () => Promise.resolve(async (): Promise<LayeredExtras> => ({})),
  typesOf: () => [],
  list: { endpoint: tradesEndpoints.getLayeredTrades, statuses: ['active', 'successful', 'partial', 'failed'], order: 'created' },
};
