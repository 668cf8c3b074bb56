/**
 * Custom Scan alerts during the session (CUSTOM_SCAN; issue 26, docs/custom-scans.md "Custom Scan
 * alerts", "During the session"): on the quote poller's cadence, while the regular session is open
 * (the market clock, the NYSE calendar), each scan an active rule watches that is on price only
 * (core's intradayProblem) and runs over an intraday universe (INTRADAY_UNIVERSES) is evaluated on
 * live quotes as the session's provisional bar (core's evaluateWithQuote). A symbol that matches, was
 * not a member at the scan's previous record and has not entered yet this session fires one alert
 * per scan and poll through insertAlert, written with its custom_scan_intraday_entries rows in one
 * transaction (scan-intraday.write.ts): at most one per symbol per scan per session, and the daily pass
 * of the session (scan.evaluator.ts) leaves those symbols out.
 *
 * Cost: only the symbols that could enter are read (not a previous member, not entered yet), at most
 * INTRADAY_SYMBOLS_PER_POLL a poll across every scan (in turn when there are more), through the
 * market cache (quotes 15 s, daily bars 5 minutes), so scans over the same universe share their reads.
 */
import {
  compileScan,
  evaluateWithQuote,
  FormulaError,
  intradayProblem,
  isoFromDayNumber,
  marketSession,
  nextScanMembership,
  parseFormula,
  scanField,
  tradingDayOnOrBefore,
  type CompiledScan,
  type IntradayMoment,
  type IntradayQuote,
  type ScanBars,
  type ScanFacts,
  type ScanUniverse,
} from '@signalboard/core';
import type { Database } from '../../../db/client';
import { settleInCompletionOrder } from '../../../lib/completion-order';
import type { Clock } from '../../../lib/clock';
import { createPacer, NO_FOREGROUND, type Foreground } from '../../../lib/foreground';
import type { ScanLog } from '../../../lib/scan-failure';
import type { CachedMarket } from '../../../providers/market/cached-market';
import { barsAreImported, quoteIsImported } from '../../../providers/market/imported/imported-figures';
import type { Bars } from '../../../providers/market/types';
import { loadScanBars, scanConcurrency } from '../../custom-scans/scan-bars';
import { factSourcesOf, readScanFacts } from '../../custom-scans/scan-facts';
import { columnLabel, lookbackDays } from '../../custom-scans/scan-run.service';
import type { ScanMember } from '../../custom-scans/scan-universe';
import type { NewAlert } from './alert-store';
import { rulesOfType, type RuleRow } from './evaluation.repo';
import { CUSTOM_SCAN_TYPE, intradayEntered, previousMembers, scanIdsOf, sessionRecorded, watchedScans, type MembersRow, type WatchedScan } from './scan-members.repo';
import { writeIntradayEntries, type IntradayRow } from './scan-intraday.write';

/** The universes evaluated during the session: every one (the S&P 500 and all US stocks, TSX, crypto, the favourites). */
export const INTRADAY_UNIVERSES: readonly ScanUniverse[] = ['favorites', 'sp500', 'us', 'tsx', 'crypto'];

/**
 * The bar a universe's history must end on before the session: the trading session before it for
 * stocks (TSX read on the NYSE calendar, as the daily pass reads it: a quote of a TSX holiday is an
 * earlier day's and is not used), the calendar day before for crypto, whose daily bars are UTC days,
 * weekends included (the regular session's hours fall within one UTC day).
 */
export function previousBarOf(universe: ScanUniverse, sessionDay: number): string {
  return isoFromDayNumber(universe === 'crypto' ? sessionDay - 1 : tradingDayOnOrBefore(sessionDay - 1));
}

/**
 * The most symbols a poll reads (a quote and the daily bars each) across every scan: the simulated and
 * file sources, enough for the S&P 500 and the favourites; the live source, within the providers'
 * limits beside the price rules' quotes (docs/rules/alerts.md §1.7). More symbols are read in turn.
 */
export const INTRADAY_SYMBOLS_PER_POLL = { local: 600, live: 3 } as const;

const DAY_SECONDS = 86_400;

export interface IntradayScanDeps {
  db: Database;
  market: Pick<CachedMarket, 'source' | 'getQuote' | 'getDailyBars' | 'getProfile' | 'getEarningsCalendar' | 'getCompanyNews'>;
  /** The symbols of a scan's universe for its owner (scan-universe.ts's scanUniverseMembers). */
  universe(universe: ScanUniverse, userId: number): Promise<ScanMember[]>;
  /** The market's clock: the session, market hours, quote freshness. */
  marketClock: Clock;
  /** Wall time: when alerts fired. */
  clock: Clock;
  /** "Simulated market", "Dataset" or "Live market data" (evaluation.ts SOURCE_LABELS). */
  source: string;
  /** A quote priced longer ago than this is stale: twice the poll interval (docs/rules/alerts.md §1.6). */
  maxQuoteAgeMs: number;
  /** Symbols read a poll (default: INTRADAY_SYMBOLS_PER_POLL for the source). */
  symbolsPerPoll?: number;
  log: { info(message: string): void; warn(message: string): void };
  /** Requests first: reading the bars (a simulated history is generated synchronously) gives way to them between symbols (default: a yield per slice). */
  foreground?: Foreground;
  delivery?: { kick(): void };
  alertCommitted?: (alert: NewAlert) => void;
}

export interface IntradayScanReport {
  /** The scans evaluated (on price only, over an intraday universe, with a previous record to compare with). */
  scans: number;
  /** The symbols whose quote was read. */
  symbols: number;
  /** Alerts written (one per scan with entries). */
  fired: number;
  /** Symbols whose quote or bars could not be read, and scans whose write failed. */
  failed: string[];
  /** Why nothing was evaluated. */
  skipped?: 'closed';
}

export interface IntradayScanAlerts {
  /** One poll: every watched price-only scan on the quotes of now. */
  passOnce(): Promise<IntradayScanReport>;
}

/** A scan to evaluate this poll and the symbols of its universe that could enter. */
interface Work {
  rule: RuleRow;
  scan: WatchedScan;
  compiled: CompiledScan;
  previous: MembersRow;
  candidates: ScanMember[];
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The daily bars as the scan reads them, each dated (YYYY-MM-DD) so the session's own bar is told apart. */
const scanBarsOf = (bars: Bars): ScanBars => ({
  open: bars.open,
  high: bars.high,
  low: bars.low,
  close: bars.close,
  volume: bars.volume,
  dates: Array.from(bars.time, (time) => isoFromDayNumber(Math.round(time / DAY_SECONDS))),
});

export function createIntradayScanAlerts(deps: IntradayScanDeps): IntradayScanAlerts {
  const { db, market, marketClock } = deps;
  const perPoll = Math.max(1, deps.symbolsPerPoll ?? (market.source === 'live' ? INTRADAY_SYMBOLS_PER_POLL.live : INTRADAY_SYMBOLS_PER_POLL.local));
  const concurrency = scanConcurrency(market);
  const said = (context: object, message: string) => deps.log.warn(`Custom Scan intraday: ${message}: ${errorText((context as { err?: unknown }).err)}`);
  const scanLog: ScanLog = { warn: said, error: said };
  /** Where the next poll starts when there are more symbols than a poll reads. */
  let cursor = 0;

  /** The scans to evaluate at `session`, each with the symbols that could enter. */
  async function workOf(session: string): Promise<Work[]> {
    const work: Work[] = [];
    const universes = new Map<string, Promise<ScanMember[]>>();
    for (const rule of await rulesOfType(db, CUSTOM_SCAN_TYPE)) {
      for (const scan of await watchedScans(db, rule.userId, scanIdsOf(rule.symbols))) {
        if (!INTRADAY_UNIVERSES.includes(scan.universe)) continue;
        let compiled: CompiledScan;
        try {
          const expr = parseFormula(scan.formula);
          if (intradayProblem(expr) !== null) continue;
          compiled = compileScan(expr);
        } catch (error) {
          // A stored formula was parsed when saved; one that no longer parses is the daily pass's to report.
          if (error instanceof FormulaError || error instanceof RangeError) continue;
          throw error;
        }
        // The session's daily pass is done (a poll late after the close): it has the last word.
        if (await sessionRecorded(db, scan.id, session)) continue;
        const previous = await previousMembers(db, scan.id, session);
        // No record to compare with (a scan newly watched, edited, or after a long gap): nothing can enter.
        if (!previous || nextScanMembership({ previous, session, scanVersion: scan.version, matches: [], missing: [] }).first) continue;
        const key = scan.universe === 'favorites' ? `favorites:${rule.userId}` : scan.universe;
        if (!universes.has(key)) universes.set(key, deps.universe(scan.universe, rule.userId));
        const members = await universes.get(key)!;
        const before = new Set(previous.symbols);
        const entered = await intradayEntered(db, scan.id, session);
        const candidates = members.filter((member) => !before.has(member.symbol) && !entered.has(member.symbol));
        work.push({ rule, scan, compiled, previous, candidates });
      }
    }
    return work;
  }

  /** The symbols this poll reads: all of them, or the next `perPoll` in turn. */
  function symbolsOfPoll(work: readonly Work[]): Set<string> {
    const all = [...new Set(work.flatMap((item) => item.candidates.map((member) => member.symbol)))];
    if (all.length <= perPoll) return new Set(all);
    const start = cursor % all.length;
    cursor = start + perPoll;
    return new Set([...all.slice(start), ...all.slice(0, start)].slice(0, perPoll));
  }

  /** Each symbol's quote; `lastBar`: an imported file's last close, not a quote. */
  async function quotesOf(symbols: readonly string[], failed: string[]): Promise<Map<string, IntradayQuote & { lastBar: boolean }>> {
    const quotes = new Map<string, IntradayQuote & { lastBar: boolean }>();
    const read = async (symbol: string) => market.getQuote(symbol);
    for await (const outcome of settleInCompletionOrder(symbols, concurrency, read)) {
      if (!outcome.ok) {
        failed.push(`${outcome.item}: ${errorText(outcome.error)}`);
        continue;
      }
      const { value: quote, fetchedAtMs } = outcome.value;
      quotes.set(outcome.item, { price: quote.price, open: quote.open, high: quote.high, low: quote.low, asOfMs: quote.timestamp > 0 ? quote.timestamp * 1000 : fetchedAtMs, lastBar: quoteIsImported(quote) });
    }
    return quotes;
  }

  /** The scan's candidates read this poll that match on their quote, with what the alert says of each. */
  async function matchesOf(item: Work, quotes: ReadonlyMap<string, IntradayQuote & { lastBar: boolean }>, at: IntradayMoment, sessionDay: number, failed: string[]): Promise<IntradayRow[]> {
    const members = item.candidates.filter((member) => quotes.has(member.symbol));
    if (members.length === 0) return [];
    const previousDay = sessionDay - 1;
    const loaded = await loadScanBars(market, members, sessionDay - lookbackDays(item.compiled), previousDay, { concurrency, onSymbol: createPacer(deps.foreground ?? NO_FOREGROUND) });
    if (loaded.failed > 0) failed.push(`scan ${item.scan.id}: ${loaded.failed} symbols' bars: ${errorText(loaded.firstError)}`);
    const sources = factSourcesOf(item.compiled.fields);
    const facts = sources.size === 0 ? new Map<string, ScanFacts>() : await readScanFacts(sources, { market, members, runDay: sessionDay, concurrency, log: scanLog });
    const rows: IntradayRow[] = [];
    for (const member of members) {
      const bars = loaded.bars.get(member.symbol);
      const quote = quotes.get(member.symbol)!;
      if (!bars) continue;
      const result = evaluateWithQuote(item.compiled, scanBarsOf(bars), facts.get(member.symbol) ?? {}, quote, { ...at, previousSession: previousBarOf(item.scan.universe, sessionDay) });
      if (result.skipped !== null || !result.matched) continue;
      const previousClose = bars.close[Math.min(bars.close.length, bars.time.length) - 1];
      const change = previousClose !== undefined && previousClose > 0 ? (quote.price / previousClose - 1) * 100 : null;
      rows.push({ symbol: member.symbol, name: member.name, price: quote.price, change_pct: change !== null && Number.isFinite(change) ? change : null, values: result.values, asOfMs: quote.asOfMs, ...(barsAreImported(bars) || quote.lastBar ? { imported: true as const } : {}) });
    }
    return rows;
  }

  async function passOnce(): Promise<IntradayScanReport> {
    const nowMs = marketClock.nowMs();
    const now = marketSession(nowMs);
    // Regular hours of a trading day only (the NYSE calendar; docs/rules/alerts.md §1.5).
    if (now.phase !== 'open') return { scans: 0, symbols: 0, fired: 0, failed: [], skipped: 'closed' };
    const session = now.isoDate;
    const at: IntradayMoment = { session, previousSession: isoFromDayNumber(tradingDayOnOrBefore(now.day - 1)), nowMs, maxQuoteAgeMs: deps.maxQuoteAgeMs };
    const work = await workOf(session);
    const symbols = symbolsOfPoll(work);
    const failed: string[] = [];
    const quotes = await quotesOf([...symbols], failed);
    let fired = 0;
    for (const item of work) {
      try {
        const rows = await matchesOf(item, quotes, at, now.day, failed);
        if (rows.length === 0) continue;
        const alert = await writeIntradayEntries(db, {
          rule: item.rule,
          scan: item.scan,
          session,
          day: now.day,
          rows,
          columns: item.compiled.fields.map((ref) => columnLabel(scanField(ref.field)!, ref.params)),
          source: deps.source,
          firedAt: new Date(deps.clock.nowMs()),
        });
        if (!alert) continue;
        fired += 1;
        deps.alertCommitted?.(alert);
        if (alert.channels.length > 0) deps.delivery?.kick();
      } catch (error) {
        failed.push(`scan ${item.scan.id}: ${errorText(error)}`);
      }
    }
    return { scans: work.length, symbols: symbols.size, fired, failed };
  }

  return { passOnce };
}
