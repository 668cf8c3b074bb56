// Seeded random inputs, garbage bytes included: nothing throws (the constructor's RangeError for a
// bad mapping aside), every refusal names a line of the text, and the answer does not depend on how
// the text is cut.
import { describe, expect, it } from 'vitest';
import { detectPriceFileFormat } from './detect';
import { PriceFileParser } from './price-file-parser';
import { PriceSeriesCollector } from './price-series';
import { checkPriceSeries } from './price-series-check';
import type { PriceFileFormat, PriceFileProblem } from './types';

function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const PIECES = ['2024-01-0', '2024-02-30', '1', '2', '9', '.', ',', ';', '\t', '|', '"', '""', '\n', '\r\n', '\r', 'null', '-', ' ', 'e', '\ufeff', 'Date', 'Adj Close', 'AAPL', '0', '1,5', '12.5', '20240105', '05/01/2024'];

function randomText(random: () => number): string {
  const good = 'Date,Open,High,Low,Close,Adj Close,Volume\n2024-01-02,10,11,9,10.5,10.4,1000\n2024-01-03,10.5,11,10,10.8,10.7,900\n';
  let text = random() < 0.5 ? good : '';
  const length = Math.floor(random() * 120);
  for (let i = 0; i < length; i += 1) {
    const roll = random();
    if (roll < 0.6) text += PIECES[Math.floor(random() * PIECES.length)];
    else if (roll < 0.8) text += String.fromCharCode(Math.floor(random() * 0x80));
    else if (roll < 0.9) text += String.fromCharCode(Math.floor(random() * 0xffff));
    else {
      // A cut into a good file: a character flipped.
      const at = Math.floor(random() * text.length);
      text = text.slice(0, at) + String.fromCharCode(Math.floor(random() * 0x100)) + text.slice(at + 1);
    }
  }
  return text;
}

const FORMATS: PriceFileFormat[] = [
  { layout: 'yahoo', separator: ',', decimalComma: false, dateFormat: 'YYYY-MM-DD', header: true, mapping: { date: 0, open: 1, high: 2, low: 3, close: 4, adjClose: 5, volume: 6, symbol: null } },
  { layout: 'custom', separator: ';', decimalComma: true, dateFormat: 'DD.MM.YYYY', header: false, mapping: { date: 1, open: 2, high: 3, low: 4, close: 5, adjClose: null, volume: null, symbol: 0 } },
];

function run(text: string, format: PriceFileFormat, cut: number): { problems: PriceFileProblem[]; lines: number[]; reports: unknown[] } {
  const parser = new PriceFileParser(format, { symbol: 'FUZZ' });
  const collector = new PriceSeriesCollector();
  collector.add(parser.push(text.slice(0, cut)));
  collector.add(parser.push(text.slice(cut)));
  collector.add(parser.end());
  const reports = collector.symbols().map((symbol) => checkPriceSeries(symbol, collector.series(symbol)));
  return { problems: parser.problems, lines: collector.symbols().flatMap((symbol) => Array.from(collector.series(symbol).line)), reports };
}

describe('price files, fuzzed', () => {
  it('never throw, name a line for every refusal, and read the same however cut', () => {
    const random = generator(29);
    for (let round = 0; round < 1500; round += 1) {
      const text = randomText(random);
      const lineCount = text.split(/\r\n|\r|\n/).length;
      const detection = detectPriceFileFormat(text);
      const formats = detection.format ? [detection.format, ...FORMATS] : FORMATS;
      for (const format of formats) {
        const cut = Math.floor(random() * (text.length + 1));
        const answer = run(text, format, cut);
        expect(run(text, format, text.length)).toEqual(answer);
        const refusals = [...answer.problems, ...answer.reports.flatMap((report) => (report as { errors: PriceFileProblem[] }).errors)];
        for (const problem of refusals) {
          expect(problem.severity).toBe('error');
          expect(problem.line, problem.message).toBeGreaterThanOrEqual(1);
          expect(problem.line!, problem.message).toBeLessThanOrEqual(lineCount);
          expect(problem.message.startsWith(`Line ${problem.line}: `), problem.message).toBe(true);
        }
        for (const line of answer.lines) expect(line).toBeLessThanOrEqual(lineCount);
      }
    }
  });
});
