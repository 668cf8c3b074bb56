import type { IdeaEventRow } from '@signalboard/core';
import { describe, expect, it } from 'vitest';
import { chartMarkers, chartPrecision, eventText } from './chart-model';

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

// Each engine's lines and level notes are its screen configuration's (EngineView): tested beside it,
// in features/<screen>/<name>-view.test.ts.
describe('idea chart model', () => {
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

  // A coin's swing level and highs in their spec §9 formats: features/crypto/crypto-view.test.ts.
  it('marks each of a coin’s label changes in its colour', () => {
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
