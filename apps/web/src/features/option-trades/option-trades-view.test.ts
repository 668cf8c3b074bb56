import { describe, expect, it } from 'vitest';
import { OPTIONS_VIEW } from './option-trades-view';

describe('option trades engine view', () => {
  it('draws an option trade on its underlying (signal close, price now) and keeps the strike and option values as text', () => {
    const idea = { SignalPrice: 145.1, CurrentPriceStock: 148.35, Strike: 150, EntryValue: 4.2, Current_Value: 4.62, ExitValue: null };
    expect(OPTIONS_VIEW.chartLines(idea).map((line) => `${line.title}@${line.price}:${line.tone}`)).toEqual(['Signal close@145.1:entry', 'Underlying now@148.35:neutral']);
    expect(OPTIONS_VIEW.levelNotes(idea).map((note) => `${note.title}@${note.value}`)).toEqual([
      'Strike@150',
      'Option entry@4.2',
      'Option current@4.62',
      'Option target (+30%)@5.46',
      'Option stop (−50%)@2.1',
    ]);
  });
});
