import { DEFAULT_FAVORITE_STOCKS } from '@signalboard/core';
import { describe, expect, it } from 'vitest';
import { CRYPTOS, ETFS, GICS_SECTORS, OPTION_ALERT_TICKERS, TSX_STOCKS, UNIVERSE, US_STOCKS, universeBySymbol } from './index';

describe('the simulated market universe', () => {
  it('has the sizes the product promises', () => {
    expect(US_STOCKS.length).toBeGreaterThanOrEqual(500);
    expect(TSX_STOCKS.length).toBeGreaterThanOrEqual(50);
    expect(ETFS.map((e) => e.symbol)).toEqual(expect.arrayContaining(['SPY', 'QQQ', 'DIA', 'IWM']));
    expect(CRYPTOS.length).toBeGreaterThanOrEqual(20);
    expect(CRYPTOS.map((e) => e.symbol)).toEqual(expect.arrayContaining(['BTC', 'ETH', 'XRP', 'SOL', 'ADA', 'DOGE']));
  });

  it('lists every symbol once, with valid exchanges, sectors and numbers', () => {
    const symbols = UNIVERSE.map((entry) => entry.symbol);
    const duplicates = symbols.filter((symbol, index) => symbols.indexOf(symbol) !== index);
    expect(duplicates).toEqual([]);
    for (const entry of US_STOCKS) {
      expect(['NASDAQ', 'NYSE', 'Cboe'], entry.symbol).toContain(entry.exchange);
      expect(GICS_SECTORS, entry.symbol).toContain(entry.sector);
    }
    for (const entry of TSX_STOCKS) {
      expect(entry.symbol.endsWith('.TO'), entry.symbol).toBe(true);
      expect(entry.exchange).toBe('TSX');
      expect(GICS_SECTORS, entry.symbol).toContain(entry.sector);
    }
    for (const entry of [...ETFS, ...CRYPTOS]) expect(entry.sector, entry.symbol).toBeUndefined();
    for (const entry of UNIVERSE) {
      expect(entry.basePrice, entry.symbol).toBeGreaterThan(0);
      expect(entry.avgVolume, entry.symbol).toBeGreaterThan(0);
      expect(entry.volatility, entry.symbol).toBeGreaterThan(0.05);
      expect(entry.volatility, entry.symbol).toBeLessThanOrEqual(1.2);
      expect(entry.name.trim(), entry.symbol).not.toBe('');
    }
  });

  it('names the MAG 7 exactly as the default favourites do', () => {
    for (const favourite of DEFAULT_FAVORITE_STOCKS) {
      expect(universeBySymbol.get(favourite.symbol)?.name).toBe(favourite.description);
    }
  });

  it('covers every sector and every option-alert ticker', () => {
    for (const sector of GICS_SECTORS) {
      expect(US_STOCKS.filter((entry) => entry.sector === sector).length, sector).toBeGreaterThanOrEqual(5);
    }
    expect(OPTION_ALERT_TICKERS.length).toBe(57);
    for (const ticker of OPTION_ALERT_TICKERS) expect(universeBySymbol.has(ticker), ticker).toBe(true);
  });
});
