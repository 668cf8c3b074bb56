import { CRYPTOS } from './crypto';
import { ETFS } from './etfs';
import { TSX_STOCKS } from './tsx-stocks';
import type { UniverseEntry } from './types';
import { US_STOCKS_A } from './us-stocks-a';
import { US_STOCKS_B } from './us-stocks-b';
import { US_STOCKS_C } from './us-stocks-c';

export { GICS_SECTORS, type GicsSector, type UniverseEntry } from './types';
export { OPTION_ALERT_TICKERS } from './option-alert-tickers';
export { CRYPTOS, ETFS, TSX_STOCKS };

/** About 500 of the largest US companies (S&P 500 members), with GICS sectors. */
export const US_STOCKS: readonly UniverseEntry[] = [...US_STOCKS_A, ...US_STOCKS_B, ...US_STOCKS_C];

/** Everything the simulated market trades. */
export const UNIVERSE: readonly UniverseEntry[] = [...US_STOCKS, ...TSX_STOCKS, ...ETFS, ...CRYPTOS];

export const universeBySymbol: ReadonlyMap<string, UniverseEntry> = new Map(UNIVERSE.map((entry) => [entry.symbol, entry]));
