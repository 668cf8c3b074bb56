import { describe, expect, it } from 'vitest';
import { lookupExchange, mergeSuggestions, searchTerm } from './symbol-suggestions';

describe('symbol suggestions (spec §5)', () => {
  it('asks the lookup for TO with Search Canadian Stocks, else US', () => {
    expect(lookupExchange(true)).toBe('TO');
    expect(lookupExchange(false)).toBe('US');
  });

  it('treats whitespace-only input as empty', () => {
    expect(searchTerm('   ')).toBe('');
    expect(searchTerm('  shop ')).toBe('shop');
  });

  it('puts lookup matches first, keeps search matches from the United States and Canada only, each symbol once', () => {
    const merged = mergeSuggestions(
      [
        { symbol: 'SHOP.TO', description: 'Shopify Inc.', exchange: 'TSX' },
        { symbol: 'RY.TO', description: 'Royal Bank of Canada', exchange: 'TSX' },
      ],
      [
        { symbol: 'SHOP', instrument_name: 'Shopify Inc.', country: 'United States', exchange: 'NYSE' },
        { symbol: 'SHOP.TO', instrument_name: 'Shopify Inc (search)', country: 'Canada', exchange: 'TSX' },
        { symbol: 'SHP', instrument_name: 'Shopping Centres Ltd', country: 'Australia', exchange: 'ASX' },
        { symbol: 'BTC', instrument_name: 'Bitcoin', country: 'Global', exchange: 'Crypto' },
        { symbol: 'shop.to', instrument_name: 'lower-case duplicate', country: 'Canada', exchange: 'TSX' },
      ],
    );
    expect(merged).toEqual([
      { symbol: 'SHOP.TO', description: 'Shopify Inc.' },
      { symbol: 'RY.TO', description: 'Royal Bank of Canada' },
      { symbol: 'SHOP', description: 'Shopify Inc.' },
    ]);
  });

  it('works with only one of the two answers', () => {
    expect(mergeSuggestions(undefined, [{ symbol: 'MSFT', instrument_name: 'Microsoft Corporation', country: 'United States', exchange: 'NASDAQ' }])).toEqual([
      { symbol: 'MSFT', description: 'Microsoft Corporation' },
    ]);
    expect(mergeSuggestions([{ symbol: 'MSFT', description: 'Microsoft Corporation', exchange: 'NASDAQ' }], undefined)).toEqual([
      { symbol: 'MSFT', description: 'Microsoft Corporation' },
    ]);
    expect(mergeSuggestions(undefined, undefined)).toEqual([]);
  });
});
