import { describe, expect, it } from 'vitest';
import { ALWAYS_INCLUDED_CRYPTOS, cryptoExclusionReason, cryptoUniverse, isCryptoMember } from './universe';

describe('crypto universe (docs/rules/crypto.md §3.1): the source’s coins minus stablecoins and wrapped or staked tokens', () => {
  it('drops stablecoins and wrapped/staked tokens by list, ticker shape and name; keeps the rest in order', () => {
    const listing = [
      { symbol: 'BTC', name: 'Bitcoin' },
      { symbol: 'USDT', name: 'Tether' },
      { symbol: 'LINK', name: 'Chainlink' },
      { symbol: 'USDC', name: 'USD Coin' },
      { symbol: 'WBTC', name: 'Wrapped Bitcoin' },
      { symbol: 'STETH', name: 'Lido Staked Ether' },
      { symbol: 'wsteth' },
      { symbol: 'FDUSD' },
      { symbol: 'NEWUSD' },
      { symbol: 'CBBTC' },
      { symbol: 'JITOSOL', name: 'Jito Staked SOL' },
      { symbol: 'XYZ', name: 'Bridged Something' },
      { symbol: 'ABC', name: 'Some Dollar' },
      { symbol: 'link', name: 'Chainlink again' },
      { symbol: 'SHIB', name: 'Shiba Inu' },
      { symbol: 'WIF', name: 'dogwifhat' },
    ];
    const universe = cryptoUniverse(listing, true);
    expect(universe.map((m) => m.symbol)).toEqual(['BTC', 'LINK', 'SHIB', 'WIF', 'ETH', 'XRP', 'SOL', 'ADA', 'DOGE']);
    expect(universe.every((m) => m.market === 'CRYPTO' && m.survivorshipBiased)).toBe(true);
  });

  it('says why a symbol is left out', () => {
    expect(cryptoExclusionReason('USDT')).toBe('stablecoin');
    expect(cryptoExclusionReason('WETH')).toBe('wrapped or staked token');
    expect(cryptoExclusionReason('PYUSD')).toBe('stablecoin');
    expect(cryptoExclusionReason('USDQ')).toBe('stablecoin (pegged ticker)');
    expect(cryptoExclusionReason('STSUI')).toBe('wrapped or staked token (derived ticker)');
    expect(cryptoExclusionReason('XYZ', 'Wrapped XYZ')).toBe('excluded by name: Wrapped XYZ');
    expect(cryptoExclusionReason('AVAX', 'Avalanche')).toBeNull();
  });

  it('always includes BTC, ETH, XRP, SOL, ADA and DOGE, even named like an excluded token', () => {
    expect(ALWAYS_INCLUDED_CRYPTOS).toEqual(['BTC', 'ETH', 'XRP', 'SOL', 'ADA', 'DOGE']);
    for (const symbol of ALWAYS_INCLUDED_CRYPTOS) expect(cryptoExclusionReason(symbol, 'Wrapped stablecoin dollar')).toBeNull();
    expect(cryptoUniverse([], false).map((m) => m.symbol)).toEqual(ALWAYS_INCLUDED_CRYPTOS);
  });

  it('the engine runs CRYPTO members only: a stock ticker equal to a coin’s is not one', () => {
    expect(isCryptoMember({ symbol: 'SOL', market: 'CRYPTO' })).toBe(true);
    expect(isCryptoMember({ symbol: 'SOL', market: 'US' })).toBe(false);
    expect(isCryptoMember({ symbol: 'USDC', market: 'CRYPTO' })).toBe(false);
  });
});
