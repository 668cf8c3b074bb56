// RSI(14) over 8,000 symbols × 250 daily closes: ours (packages/core) against technicalindicators.
// Budget (the scans): latestRsi at least 10× faster than technicalindicators' RSI.calculate.
import { latestRsi, rsi } from '@signalboard/core';
import { RSI } from 'technicalindicators';

const SYMBOLS = 8000;
const BARS = 250;
const PERIOD = 14;
const RUNS = 3;

/** Seeded random walks (mulberry32): prices 20–420, ±2.5 % a day. */
function series(): Float64Array[] {
  let state = 12345;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return Array.from({ length: SYMBOLS }, () => {
    const closes = new Float64Array(BARS);
    let price = 20 + next() * 400;
    for (let i = 0; i < BARS; i += 1) {
      price *= 1 + (next() - 0.5) * 0.05;
      closes[i] = price;
    }
    return closes;
  });
}

/** Best wall time of `runs` runs, in milliseconds (the first run also warms the JIT). */
function bestMs(runs: number, work: () => void): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    work();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

export async function run(): Promise<string[][]> {
  const data = series();
  // technicalindicators is documented for number[]; it gets plain-array copies of the same closes,
  // made outside the timing.
  const plain = data.map((closes) => Array.from(closes));
  let sink = 0;
  const oursLatestMs = bestMs(RUNS, () => {
    for (const closes of data) sink += latestRsi(closes, PERIOD) ?? 0;
  });
  const oursFullMs = bestMs(RUNS, () => {
    for (const closes of data) sink += rsi(closes, PERIOD)[BARS - 1]!;
  });
  const theirsMs = bestMs(RUNS, () => {
    for (const closes of plain) {
      const out = RSI.calculate({ values: closes, period: PERIOD });
      sink += out[out.length - 1] ?? 0;
    }
  });
  if (Number.isNaN(sink)) throw new Error('RSI answered NaN');
  const verdict = (ratio: number) => `${ratio.toFixed(1)}× ${ratio >= 10 ? 'ok' : 'UNDER'}`;
  return [
    [
      'RSI(14), 8,000 × 250 bars',
      `${oursLatestMs.toFixed(1)} ms vs technicalindicators ${theirsMs.toFixed(0)} ms`,
      '≥ 10× faster',
      verdict(theirsMs / oursLatestMs),
    ],
    [
      'RSI(14) full series rsi(), 8,000 × 250 bars',
      `${oursFullMs.toFixed(1)} ms vs technicalindicators ${theirsMs.toFixed(0)} ms`,
      '≥ 10× faster',
      verdict(theirsMs / oursFullMs),
    ],
  ];
}
