// RSI over 8,000 symbols × 250 daily closes: ours (packages/core) against technicalindicators.
import { latestRsi, rsi } from '@signalboard/core';
import { RSI } from 'technicalindicators';

const SYMBOLS = 8000;
const BARS = 250;

function series(): Float64Array[] {
  let state = 12345;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4_294_967_296;
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

function best(runs: number, work: () => void): number {
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
  const plain = data.map((closes) => Array.from(closes));
  let sink = 0;
  const oursLatest = best(5, () => {
    for (const closes of data) sink += latestRsi(closes) ?? 0;
  });
  const oursFull = best(5, () => {
    for (const closes of data) sink += rsi(closes)[BARS - 1]!;
  });
  const theirs = best(2, () => {
    for (const closes of plain) {
      const out = RSI.calculate({ values: closes, period: 14 });
      sink += out[out.length - 1] ?? 0;
    }
  });
  if (Number.isNaN(sink)) throw new Error('unreachable');
  const ratio = theirs / oursLatest;
  return [
    ['RSI(14) latest, 8,000 × 250 bars', `${oursLatest.toFixed(1)} ms vs technicalindicators ${theirs.toFixed(0)} ms`, '≥ 10× faster', `${ratio.toFixed(0)}× ${ratio >= 10 ? 'ok' : 'UNDER'}`],
    ['RSI(14) full series, 8,000 × 250 bars', `${oursFull.toFixed(1)} ms`, '', `${(theirs / oursFull).toFixed(0)}× technicalindicators`],
  ];
}
