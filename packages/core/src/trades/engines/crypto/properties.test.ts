import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cryptoTrade } from '../../../contract/crypto-trades';
import { dayNumber, isoFromDayNumber } from '../../../market/trading-calendar';
import { replay } from '../../kit/replay';
import { indexOnOrBefore, viewThrough } from '../../kit/series';
import { seededRandom } from '../../kit/test-bars';
import { cryptoPassTimeOf } from '../../kit/times';
import { engineEvent, type DailySeries, type IdeaEvent, type StoredIdeaEvent, type UniverseMember } from '../../types';
import { cryptoEngine } from './engine';
import type { CryptoExtras, CryptoHeadline } from './extras';
import { CRYPTO_PARAMS } from './params';
import { CRYPTO_HORIZONS, cryptoIndicatorsOf, labelOf } from './series';
import { foldCrypto, foldCryptoForward, type CryptoEventData } from './state';

/** A logged event read as the crypto engine's (typed data). */
const cryptoEvent = (event: IdeaEvent) => engineEvent<CryptoEventData>(event);
import { randomCryptoUniverse } from './test-candles';

/**
 * docs/rules/track-record.md §6.5 for `crypto@1.0.0` over seeded random-walk coins (new listings warming up
 * during the replay, one coin with close-only candles, one leaving the universe, headlines known
 * at each pass with some published after it): truncation at several cut dates (no look-ahead),
 * replay = live, determinism, projection, warm-up defaults, the signal log against the labels of
 * the whole history, and simulate() running the same code.
 */

const SERIES = randomCryptoUniverse(2026, 16, 430, '2024-01-01', true);
const DAYS = SERIES.get('BTC')!.day;
const SESSIONS = [...DAYS.subarray(CRYPTO_PARAMS.replayWarmupCandles)].map((day) => isoFromDayNumber(day));
const MEMBERS: UniverseMember[] = [...SERIES.keys()].map((symbol) => ({ symbol, market: 'CRYPTO', survivorshipBiased: true }));
const REMOVED = { symbol: 'C007', on: SESSIONS[150]! };
const CLOSE_ONLY = new Set(['C008']);
const NOW = '2030-01-01T00:00:00.000Z';

/** Headlines per coin as known at the pass of `date`: a few a day, from 4 days back to 6 hours after the pass (not known yet). */
function extrasFor(date: string): CryptoExtras {
  const passMs = Date.parse(cryptoPassTimeOf(date));
  const news = new Map<string, CryptoHeadline[]>();
  const summaries = new Map<string, string>();
  for (const symbol of ['BTC', 'ETH', 'SOL']) {
    const next = seededRandom(dayNumber(date) * 31 + symbol.charCodeAt(0));
    const items: CryptoHeadline[] = [];
    for (let k = 0; k < 6; k += 1) {
      const hoursAgo = -6 + 102 * next();
      items.push({ url: `https://news/${symbol}/${k % 5}`, title: `${symbol} headline ${Math.floor(next() * 4)}`, publishedAt: new Date(passMs - hoursAgo * 3_600_000).toISOString(), score: 2 * next() - 1, source: 'Wire' });
    }
    news.set(symbol, items);
    summaries.set(symbol, `${symbol} summary for ${date}`);
  }
  return { cryptoNews: news, cryptoNewsSummaries: summaries, cryptoSentimentSource: 'lexicon', cryptoCloseOnly: CLOSE_ONLY, ...(date === REMOVED.on ? { removals: new Set([REMOVED.symbol]) } : {}) };
}

function universeFor(date: string): UniverseMember[] {
  return date >= REMOVED.on ? MEMBERS.filter((member) => member.symbol !== REMOVED.symbol) : MEMBERS;
}

function run(series: ReadonlyMap<string, DailySeries>, sessions: readonly string[], prior?: StoredIdeaEvent[]): StoredIdeaEvent[] {
  return replay(cryptoEngine, { series, sessions, universeFor, extras: extrasFor, origin: 'replayed', ...(prior ? { prior } : {}) });
}

function truncatedAt(series: ReadonlyMap<string, DailySeries>, cut: string): Map<string, DailySeries> {
  const out = new Map<string, DailySeries>();
  for (const [symbol, one] of series) {
    const end = indexOnOrBefore(one.day, dayNumber(cut));
    if (end < 0) continue;
    // Fresh buffers: the indicator cache cannot carry anything over from the full run.
    const view = viewThrough(one, end);
    out.set(symbol, { ...view, day: view.day.slice(), open: view.open.slice(), high: view.high.slice(), low: view.low.slice(), close: view.close.slice(), volume: view.volume.slice() });
  }
  return out;
}

function byIdea(events: readonly StoredIdeaEvent[]): Map<string, StoredIdeaEvent[]> {
  const out = new Map<string, StoredIdeaEvent[]>();
  for (const item of events) out.set(item.ideaId, [...(out.get(item.ideaId) ?? []), item]);
  return out;
}

describe('crypto engine over seeded random-walk coins (§6.5)', () => {
  const full = run(SERIES, SESSIONS);
  const ideas = byIdea(full);

  it('one row per coin, every row parsing with the API schema; labels of every kind change', () => {
    const rows = [...ideas.values()].map((events) => cryptoTrade.parse(cryptoEngine.fold(events, null, NOW)));
    expect(rows.map((row) => row.Symbol).sort()).toEqual([...SERIES.keys()].sort());
    const changes = full.map(cryptoEvent).flatMap((e) => (e.type === 'signal_changed' ? [e.data] : []));
    for (const horizon of CRYPTO_HORIZONS) {
      const seen = new Set(changes.filter((c) => c.horizon === horizon).map((c) => `${c.from}>${c.to}`));
      expect(seen.size, horizon).toBeGreaterThanOrEqual(4);
    }
    for (const row of rows) expect(row).toMatchObject({ RuleVersion: 'crypto@1.0.0', ParamHash: cryptoEngine.paramHash, Origin: 'replayed', Market: 'CRYPTO' });
    const snapshots = full.map(cryptoEvent).flatMap((e) => (e.type === 'updated' ? [e.data] : []));
    expect(new Set(snapshots.map((snap) => snap.trend))).toEqual(new Set(['Uptrend', 'Strong Uptrend', 'Downtrend', 'Strong Downtrend', 'No Clear Trend']));
    expect(new Set(snapshots.map((snap) => snap.sentiment))).toEqual(new Set(['Positive', 'Negative', 'Neutral', 'Insufficient']));
    expect(new Set(snapshots.map((snap) => snap.isSwingLevel))).toEqual(new Set(['1', '0']));
    expect(new Set(snapshots.map((snap) => snap.volumeLabel))).toEqual(new Set(['High', 'Elevated', 'Normal', 'Low']));
    // The close-only coin shows its range fields' defaults and says why; the removed coin's row is closed.
    const closeOnly = rows.find((row) => row.Symbol === 'C008')!;
    expect(closeOnly).toMatchObject({ ATR_14_Day: null, OneMonthHigh: null, SwingLevel: null, Trend: 'No Clear Trend' });
    expect(closeOnly.Unavailable.some((u) => u.code === 'close_only')).toBe(true);
    expect(rows.find((row) => row.Symbol === REMOVED.symbol)).toMatchObject({ IsActive: false, CloseReason: 'index_exit' });
  });

  it('truncation: a run on history cut at c gives byte-identical events dated ≤ c (7 cut dates)', () => {
    for (const cutIndex of [0, 1, 37, 100, 150, 181, SESSIONS.length - 1]) {
      const cut = SESSIONS[cutIndex]!;
      const short = run(truncatedAt(SERIES, cut), SESSIONS.slice(0, cutIndex + 1));
      expect(JSON.stringify(short)).toBe(JSON.stringify(full.filter((item) => item.barDate <= cut)));
    }
  });

  it('truncation holds for any seed and cut (fast-check over small universes)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 59 }), (seed, cutIndex) => {
        const series = randomCryptoUniverse(seed, 4, 260, '2024-03-01', true);
        const members: UniverseMember[] = [...series.keys()].map((symbol) => ({ symbol, market: 'CRYPTO', survivorshipBiased: false }));
        const sessions = [...series.get('BTC')!.day.subarray(200)].map((day) => isoFromDayNumber(day));
        const go = (s: ReadonlyMap<string, DailySeries>, range: string[]) => replay(cryptoEngine, { series: s, sessions: range, universeFor: () => members, extras: extrasFor, origin: 'replayed' });
        const all = go(series, sessions);
        const cut = sessions[cutIndex]!;
        expect(JSON.stringify(go(truncatedAt(series, cut), sessions.slice(0, cutIndex + 1)))).toBe(JSON.stringify(all.filter((item) => item.barDate <= cut)));
      }),
      { numRuns: 8, seed: 13 },
    );
  });

  it('replay = live: session by session, folding the log in between, gives the same events', () => {
    const live: StoredIdeaEvent[] = [];
    for (const session of SESSIONS) live.push(...run(SERIES, [session], live));
    expect(JSON.stringify(live)).toBe(JSON.stringify(full));
  });

  it('determinism: the same inputs give the same events (fresh buffers, cold cache)', () => {
    expect(JSON.stringify(run(truncatedAt(SERIES, SESSIONS.at(-1)!), SESSIONS))).toBe(JSON.stringify(full));
  });

  it('projection: rows are the fold of the events; folding any prefix gives the row of that pass', () => {
    for (const events of ideas.values()) {
      const closed = events.some((item) => item.type === 'closed');
      expect(cryptoEngine.openState(events) === null).toBe(closed);
      expect(cryptoEngine.outcome(events, cryptoEngine.fold(events, null, NOW))).toBeNull();
      // The row after each pass shows that pass's candle and the labels the log had then; the fold
      // that skips ahead (foldCrypto) equals the forward fold on every prefix.
      for (let i = 1; i <= events.length; i += 1) {
        expect(foldCrypto(events.slice(0, i))).toEqual(foldCryptoForward(events.slice(0, i)));
        const item = cryptoEvent(events[i - 1]!);
        if (item.type !== 'updated' && item.type !== 'opened') continue;
        const row = cryptoEngine.fold(events.slice(0, i), null, NOW);
        const snap = item.data;
        expect(row.CandleDate).toBe(item.barDate);
        expect([row.ShortTermSignal, row.MediumTermSignal, row.LongTermSignal]).toEqual([snap.signals.Short, snap.signals.Medium, snap.signals.Long]);
      }
    }
  });

  it('warm-up: no row before 30 candles; fields keep their defaults until warm', () => {
    for (const item of full.map(cryptoEvent)) {
      if (item.type !== 'opened' && item.type !== 'updated') continue;
      const snap = item.data;
      expect(snap.candles).toBeGreaterThanOrEqual(30);
      if (snap.candles < 180) expect(snap.sixMonthHigh).toBeNull();
      if (snap.candles < 31) expect(snap.volumeLevel).toBeNull();
      if (snap.candles < 60) expect(snap.trend).toBe('No Clear Trend');
      // SMA50 and its value 10 candles back exist from candle 60; SMA200 from candle 200; two closes each.
      if (snap.candles <= 60) expect(snap.signals.Medium).toBe('Hold');
      if (snap.candles <= 200) expect(snap.signals.Long).toBe('Hold');
    }
    // New listings open on their 30th candle.
    for (const events of ideas.values()) {
      const opened = events[0]!;
      const series = SERIES.get(opened.symbol)!;
      if (dayNumber(opened.barDate) > dayNumber(SESSIONS[0]!)) expect(indexOnOrBefore(series.day, dayNumber(opened.barDate))).toBe(29);
    }
  });

  it('the signal log chains (from = the previous to) and follows the labels of the whole history', () => {
    for (const events of ideas.values()) {
      const series = SERIES.get(events[0]!.symbol)!;
      const labels = cryptoIndicatorsOf(series, CRYPTO_PARAMS).label;
      const first = cryptoEvent(events[0]!);
      if (first.type !== 'opened') throw new Error(`a coin's first event is opened, not ${first.type}`);
      const current = { ...first.data.signals };
      for (const item of events.map(cryptoEvent)) {
        const t = indexOnOrBefore(series.day, dayNumber(item.barDate));
        if (item.type === 'signal_changed') {
          const data = item.data;
          expect(data.from).toBe(current[data.horizon]);
          expect(data.to).toBe(labelOf(labels[data.horizon][t]!));
          expect(item.price).toBe(series.close[t]);
          current[data.horizon] = data.to;
        }
        if (item.type === 'updated') for (const horizon of CRYPTO_HORIZONS) expect(current[horizon]).toBe(labelOf(labels[horizon][t]!));
      }
    }
  });

  it('simulate() forced on a coin’s opening candle runs the same code as the engine', () => {
    const plain = replay(cryptoEngine, { series: SERIES, sessions: SESSIONS, universeFor: () => MEMBERS, origin: 'replayed' });
    const strip = (list: readonly { type: string; level: string; barDate: string; price: number | null; data: Record<string, unknown> }[]) =>
      list.map(({ type, level, barDate, price, data }) => ({ type, level, barDate, price, data: type === 'opened' ? { ...data, createdAt: '', survivorshipBiased: false } : data }));
    let compared = 0;
    for (const events of byIdea(plain).values()) {
      const opened = events[0]!;
      const series = SERIES.get(opened.symbol)!;
      const simulated = cryptoEngine.simulate({ params: CRYPTO_PARAMS, series, signalIndex: indexOnOrBefore(series.day, dayNumber(opened.barDate)), ideaId: opened.ideaId });
      expect(strip(simulated)).toEqual(strip(events));
      compared += 1;
    }
    expect(compared).toBe(SERIES.size);
  });
});
