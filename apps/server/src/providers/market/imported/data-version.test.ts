import { describe, expect, it } from 'vitest';
import { currentDataVersion, dataVersionOf } from './data-version';

describe('dataVersionOf', () => {
  const digests = new Map([
    ['GOOG', 'a'.repeat(32)],
    ['ZZIMP', 'b'.repeat(32)],
  ]);

  it('is empty when no symbol of the run is imported', () => {
    expect(dataVersionOf(['AAPL', 'MSFT'], digests)).toBe('');
    expect(dataVersionOf([], digests)).toBe('');
  });

  it('names the imported bars the run reads, whatever their order or repeats', () => {
    const version = dataVersionOf(['AAPL', 'GOOG', 'ZZIMP'], digests);
    expect(version).toMatch(/^[0-9a-f]{8}$/);
    expect(dataVersionOf(['ZZIMP', 'GOOG', 'GOOG', 'MSFT'], digests)).toBe(version);
  });

  it('changes with a symbol\'s bars, and with the imported symbols the run holds', () => {
    const version = dataVersionOf(['GOOG', 'ZZIMP'], digests);
    expect(dataVersionOf(['GOOG', 'ZZIMP'], new Map([...digests, ['GOOG', 'c'.repeat(32)]]))).not.toBe(version);
    expect(dataVersionOf(['GOOG'], digests)).not.toBe(version);
  });

  it('is empty on a market without imported prices', async () => {
    expect(await currentDataVersion({}, ['GOOG'])).toBe('');
    expect(await currentDataVersion({ importedDigests: async () => digests }, ['GOOG'])).toBe(dataVersionOf(['GOOG'], digests));
  });
});
