import { describe, expect, it } from 'vitest';
import { DROP_VIEW } from './drop-items-view';

describe('drop items engine view', () => {
  it('draws a drop item’s entry, target (S and L only), stop and price now; an O item’s option values are text', () => {
    const stock = { StockType: 'L', StockEntryPrice: 80, TargetValue: 95, StopPrice: 56, StockCurrentPrice: 82 };
    expect(DROP_VIEW.chartLines(stock).map((line) => line.title)).toEqual(['Entry', 'Target', 'Stop', 'Current']);
    expect(DROP_VIEW.levelNotes(stock)).toEqual([]);
    const option = { StockType: 'O', StockEntryPrice: 80, TargetValue: 5.46, StockCurrentPrice: 82, OptionEntryValue: 4.2, OptionCurrentValue: 4.83, OptionExitValue: null };
    expect(DROP_VIEW.chartLines(option).map((line) => line.title)).toEqual(['Entry', 'Current']);
    expect(DROP_VIEW.levelNotes(option).map((note) => `${note.title}@${note.value}`)).toEqual(['Option entry@4.2', 'Option current@4.83', 'Option target@5.46']);
  });
});
