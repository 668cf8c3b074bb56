/**
 * The swing engine's adapter (engine id 'swing'; docs/rules/swing.md): the S&P 500 members the source
 * knows, the stock calendar, its extras (the earnings calendar) and its rows' types (TradeType:
 * trend, drop; NearSupport: level).
 */
import { dayNumber, isoFromDayNumber, tradesEndpoints, type SwingExtras } from '@signalboard/core';
import type { CachedMarket } from '../../../providers/market/cached-market';
import type { EarningsEvent } from '../../../providers/market/types';
import type { EngineAdapter } from '../engine-adapter';
import { STOCK_CALENDAR, stockUniverse } from '../trades.market';
import type { ExtrasFor } from '../trades.types';

/** Calendar days of earnings dates the swing engine looks ahead: 21 sessions fit in about 31 of them. */
export const EARNINGS_LOOKAHEAD_DAYS = 45;

/**
 * The swing engine's extras: each symbol's next earnings date on or after the session, from the
 * source's earnings calendar (EarningsSoon tags a trade with earnings within 21 sessions;
 * docs/rules/swing.md §2.1). Release dates are scheduled weeks ahead, so a session reads only what was
 * announced by then. Read a calendar month at a time, once per run; a month the source cannot
 * answer counts as no earnings (the tag stays off), never as a failed pass.
 */
function swingEarnings(market: CachedMarket): ExtrasFor<'swing'> {
  const months = new Map<string, Promise<EarningsEvent[]>>();
  const monthOf = (day: number) => isoFromDayNumber(day).slice(0, 7);
  const eventsOf = (month: string) => {
    let events = months.get(month);
    if (!events) {
      const [year, mm] = month.split('-').map(Number) as [number, number];
      const last = new Date(Date.UTC(year, mm, 0)).getUTCDate();
      events = market.getEarningsCalendar(`${month}-01`, `${month}-${String(last).padStart(2, '0')}`).then(
        (answer) => answer.value,
        () => [],
      );
      months.set(month, events);
    }
    return events;
  };
  return async (input): Promise<SwingExtras> => {
    const date = input.session.date;
    const today = dayNumber(date);
    const wanted = [...new Set([today, today + 31, today + EARNINGS_LOOKAHEAD_DAYS].map(monthOf))];
    const events = (await Promise.all(wanted.map(eventsOf))).flat();
    const next = new Map<string, string>();
    for (const event of events) {
      if (event.date < date || dayNumber(event.date) > today + EARNINGS_LOOKAHEAD_DAYS) continue;
      const known = next.get(event.symbol);
      if (known === undefined || event.date < known) next.set(event.symbol, event.date);
    }
    return next.size > 0 ? { earnings: next } : {};
  };
}

export const swingAdapter: EngineAdapter<'swing'> = {
  id: 'swing',
  universe: stockUniverse,
  calendar: STOCK_CALENDAR,
  extras: (_engine, _universe, { market }) => Promise.resolve(swingEarnings(market)),

  typesOf(row) {
    const types: string[] = [];
    if (row.TradeType === 'Trend') types.push('trend');
    if (row.TradeType === 'Price Drop') types.push('drop');
    if (row.NearSupport === true) types.push('level');
    return types;
  },
  list: {
    endpoint: tradesEndpoints.getSwingTradeEntries,
    statuses: ['active', 'successful', 'partial', 'failed'],
    types: { trend: 'Trend', drop: 'Price Drop', level: 'Level System' },
    order: 'created',
  },
};
