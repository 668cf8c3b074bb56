import { describe, expect, it } from 'vitest';
import { LAYERED_VIEW } from './long-term-view';

describe('long-term (layered) engine view', () => {
  it('draws a layered plan’s entry, defined levels, stop and 30-day high; cancelled levels are left out', () => {
    const lines = LAYERED_VIEW.chartLines({ OriginalEntryPrice: 100, ENL2: 97.9, ENL3: null, ENL4: null, ENL5: null, EXL1: 104, EXL2: 107.1, StopPrice: 92.2, ThirtyDayHigh: 104 });
    expect(lines.map((line) => `${line.title}@${line.price}:${line.tone}`)).toEqual([
      'Entry@100:entry',
      'ENL2@97.9:entry',
      'EXL1@104:gain',
      'EXL2@107.1:gain',
      'Stop@92.2:loss',
      '30-day high at creation@104:neutral',
    ]);
  });
});
