export const GICS_SECTORS = [
  'Communication Services',
  'Consumer Discretionary',
  'Consumer Staples',
  'Energy',
  'Financials',
  'Health Care',
  'Industrials',
  'Information Technology',
  'Materials',
  'Real Estate',
  'Utilities',
] as const;

export type GicsSector = (typeof GICS_SECTORS)[number];

export interface UniverseEntry {
  symbol: string;
  name: string;
  exchange: 'NASDAQ' | 'NYSE' | 'NYSE Arca' | 'Cboe' | 'TSX' | 'Crypto';
  sector?: GicsSector;
  industry?: string;
  /** A realistic recent price in the listing currency (USD, CAD for TSX). */
  basePrice: number;
  /** A realistic average daily volume (shares, or coins for crypto). */
  avgVolume: number;
  /** Annualised volatility as a fraction (0.25 = 25 %). */
  volatility: number;
}

const SECTOR_CODES: Record<string, GicsSector> = {
  CS: 'Communication Services',
  CD: 'Consumer Discretionary',
  ST: 'Consumer Staples',
  EN: 'Energy',
  FN: 'Financials',
  HC: 'Health Care',
  IN: 'Industrials',
  IT: 'Information Technology',
  MT: 'Materials',
  RE: 'Real Estate',
  UT: 'Utilities',
};

const EXCHANGE_CODES: Record<string, UniverseEntry['exchange']> = {
  Q: 'NASDAQ',
  N: 'NYSE',
  A: 'NYSE Arca',
  C: 'Cboe',
  T: 'TSX',
  X: 'Crypto',
};

/**
 * Parses the compact data lines of this folder:
 * `SYMBOL|Name|exchange code|sector code|industry|price|average volume in millions|volatility`.
 * Exchange codes: Q NASDAQ, N NYSE, A NYSE Arca, C Cboe, T TSX, X crypto; sector codes in SECTOR_CODES
 * (empty for ETFs and crypto).
 */
export function parseUniverse(lines: string): UniverseEntry[] {
  return lines
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [symbol, name, exchange, sector, industry, price, volumeMillions, volatility] = line.split('|');
      const entry: UniverseEntry = {
        symbol: symbol!,
        name: name!,
        exchange: EXCHANGE_CODES[exchange!]!,
        basePrice: Number(price),
        avgVolume: Math.round(Number(volumeMillions) * 1_000_000),
        volatility: Number(volatility),
      };
      if (!entry.exchange || !Number.isFinite(entry.basePrice) || !Number.isFinite(entry.avgVolume) || !Number.isFinite(entry.volatility)) {
        throw new Error(`Bad universe line: ${line}`);
      }
      if (sector) {
        const gics = SECTOR_CODES[sector];
        if (!gics) throw new Error(`Bad sector code in: ${line}`);
        entry.sector = gics;
      }
      if (industry) entry.industry = industry;
      return entry;
    });
}
