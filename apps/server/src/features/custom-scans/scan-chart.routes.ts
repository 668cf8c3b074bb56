/**
 * GET api/scans/chart (docs/custom-scans.md, "Running a scan"): the daily bars behind a result row's
 * "Details" chart, read through the market cache like a run's, for the same run date: nothing after
 * it. The scan's levels are drawn by the screen from the row's own values (core's scanChartLevels).
 */
import type { FastifyInstance } from 'fastify';
import { customScansEndpoints, isoFromDayNumber, type ScanChartResponse } from '@signalboard/core';
import type { Clock } from '../../lib/clock';
import { HttpError } from '../../lib/errors';
import { route } from '../../lib/endpoint';
import type { CachedMarket } from '../../providers/market/cached-market';
import { barsAreImported } from '../../providers/market/imported/imported-figures';
import { runLimitDay } from './scan-run.service';

const DAY_SECONDS = 86_400;
/** The most bars the chart shows: about a year of sessions. */
export const CHART_BARS = 260;
/** Calendar days read for them: 260 sessions and the year's holidays, with room to spare. */
const CHART_DAYS = 380;

export async function scanChartRoutes(app: FastifyInstance, deps: { market: CachedMarket; marketClock: Clock }) {
  const { market, marketClock } = deps;
  route(app, customScansEndpoints.getScanChart, async (_request, _reply, input): Promise<ScanChartResponse> => {
    const symbol = input.symbol.toUpperCase();
    const limitDay = runLimitDay(input.as_of, Math.floor(marketClock.nowMs() / 1000 / DAY_SECONDS));
    // An unknown symbol answers 404 "Unknown symbol: X" and one without history 404 with the source's words, as every market call does.
    const bars = (await market.getDailyBars(symbol, (limitDay - CHART_DAYS) * DAY_SECONDS, limitDay * DAY_SECONDS)).value;
    const count = Math.min(bars.time.length, bars.open.length, bars.high.length, bars.low.length, bars.close.length, bars.volume.length);
    const first = Math.max(0, count - CHART_BARS);
    const rows: ScanChartResponse['bars'] = [];
    for (let i = first; i < count; i += 1) {
      rows.push({ date: isoFromDayNumber(Math.floor(bars.time[i]! / DAY_SECONDS)), open: bars.open[i]!, high: bars.high[i]!, low: bars.low[i]!, close: bars.close[i]!, volume: bars.volume[i]! });
    }
    const last = rows.at(-1);
    if (!last) throw new HttpError(404, input.as_of ? `No daily bars of ${symbol} on or before ${input.as_of}.` : `No daily bars of ${symbol}.`);
    return { symbol, source: market.source, ...(barsAreImported(bars) ? { imported: true as const } : {}), as_of: last.date, bars: rows };
  });
}
