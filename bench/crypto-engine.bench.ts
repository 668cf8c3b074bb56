// The crypto engine (crypto@1.0.0): one daily pass over the whole crypto universe — 50 coins × 500
// UTC candles (docs/rules/data-needs.md §7: ≤ 50 live coins, ~500 candles each) — continuing the replay's rows
// (the log of every earlier session folded), on fresh buffers (a cold indicator cache, as a pass that
// loads candles from the database has), with 6 scored headlines per coin. Also the install replay
// (300 sessions after the 200-candle warm-up). One core. Budgets: pass < 50 ms, replay < 2 s.
import { cryptoEngine, cryptoPassTimeOf, isoFromDayNumber, replay, type CryptoHeadline, type DailySeries, type SessionExtras, type StoredIdeaEvent, type UniverseMember } from '@signalboard/core';
import { randomCryptoUniverse } from '../packages/core/src/trades/engines/crypto/test-candles';

const COINS = 50;
const CANDLES = 500;
const WARM_UP = 200;
/** Timed runs (odd, so the median is one of them). */
const RUNS = 7;

function fresh(universe: ReadonlyMap<string, DailySeries>): Map<string, DailySeries> {
  return new Map(
    [...universe].map(([symbol, s]) => [
      symbol,
      { ...s, day: s.day.slice(), open: s.open.slice(), high: s.high.slice(), low: s.low.slice(), close: s.close.slice(), volume: s.volume.slice() },
    ]),
  );
}

function median(times: number[]): number {
  return [...times].sort((a, b) => a - b)[times.length >> 1]!;
}

/** Six headlines per coin in the 72 h before the pass. */
function extrasFor(date: string, symbols: readonly string[]): SessionExtras {
  const passMs = Date.parse(cryptoPassTimeOf(date));
  const news = new Map<string, CryptoHeadline[]>();
  for (const symbol of symbols) {
    news.set(
      symbol,
      Array.from({ length: 6 }, (_, k) => ({ url: `https://news/${symbol}/${date}/${k}`, title: `${symbol} story ${k}`, publishedAt: new Date(passMs - (k * 11 + 1) * 3_600_000).toISOString(), score: ((k % 3) - 1) * 0.4, source: 'Wire' })),
    );
  }
  return { cryptoNews: news, cryptoSentimentSource: 'lexicon' };
}

export async function run(): Promise<string[][]> {
  const universe = randomCryptoUniverse(2026, COINS, CANDLES);
  const symbols = [...universe.keys()];
  const members: UniverseMember[] = symbols.map((symbol) => ({ symbol, market: 'CRYPTO', survivorshipBiased: true }));
  const sessions = [...universe.get('BTC')!.day.subarray(WARM_UP)].map((day) => isoFromDayNumber(day));
  const replayOver = (series: Map<string, DailySeries>, range: string[], prior?: StoredIdeaEvent[]) =>
    replay(cryptoEngine, { series, sessions: range, universeFor: () => members, extras: (date) => extrasFor(date, symbols), origin: 'replayed', ...(prior ? { prior } : {}) });

  replayOver(fresh(universe), sessions);
  const replayTimes: number[] = [];
  let events: StoredIdeaEvent[] = [];
  for (let i = 0; i < 3; i += 1) {
    const series = fresh(universe);
    const start = performance.now();
    events = replayOver(series, sessions);
    replayTimes.push(performance.now() - start);
  }

  const last = sessions[sessions.length - 1]!;
  const prior = events.filter((e) => e.barDate < last);
  const passTimes: number[] = [];
  let written = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const series = fresh(universe);
    const start = performance.now();
    written = replayOver(series, [last], prior).length;
    passTimes.push(performance.now() - start);
  }
  const replayMs = median(replayTimes);
  const passMs = median(passTimes);
  return [
    [`crypto engine daily pass, ${COINS} coins × ${CANDLES} candles (${prior.length} prior events folded, ${written} written)`, `${passMs.toFixed(1)} ms median of ${RUNS}`, '< 50 ms', passMs < 50 ? 'ok' : 'OVER'],
    [`crypto engine replay, ${COINS} × ${CANDLES} candles, ${sessions.length} sessions`, `${replayMs.toFixed(0)} ms median of 3 (${events.length} events)`, '< 2,000 ms', replayMs < 2000 ? 'ok' : 'OVER'],
  ];
}
