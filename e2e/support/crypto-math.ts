/**
 * The crypto arithmetic the Crypto Scanner spec recomputes from the pinned market, written here
 * independently of the app from docs/rules/crypto.md §3 and docs/rules/conventions.md §0.2 (TA-Lib's Wilder RSI, ATR and ADX,
 * docs/providers.md §10): the fields of a coin on its last candle, its three hysteresis signals over its
 * whole history, the label changes (the signal log), forward returns, and the spec §9 formats.
 */
import type { BarRow } from '../fixtures/market/dataset';

const N = 14;

/** RSI(14), TA-Lib: seeded with the plain means of the first 14 changes, then Wilder; per bar (NaN before 14). */
export function rsiSeries(closes: readonly number[]): number[] {
  const out = closes.map(() => Number.NaN);
  if (closes.length <= N) return out;
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= N; i += 1) {
    const change = closes[i]! - closes[i - 1]!;
    gain += Math.max(0, change) / N;
    loss += Math.max(0, -change) / N;
  }
  const value = () => (gain + loss === 0 ? 0 : (100 * gain) / (gain + loss));
  out[N] = value();
  for (let i = N + 1; i < closes.length; i += 1) {
    const change = closes[i]! - closes[i - 1]!;
    gain = (gain * (N - 1) + Math.max(0, change)) / N;
    loss = (loss * (N - 1) + Math.max(0, -change)) / N;
    out[i] = value();
  }
  return out;
}

const trueRange = (bars: readonly BarRow[], i: number) =>
  Math.max(bars[i]!.high - bars[i]!.low, Math.abs(bars[i - 1]!.close - bars[i]!.high), Math.abs(bars[i - 1]!.close - bars[i]!.low));

/** ATR(14), TA-Lib: the mean of the true ranges of bars 1–14, then Wilder; on the last bar. */
export function atr14(bars: readonly BarRow[]): number {
  let atr = 0;
  for (let i = 1; i <= N; i += 1) atr += trueRange(bars, i) / N;
  for (let i = N + 1; i < bars.length; i += 1) atr = (atr * (N - 1) + trueRange(bars, i)) / N;
  return atr;
}

/**
 * ADX(14), +DI(14), −DI(14) as TA-Lib's ta_ADX.c on the last bar: the directional movements and true
 * ranges summed over bars 1–13, then Wilder-smoothed (prev − prev/14 + today) from bar 14 on; DX from
 * bar 14, the ADX the mean of the first 14 DX (bar 27), then Wilder.
 */
export function adx14(bars: readonly BarRow[]): { adx: number; plusDi: number; minusDi: number } {
  const movement = (i: number) => {
    const up = bars[i]!.high - bars[i - 1]!.high;
    const down = bars[i - 1]!.low - bars[i]!.low;
    return { plus: up > 0 && up > down ? up : 0, minus: down > 0 && down > up ? down : 0 };
  };
  let plusDm = 0;
  let minusDm = 0;
  let tr = 0;
  for (let i = 1; i < N; i += 1) {
    const move = movement(i);
    plusDm += move.plus;
    minusDm += move.minus;
    tr += trueRange(bars, i);
  }
  let plusDi = Number.NaN;
  let minusDi = Number.NaN;
  let adx = Number.NaN;
  let dxSum = 0;
  for (let i = N; i < bars.length; i += 1) {
    const move = movement(i);
    plusDm = plusDm - plusDm / N + move.plus;
    minusDm = minusDm - minusDm / N + move.minus;
    tr = tr - tr / N + trueRange(bars, i);
    plusDi = (100 * plusDm) / tr;
    minusDi = (100 * minusDm) / tr;
    const dx = plusDi + minusDi === 0 ? 0 : (100 * Math.abs(plusDi - minusDi)) / (plusDi + minusDi);
    if (i < 2 * N - 1) dxSum += dx;
    else if (i === 2 * N - 1) adx = (dxSum + dx) / N;
    else adx = (adx * (N - 1) + dx) / N;
  }
  return { adx, plusDi, minusDi };
}

/** SMA(n) per bar (NaN before n − 1). */
export function smaSeries(closes: readonly number[], n: number): number[] {
  return closes.map((_, i) => (i < n - 1 ? Number.NaN : closes.slice(i - n + 1, i + 1).reduce((sum, close) => sum + close, 0) / n));
}

/** EMA(n) per bar, TA-Lib: seeded with the SMA of the first n closes, then k = 2/(n+1). */
export function emaSeries(closes: readonly number[], n: number): number[] {
  const out = closes.map(() => Number.NaN);
  if (closes.length < n) return out;
  let ema = closes.slice(0, n).reduce((sum, close) => sum + close, 0) / n;
  out[n - 1] = ema;
  const k = 2 / (n + 1);
  for (let i = n; i < closes.length; i += 1) {
    ema = closes[i]! * k + ema * (1 - k);
    out[i] = ema;
  }
  return out;
}

export type Label = 'Buy' | 'Sell' | 'Hold';
export type Horizon = 'Short' | 'Medium' | 'Long';
export const HORIZONS: Horizon[] = ['Short', 'Medium', 'Long'];

/** The raw signals of §3.3 on every bar (Hold where an input is missing). */
export function rawSignals(closes: readonly number[]): Record<Horizon, Label[]> {
  const ema20 = emaSeries(closes, 20);
  const sma50 = smaSeries(closes, 50);
  const sma200 = smaSeries(closes, 200);
  const rsi = rsiSeries(closes);
  const ret = (i: number, days: number) => (i >= days ? closes[i]! / closes[i - days]! - 1 : Number.NaN);
  const label = (buy: boolean, sell: boolean): Label => (buy ? 'Buy' : sell ? 'Sell' : 'Hold');
  const out: Record<Horizon, Label[]> = { Short: [], Medium: [], Long: [] };
  closes.forEach((close, i) => {
    // Comparisons with NaN are false: a missing input gives Hold.
    out.Short.push(label(close > ema20[i]! && ret(i, 7) > 0 && rsi[i]! < 70, close < ema20[i]! && ret(i, 7) < 0 && rsi[i]! > 30));
    const slope = i >= 10 ? sma50[i]! - sma50[i - 10]! : Number.NaN;
    out.Medium.push(label(close > sma50[i]! && slope > 0 && ret(i, 28) > 0, close < sma50[i]! && slope < 0 && ret(i, 28) < 0));
    out.Long.push(label(close > sma200[i]! && sma50[i]! > sma200[i]!, close < sma200[i]! && sma50[i]! < sma200[i]!));
  });
  return out;
}

/** The displayed labels (two-close hysteresis): L(t) = raw(t) if raw(t) = raw(t−1), else L(t−1); from Hold. */
export function displayedLabels(raw: readonly Label[]): Label[] {
  const out: Label[] = [];
  let current: Label = 'Hold';
  raw.forEach((label, i) => {
    if (i > 0 && label === raw[i - 1]) current = label;
    out.push(current);
  });
  return out;
}

/** 5-bar fractals: bar i is a swing low (high) if its Low (High) is strictly below (above) those of i±1 and i±2. */
function isFractal(bars: readonly BarRow[], i: number, kind: 'low' | 'high'): boolean {
  if (i < 2 || i + 2 >= bars.length) return false;
  const value = bars[i]![kind];
  return [-2, -1, 1, 2].every((k) => (kind === 'low' ? value < bars[i + k]![kind] : value > bars[i + k]![kind]));
}

/** The latest confirmed swing low and high within the last 90 candles (usable from bar i + 2), the one nearer the close. */
export function swingLevel(bars: readonly BarRow[]): { level: number; kind: 'low' | 'high' } | null {
  const t = bars.length - 1;
  const latest = (kind: 'low' | 'high') => {
    for (let i = t - 2; i >= Math.max(0, t - 89); i -= 1) if (isFractal(bars, i, kind)) return bars[i]![kind];
    return null;
  };
  const low = latest('low');
  const high = latest('high');
  const close = bars[t]!.close;
  if (low !== null && (high === null || Math.abs(close - low) <= Math.abs(close - high))) return { level: low, kind: 'low' };
  return high === null ? null : { level: high, kind: 'high' };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 === 1 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** A coin's fields on its last candle (docs/rules/crypto.md §3.1), unrounded; null where the field has no value. */
export interface CoinFields {
  currentPrice: number;
  rsi: number;
  atr: number;
  oneMonthHigh: number;
  sixMonthHigh: number | null;
  drop1m: number;
  drop6m: number | null;
  rvol: number;
  volumeLabel: 'High' | 'Elevated' | 'Normal' | 'Low';
  swing: { level: number; kind: 'low' | 'high' } | null;
  nearLevel: boolean;
  trend: string;
  signals: Record<Horizon, Label>;
  /** The last candle on which any of the three displayed labels changed. */
  lastChange: string | null;
}

export function coinFields(bars: readonly BarRow[], currentPrice: number): CoinFields {
  const t = bars.length - 1;
  const closes = bars.map((bar) => bar.close);
  const close = closes[t]!;
  const highOver = (n: number) => Math.max(...bars.slice(t - n + 1).map((bar) => bar.high));
  const oneMonthHigh = highOver(30);
  const sixMonthHigh = bars.length >= 180 ? highOver(180) : null;
  const drop = (high: number) => Math.max(0, ((high - currentPrice) / high) * 100);
  const rvol = bars[t]!.volume / median(bars.slice(t - 30, t).map((bar) => bar.volume));
  const atr = atr14(bars);
  const swing = swingLevel(bars);
  const { adx, plusDi, minusDi } = adx14(bars);
  const ema50 = emaSeries(closes, 50)[t]!;
  let trend = 'No Clear Trend';
  if (bars.length >= 60 && adx >= 25) {
    const strong = adx >= 40 ? 'Strong ' : '';
    if (plusDi > minusDi && close > ema50) trend = `${strong}Uptrend`;
    else if (minusDi > plusDi && close < ema50) trend = `${strong}Downtrend`;
  }
  const raw = rawSignals(closes);
  const labels = Object.fromEntries(HORIZONS.map((horizon) => [horizon, displayedLabels(raw[horizon])])) as Record<Horizon, Label[]>;
  let lastChange: string | null = null;
  for (let i = t; i >= 1 && lastChange === null; i -= 1) if (HORIZONS.some((horizon) => labels[horizon][i] !== labels[horizon][i - 1])) lastChange = bars[i]!.date;
  return {
    currentPrice,
    rsi: rsiSeries(closes)[t]!,
    atr,
    oneMonthHigh,
    sixMonthHigh,
    drop1m: drop(oneMonthHigh),
    drop6m: sixMonthHigh === null ? null : drop(sixMonthHigh),
    rvol,
    volumeLabel: rvol >= 2 ? 'High' : rvol >= 1.3 ? 'Elevated' : rvol >= 0.7 ? 'Normal' : 'Low',
    swing,
    nearLevel: swing !== null && Math.abs(close - swing.level) <= 0.5 * atr,
    trend,
    signals: { Short: labels.Short[t]!, Medium: labels.Medium[t]!, Long: labels.Long[t]! },
    lastChange,
  };
}

/** One change of a displayed label (docs/rules/crypto.md §3.4's log): the coin, horizon, from, to, the candle and its close. */
export interface LabelChange {
  symbol: string;
  horizon: Horizon;
  from: Label;
  to: Label;
  date: string;
  close: number;
}

/** Every change of the displayed labels on candles at or after `fromIndex` (the first candle the engine shows). */
export function labelChanges(symbol: string, bars: readonly BarRow[], fromIndex: number): LabelChange[] {
  const closes = bars.map((bar) => bar.close);
  const raw = rawSignals(closes);
  const out: LabelChange[] = [];
  for (const horizon of HORIZONS) {
    const labels = displayedLabels(raw[horizon]);
    for (let i = Math.max(1, fromIndex); i < bars.length; i += 1) {
      if (labels[i] !== labels[i - 1]) out.push({ symbol, horizon, from: labels[i - 1]!, to: labels[i]!, date: bars[i]!.date, close: closes[i]! });
    }
  }
  return out;
}

/** A value with exactly `decimals` decimals, half away from zero (spec §9 formats); 'N/A' without one. */
export function fixed(value: number | null, decimals: number): string {
  if (value === null || !Number.isFinite(value)) return 'N/A';
  const scale = 10 ** decimals;
  // The nearest representable value of the scaled number, then half away from zero.
  const scaled = Number((Math.abs(value) * scale).toPrecision(15));
  const rounded = (Math.sign(value) * Math.round(scaled)) / scale;
  return (rounded === 0 ? 0 : rounded).toFixed(decimals);
}

/** Calendar days between two YYYY-MM-DD dates. */
export const daysBetween = (from: string, to: string) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;

/** An ISO day `k` calendar days after `day`. */
export const addDays = (day: string, k: number) => new Date(Date.parse(`${day}T00:00:00Z`) + k * 86_400_000).toISOString().slice(0, 10);

const mean = (values: readonly number[]) => (values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length);

/** One (horizon, label) at k days of the scorecard, recomputed (docs/rules/crypto.md §3.4). Returns are fractions. */
export interface ScoreCell {
  days: number;
  n: number;
  pending: number;
  mean: number | null;
  wins: number;
  baseline: number | null;
  excess: number | null;
  btcN: number;
  btcMean: number | null;
  btcExcess: number | null;
}

/**
 * The signal scorecard from the label changes: per (horizon, label changed to) and k, each signal's
 * forward return close(d+k)/close(d) − 1 once d + k ≤ asOf (Sell scored with the sign flipped); the
 * baseline of each signal's coin, its mean k-day forward return over every day of the window
 * [first signal, asOf], averaged over the counted signals with their sign; BTC over each signal's window.
 */
export function recomputeScorecard(changes: readonly LabelChange[], bars: Record<string, readonly BarRow[]>, asOf: string, days: readonly number[]) {
  const closeOn = Object.fromEntries(Object.entries(bars).map(([symbol, rows]) => [symbol, new Map(rows.map((bar) => [bar.date, bar.close]))]));
  const forward = (symbol: string, day: string, k: number): number | null => {
    const later = addDays(day, k);
    if (later > asOf) return null;
    const from = closeOn[symbol]?.get(day);
    const to = closeOn[symbol]?.get(later);
    return from === undefined || to === undefined ? null : to / from - 1;
  };
  const windowFrom = changes.reduce((first, change) => (change.date < first ? change.date : first), asOf);
  const baselineCache = new Map<string, number | null>();
  const baselineOf = (symbol: string, k: number) => {
    const key = `${symbol}|${k}`;
    if (!baselineCache.has(key)) {
      const returns: number[] = [];
      for (let day = windowFrom; day <= asOf; day = addDays(day, 1)) {
        const value = forward(symbol, day, k);
        if (value !== null) returns.push(value);
      }
      baselineCache.set(key, mean(returns));
    }
    return baselineCache.get(key)!;
  };
  const groups = new Map<string, { horizon: Horizon; label: Label; signals: number; cells: ScoreCell[] }>();
  for (const horizon of HORIZONS) {
    for (const label of ['Buy', 'Sell', 'Hold'] as const) {
      const mine = changes.filter((change) => change.horizon === horizon && change.to === label);
      if (mine.length === 0) continue;
      const sign = label === 'Sell' ? -1 : 1;
      const cells = days.map((k): ScoreCell => {
        const scores: number[] = [];
        const baselines: number[] = [];
        const btc: { score: number; btc: number }[] = [];
        let pending = 0;
        for (const change of mine) {
          const value = forward(change.symbol, change.date, k);
          if (value === null) {
            pending += 1;
            continue;
          }
          const score = sign * value;
          scores.push(score);
          const baseline = baselineOf(change.symbol, k);
          if (baseline !== null) baselines.push(sign * baseline);
          const benchmark = forward('BTC', change.date, k);
          if (benchmark !== null) btc.push({ score, btc: benchmark });
        }
        const average = mean(scores);
        const baseline = mean(baselines);
        return {
          days: k,
          n: scores.length,
          pending,
          mean: average,
          wins: scores.filter((score) => score > 0).length,
          baseline,
          excess: average === null || baseline === null ? null : average - baseline,
          btcN: btc.length,
          btcMean: mean(btc.map((one) => one.btc)),
          btcExcess: mean(btc.map((one) => one.score - sign * one.btc)),
        };
      });
      groups.set(`${horizon}|${label}`, { horizon, label, signals: mine.length, cells });
    }
  }
  return { windowFrom, groups };
}
