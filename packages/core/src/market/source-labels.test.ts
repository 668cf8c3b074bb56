import { describe, expect, it } from 'vitest';
import { figureSourceLabel, importedMarkerName, importedSourceLabel, marketSourceLabel } from './source-labels';

describe('source labels', () => {
  it('names the source, and adds imported prices for figures from imported files', () => {
    expect(marketSourceLabel('simulated')).toBe('Simulated market');
    expect(marketSourceLabel('live')).toBe('Live market data');
    expect(marketSourceLabel('elsewhere')).toBe('elsewhere');
    expect(figureSourceLabel('simulated', false)).toBe('Simulated market');
    expect(figureSourceLabel('file', true)).toBe('Dataset, imported prices');
    expect(figureSourceLabel('simulated', 0)).toBe('Simulated market');
    expect(figureSourceLabel('simulated', 1)).toBe('Simulated market, imported prices for 1 symbol');
    expect(figureSourceLabel('live', 3)).toBe('Live market data, imported prices for 3 symbols');
    expect(importedMarkerName('ZZSPLT')).toBe('ZZSPLT: imported prices');
    expect(importedSourceLabel('Simulated market')).toBe('Simulated market, imported prices');
    expect(importedSourceLabel(importedSourceLabel('Dataset'))).toBe('Dataset, imported prices');
  });

  it('keeps the longest per-figure label within the 40 characters an SMS gives a source', () => {
    for (const source of ['simulated', 'file', 'live']) expect(figureSourceLabel(source, true).length).toBeLessThanOrEqual(40);
  });
});
