import type { IdeaEventRow } from '@signalboard/core';
import { describe, expect, it } from 'vitest';
import { chartLines, chartMarkers, chartPrecision, eventText, levelNotes } from './chart-model';

const event = (type: string, level: string, barDate: string, price: number | null = null): IdeaEventRow => ({
  type,
  level,
  barDate,
  price,
  data: {},
  ruleVersion: 'layered@1.0.0',
  paramHash: '0123456789abcdef',
  origin: 'live',
  recordedAt: `${barDate}T21:30:00.000Z`,
});

describe('idea chart model', () => {
  it('draws an option trade on its underlying (signal close, price now) and keeps the strike and option values as text', () => {
    const idea = { SignalPrice: 145.1, CurrentPriceStock: 148.35, Strike: 150, EntryValue: 4.2, Current_Value: 4.62, ExitValue: null };
    expect(chartLines('options', idea).map((line) => `${line.title}@${line.price}:${line.tone}`)).toEqual(['Signal close@145.1:entry', 'Underlying now@148.35:neutral']);
    expect(levelNotes('options', idea).map((note) => `${note.title}@${note.value}`)).toEqual([
      'Strike@150',
      'Option entry@4.2',
      'Option current@4.62',
      'Option target (+30%)@5.46',
      'Option stop (−50%)@2.1',
    ]);
  });

  it('draws a drop item’s entry, target (S and L only), stop and price now; an O item’s option values are text', () => {
    const stock = { StockType: 'L', StockEntryPrice: 80, TargetValue: 95, StopPrice: 56, StockCurrentPrice: 82 };
    expect(chartLines('drop', stock).map((line) => line.title)).toEqual(['Entry', 'Target', 'Stop', 'Current']);
    expect(levelNotes('drop', stock)).toEqual([]);
    const option = { StockType: 'O', StockEntryPrice: 80, TargetValue: 5.46, StockCurrentPrice: 82, OptionEntryValue: 4.2, OptionCurrentValue: 4.83, OptionExitValue: null };
    expect(chartLines('drop', option).map((line) => line.title)).toEqual(['Entry', 'Current']);
    expect(levelNotes('drop', option).map((note) => `${note.title}@${note.value}`)).toEqual(['Option entry@4.2', 'Option current@4.83', 'Option target@5.46']);
  });

  it('draws a layered plan’s entry, defined levels, stop and 30-day high; cancelled levels are left out', () => {
    const lines = chartLines('layered', { OriginalEntryPrice: 100, ENL2: 97.9, ENL3: null, ENL4: null, ENL5: null, EXL1: 104, EXL2: 107.1, StopPrice: 92.2, ThirtyDayHigh: 104 });
    expect(lines.map((line) => `${line.title}@${line.price}:${line.tone}`)).toEqual([
      'Entry@100:entry',
      'ENL2@97.9:entry',
      'EXL1@104:gain',
      'EXL2@107.1:gain',
      'Stop@92.2:loss',
      '30-day high at creation@104:neutral',
    ]);
  });

  it('draws a short-term trade’s entry, both targets, stop and support', () => {
    const lines = chartLines('swing', { EntryPrice: 50, Target1Price: 52.5, Target2Price: 55, StopPrice: 46, SupportLevel: null });
    expect(lines.map((line) => line.title)).toEqual(['Entry', 'Target 5%', 'Target 10%', 'Stop']);
  });

  it('puts a marker where each fill, hit and close happened, in time order', () => {
    const markers = chartMarkers([
      event('opened', '', '2026-11-02'),
      event('entry_filled', 'ENL1', '2026-11-03', 100),
      event('level_hit', 'ENL2', '2026-11-05', 97.9),
      event('level_hit', 'EXL1', '2026-11-12', 104),
      event('split_adjusted', '', '2026-11-13'),
      event('target_hit', 'T1', '2026-11-14', 52.5),
      event('stop_hit', 'STOP', '2026-11-17'),
      event('closed', '', '2026-11-18', 92),
    ]);
    expect(markers.map((marker) => `${marker.date} ${marker.text} ${marker.position}`)).toEqual([
      '2026-11-02 Signal belowBar',
      '2026-11-03 Entry belowBar',
      '2026-11-05 ENL2 belowBar',
      '2026-11-12 EXL1 aboveBar',
      '2026-11-14 Target 5% aboveBar',
      '2026-11-17 Stop aboveBar',
      '2026-11-18 Closed aboveBar',
    ]);
  });

  it('draws a coin’s swing level and highs in their spec §9 formats, and marks each label change in its colour', () => {
    const lines = chartLines('crypto', { SwingLevel: 0.123456, SwingKind: 'high', OneMonthHigh: 0.2, SixMonthHigh: null });
    expect(lines.map((line) => `${line.title} ${line.text} ${line.tone}`)).toEqual(['Swing high 0.1235 entry', '1M high 0.20000000 neutral']);
    const change = (barDate: string, horizon: string, from: string, to: string): IdeaEventRow => ({ ...event('signal_changed', horizon, barDate, 0.2), data: { horizon, from, to } });
    const markers = chartMarkers([change('2026-11-03', 'Short', 'Hold', 'Buy'), change('2026-11-04', 'Long', 'Buy', 'Sell'), change('2026-11-05', 'Medium', 'Sell', 'Hold')]);
    expect(markers.map((marker) => `${marker.date} ${marker.text} ${marker.tone} ${marker.position}`)).toEqual([
      '2026-11-03 Short Buy gain belowBar',
      '2026-11-04 Long Sell loss aboveBar',
      '2026-11-05 Medium Hold neutral aboveBar',
    ]);
    expect(eventText(change('2026-11-03', 'Short', 'Hold', 'Buy'))).toBe('Signal changed: Short Hold → Buy');
    expect(eventText(event('opened', '', '2026-11-02'))).toBe('Signal');
  });

  it('gives a coin’s chart scale enough decimals for its prices', () => {
    expect(chartPrecision([97000, 98000])).toBe(2);
    expect(chartPrecision([2.5, 3])).toBe(4);
    expect(chartPrecision([0.08, 0.09])).toBe(6);
    expect(chartPrecision([0.00001234])).toBe(8);
  });
});
