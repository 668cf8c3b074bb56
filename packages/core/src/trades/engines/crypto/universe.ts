import type { UniverseMember } from '../../types';

/**
 * The crypto engine's universe (docs/rules/crypto.md §3.1): every crypto symbol the market source lists,
 * minus stablecoins and wrapped or staked tokens, with BTC, ETH, XRP, SOL, ADA and DOGE (the BITCOIN
 * alert list, spec §9) always included. Symbols are bare tickers ('BTC'), upper case.
 *
 * A symbol is excluded when any of these holds (names are the source's, when it gives them):
 * 1. it is in STABLECOINS or WRAPPED_OR_STAKED (well-known tickers of both kinds);
 * 2. its ticker is pegged by its shape: it starts or ends with USD or EUR (USDT, USDC, FDUSD, PYUSD,
 *    USDE, EURC…), or it is a gold token (PAXG, XAUT in the list);
 * 3. its ticker is W, ST, WST, CB, R or M followed by a base asset of BASE_ASSETS (WBTC, WETH,
 *    STETH, WSTETH, CBBTC, RETH, MSOL…); liquid-staking tokens named otherwise (JITOSOL, BNSOL,
 *    EZETH…) are in WRAPPED_OR_STAKED;
 * 4. its name says so: 'wrapped', 'staked', 'restaked', 'liquid staking', 'bridged', 'stablecoin',
 *    'usd', 'tether' or 'dollar' as a word.
 * BTC, ETH, XRP, SOL, ADA and DOGE are never excluded.
 */

/** The BITCOIN alert list (spec §9): always in the universe. */
export const ALWAYS_INCLUDED_CRYPTOS: readonly string[] = ['BTC', 'ETH', 'XRP', 'SOL', 'ADA', 'DOGE'];

/** Stablecoins: fiat-, crypto- or commodity-pegged tokens (well-known tickers). */
export const STABLECOINS: readonly string[] = [
  'USDT', 'USDC', 'DAI', 'BUSD', 'TUSD', 'USDP', 'USDD', 'FDUSD', 'PYUSD', 'GUSD', 'FRAX', 'LUSD', 'USDE', 'USDS', 'SUSD', 'CUSD',
  'USDX', 'USD0', 'USDY', 'RLUSD', 'USD1', 'EURS', 'EURC', 'EURT', 'AEUR', 'XSGD', 'GHO', 'CRVUSD', 'MIM', 'ALUSD', 'DOLA', 'PAXG', 'XAUT', 'USTC', 'UST',
];

/** Wrapped, bridged and (liquid-)staked tokens (well-known tickers). */
export const WRAPPED_OR_STAKED: readonly string[] = [
  'WBTC', 'WETH', 'WBNB', 'WTRX', 'WAVAX', 'WMATIC', 'WPOL', 'WSOL', 'WEETH', 'EETH', 'WSTETH', 'STETH', 'RETH', 'CBETH', 'CBBTC', 'METH', 'SWETH', 'OSETH',
  'EZETH', 'RSETH', 'LSETH', 'SFRXETH', 'FRXETH', 'ANKRETH', 'TBTC', 'BTCB', 'SOLVBTC', 'LBTC', 'JITOSOL', 'MSOL', 'BNSOL', 'JUPSOL', 'BBSOL', 'STSOL',
  'STKAAVE', 'BETH', 'WBETH', 'SAVAX', 'STMATIC', 'MATICX', 'STATOM', 'STOSMO', 'STTIA', 'HBTC', 'RENBTC',
];

/** Base assets whose wrapped or staked versions are recognised by prefix. */
export const BASE_ASSETS: readonly string[] = ['BTC', 'ETH', 'BNB', 'SOL', 'AVAX', 'MATIC', 'POL', 'TRX', 'ATOM', 'DOT', 'NEAR', 'FTM', 'ADA', 'TIA', 'OSMO', 'SUI', 'APT', 'TON'];

const STABLE = new Set(STABLECOINS);
const DERIVED = new Set(WRAPPED_OR_STAKED);
const ALWAYS = new Set(ALWAYS_INCLUDED_CRYPTOS);
const PEGGED_SHAPE = /^(USD|EUR)|(USD|EUR)$/;
const DERIVED_SHAPE = new RegExp(`^(W|ST|WST|CB|R|M)(${BASE_ASSETS.join('|')})$`);
const EXCLUDED_NAME = /\b(wrapped|staked|restaked|liquid staking|bridged|stablecoin|usd|tether|dollar)\b/i;

/** Why a symbol is left out of the crypto universe, or null when it belongs (see the header). */
export function cryptoExclusionReason(symbol: string, name?: string): string | null {
  const ticker = symbol.trim().toUpperCase();
  if (ALWAYS.has(ticker)) return null;
  if (STABLE.has(ticker)) return 'stablecoin';
  if (DERIVED.has(ticker)) return 'wrapped or staked token';
  if (PEGGED_SHAPE.test(ticker)) return 'stablecoin (pegged ticker)';
  if (DERIVED_SHAPE.test(ticker)) return 'wrapped or staked token (derived ticker)';
  if (name !== undefined && EXCLUDED_NAME.test(name)) return `excluded by name: ${name}`;
  return null;
}

/** A crypto symbol as the market source lists it. */
export interface CryptoListing {
  symbol: string;
  name?: string;
}

/**
 * The engine's universe from the source's crypto listing: excluded symbols removed, the six always
 * included (added when the source does not list them), upper-case tickers, de-duplicated, in the
 * source's order with the missing always-included ones after it. `survivorshipBiased`: the listing
 * is today's (a replay over it), as stockUniverse says for stocks.
 */
export function cryptoUniverse(listing: readonly CryptoListing[], survivorshipBiased: boolean): UniverseMember[] {
  const seen = new Set<string>();
  const out: UniverseMember[] = [];
  const add = (symbol: string) => {
    if (seen.has(symbol)) return;
    seen.add(symbol);
    out.push({ symbol, market: 'CRYPTO', survivorshipBiased });
  };
  for (const item of listing) {
    const symbol = item.symbol.trim().toUpperCase();
    if (symbol !== '' && cryptoExclusionReason(symbol, item.name) === null) add(symbol);
  }
  for (const symbol of ALWAYS_INCLUDED_CRYPTOS) add(symbol);
  return out;
}

/** Is this universe member one the crypto engine runs (a CRYPTO instrument that is not excluded)? */
export function isCryptoMember(member: Pick<UniverseMember, 'symbol' | 'market'>): boolean {
  return member.market === 'CRYPTO' && cryptoExclusionReason(member.symbol) === null;
}
