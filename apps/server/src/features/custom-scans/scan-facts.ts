/**
 * What a custom scan knows of a symbol besides its bars (ScanFacts, docs/custom-scans.md "Running a
 * scan"), read only for the facts the scan's fields use, as of the run date:
 * - sector and exchange: the source's listing (scan-universe.ts); a symbol on no list of the source
 *   (a favourite) is asked for its profile;
 * - days_to_earnings: one earnings calendar call for the run date .. EARNINGS_HORIZON_DAYS after it;
 * - news_sentiment: the symbol's company news dated from NEWS_DAYS calendar days before the run date
 *   through the run date, each article rated by core's lexicon (bullishBearish, as the live source
 *   rates its news for its own sentiment), bullish minus bearish.
 * A fact that cannot be read (the provider fails, the source lacks it) is missing: a condition on it
 * is no match, and the run goes on. Each fact is one entry of FACT_READERS: a missing one is a type error.
 */
import { bullishBearish, dayNumber, isoFromDayNumber, scanField, type FieldRef, type FieldSpec, type ScanFacts } from '@signalboard/core';
import { settleInCompletionOrder } from '../../lib/completion-order';
import { failureReason, type ScanLog } from '../../lib/scan-failure';
import type { CachedMarket } from '../../providers/market/cached-market';
import type { EarningsEvent } from '../../providers/market/types';
import type { ScanMember } from './scan-universe';

/** Calendar days after the run date the earnings calendar is read for: a full quarter and a month (quarterly reports can be more than 90 days apart). */
export const EARNINGS_HORIZON_DAYS = 120;
/** Calendar days before the run date whose news news_sentiment counts (and the run date's), the window the sources' own sentiment reads. */
export const NEWS_DAYS = 7;

type FactSource = Exclude<FieldSpec['source'], 'bars'>;

export interface FactsContext {
  market: Pick<CachedMarket, 'getEarningsCalendar' | 'getCompanyNews' | 'getProfile'>;
  /** The symbols evaluated (with bars as of the run date). */
  members: readonly ScanMember[];
  /** The run date, a day number (days since 1970-01-01). */
  runDay: number;
  /** Provider calls per symbol at once. */
  concurrency: number;
  log: ScanLog;
}

/** Reads one fact of every member into `facts` (a symbol it cannot read is left without it). */
type FactReader = (context: FactsContext, facts: Map<string, ScanFacts>, profile: (symbol: string) => Promise<ListingFacts>) => Promise<void>;

interface ListingFacts {
  sector: string | null;
  exchange: string | null;
}

/** The facts a scan reads: the sources of its fields other than the bars. */
export function factSourcesOf(fields: readonly FieldRef[]): Set<FactSource> {
  const sources = new Set<FactSource>();
  for (const ref of fields) {
    const source = scanField(ref.field)?.source;
    if (source && source !== 'bars') sources.add(source);
  }
  return sources;
}

/** Logs a fact that could not be read (a provider problem: warn; a bug: error); the fact is then missing. */
function logFailure(log: ScanLog, fact: FactSource, symbol: string | null, error: unknown): void {
  const reason = failureReason(error);
  if (reason.log === 'warn') log.warn({ fact, symbol, err: error }, 'custom scan: a fact is unavailable (no match on it)');
  if (reason.log === 'error') log.error({ fact, symbol, err: error }, 'custom scan: reading a fact failed unexpectedly (no match on it)');
}

/** `read` for each of `members`, at most `concurrency` at once; a failure is logged and leaves the member without the fact. */
async function perSymbol<R>(
  { concurrency, log }: FactsContext,
  fact: FactSource,
  members: readonly ScanMember[],
  read: (member: ScanMember) => Promise<R>,
  write: (facts: ScanFacts, value: R) => void,
  facts: Map<string, ScanFacts>,
): Promise<void> {
  let logged = 0;
  for await (const outcome of settleInCompletionOrder(members, concurrency, read)) {
    if (outcome.ok) write(facts.get(outcome.item.symbol)!, outcome.value);
    // The first few failures are enough to act on; a provider that is down fails every symbol.
    else if (logged++ < 3) logFailure(log, fact, outcome.item.symbol, outcome.error);
  }
}

/** Sector or exchange: the source's listing, else (a symbol on none of its lists) the symbol's profile. */
const listingReader =
  (fact: 'sector' | 'exchange'): FactReader =>
  async (context, facts, profile) => {
    const unlisted: ScanMember[] = [];
    for (const member of context.members) {
      if (member.listed) facts.get(member.symbol)![fact] = member[fact];
      else unlisted.push(member);
    }
    await perSymbol(context, fact, unlisted, (member) => profile(member.symbol), (into, value) => (into[fact] = value[fact]), facts);
  };

/** The earliest date of each symbol (upper case) in the calendar. */
function firstDates(events: readonly EarningsEvent[]): Map<string, string> {
  const first = new Map<string, string>();
  for (const event of events) {
    const symbol = event.symbol.toUpperCase();
    const known = first.get(symbol);
    if (known === undefined || event.date < known) first.set(symbol, event.date);
  }
  return first;
}

const FACT_READERS: Record<FactSource, FactReader> = {
  sector: listingReader('sector'),
  exchange: listingReader('exchange'),

  async earnings({ market, members, runDay, log }, facts) {
    const events = await market.getEarningsCalendar(isoFromDayNumber(runDay), isoFromDayNumber(runDay + EARNINGS_HORIZON_DAYS)).then(
      (cached) => cached.value,
      (error: unknown) => {
        logFailure(log, 'earnings', null, error);
        return null;
      },
    );
    if (!events) return;
    const first = firstDates(events);
    for (const { symbol } of members) {
      const date = first.get(symbol.toUpperCase());
      const days = date === undefined ? Number.NaN : dayNumber(date) - runDay;
      // The calendar was asked from the run date on; a row dated earlier (a lax source) does not count.
      if (days >= 0) facts.get(symbol)!.daysToEarnings = days;
    }
  },

  async news(context, facts) {
    const from = isoFromDayNumber(context.runDay - NEWS_DAYS);
    const to = isoFromDayNumber(context.runDay);
    const read = async ({ symbol }: ScanMember) => {
      const articles = (await context.market.getCompanyNews(symbol, from, to)).value;
      const { bullishPercent, bearishPercent, rated } = bullishBearish(articles.map((article) => `${article.headline}. ${article.summary}`));
      // bullishBearish answers fractions of the rated articles (0.5 / 0.5 when none is): back to counts.
      return rated === 0 ? 0 : Math.round((bullishPercent - bearishPercent) * rated);
    };
    await perSymbol(context, 'news', context.members, read, (into, value) => (into.newsSentiment = value), facts);
  },
};

/**
 * The facts of every member the scan's fields read (an empty object per member when it reads
 * none). Never throws on the market: what cannot be read is missing.
 */
export async function readScanFacts(sources: ReadonlySet<FactSource>, context: FactsContext): Promise<Map<string, ScanFacts>> {
  const facts = new Map<string, ScanFacts>(context.members.map((member) => [member.symbol, {}]));
  // A symbol on none of the source's lists is asked for its profile once, whichever listing fact reads it.
  const profiles = new Map<string, Promise<ListingFacts>>();
  const profile = (symbol: string): Promise<ListingFacts> => {
    let answer = profiles.get(symbol);
    if (!answer) {
      answer = context.market.getProfile(symbol).then(({ value }) => ({ sector: value.sector ?? null, exchange: value.exchange || null }));
      profiles.set(symbol, answer);
    }
    return answer;
  };
  await Promise.all([...sources].map((source) => FACT_READERS[source](context, facts, profile)));
  return facts;
}
