/**
 * How each asset of the simulated market moves: its daily volatility, how much of it comes from the
 * market, its sector and itself, its long-run drift, and how often it has its own selloffs, rallies,
 * crashes and jumps. Sectors differ the way they do in real markets: technology drifts up fastest,
 * has high betas and the most episodes; utilities and staples are calm, low-beta and move with their
 * sector (rates); energy follows oil, a strong common factor; health care has the most single-stock
 * shocks (trial results, rulings). Companies spread around their sector. Index and sector ETFs load
 * on the same market and sector factors as the stocks, so "the S&P 500 fell" and the day's stock
 * moves agree.
 */
import type { GicsSector, UniverseEntry } from '../universe/types';
import { gaussian, hashString, mix, unit } from './random';

interface SectorProfile {
  /** Long-run drift of the sector's trend lines, per year (log). */
  driftPerYear: number;
  /** Range of company betas to the market factor. */
  betaMin: number;
  betaMax: number;
  /** Weight of the sector factor in a stock's standardised daily return. */
  sectorWeight: number;
  /** Company episodes (a selloff or a rally: one to three weeks of one-way trading), per stock per year. */
  episodesPerYear: number;
  /** Chance per session of a one-day crash (−7 % to −20 %) and of a jump (+5 % to +15 %). */
  crashChance: number;
  jumpChance: number;
}

const SECTORS: Record<GicsSector, SectorProfile> = {
  'Information Technology': { driftPerYear: 0.04, betaMin: 1.0, betaMax: 1.5, sectorWeight: 0.32, episodesPerYear: 6.2, crashChance: 0.0012, jumpChance: 0.0012 },
  'Communication Services': { driftPerYear: 0.03, betaMin: 0.8, betaMax: 1.3, sectorWeight: 0.25, episodesPerYear: 5.6, crashChance: 0.0012, jumpChance: 0.001 },
  'Consumer Discretionary': { driftPerYear: 0.025, betaMin: 0.9, betaMax: 1.4, sectorWeight: 0.25, episodesPerYear: 5.9, crashChance: 0.0012, jumpChance: 0.001 },
  'Consumer Staples': { driftPerYear: 0.012, betaMin: 0.4, betaMax: 0.8, sectorWeight: 0.28, episodesPerYear: 4.6, crashChance: 0.0008, jumpChance: 0.0006 },
  'Health Care': { driftPerYear: 0.015, betaMin: 0.5, betaMax: 1.0, sectorWeight: 0.21, episodesPerYear: 5.9, crashChance: 0.0016, jumpChance: 0.0012 },
  Financials: { driftPerYear: 0.02, betaMin: 0.9, betaMax: 1.3, sectorWeight: 0.35, episodesPerYear: 5.0, crashChance: 0.0008, jumpChance: 0.0006 },
  Industrials: { driftPerYear: 0.02, betaMin: 0.8, betaMax: 1.2, sectorWeight: 0.28, episodesPerYear: 5.3, crashChance: 0.001, jumpChance: 0.0008 },
  Energy: { driftPerYear: 0.01, betaMin: 0.7, betaMax: 1.1, sectorWeight: 0.42, episodesPerYear: 5.6, crashChance: 0.0008, jumpChance: 0.0008 },
  Materials: { driftPerYear: 0.012, betaMin: 0.8, betaMax: 1.2, sectorWeight: 0.32, episodesPerYear: 5.3, crashChance: 0.0008, jumpChance: 0.0008 },
  'Real Estate': { driftPerYear: 0.01, betaMin: 0.6, betaMax: 1.0, sectorWeight: 0.35, episodesPerYear: 4.6, crashChance: 0.0006, jumpChance: 0.0006 },
  Utilities: { driftPerYear: 0.015, betaMin: 0.3, betaMax: 0.6, sectorWeight: 0.39, episodesPerYear: 4.3, crashChance: 0.0005, jumpChance: 0.0005 },
};

/** Cryptocurrencies: one "sector" (the crypto factor), on their own market factor. */
const CRYPTO_PROFILE: SectorProfile = { driftPerYear: 0.05, betaMin: 0.8, betaMax: 1.3, sectorWeight: 0, episodesPerYear: 7, crashChance: 0.0015, jumpChance: 0.0015 };

/** ETFs: their market loading (in betas), the sector they hold (if any) and its weight, their drift. */
const ETF_EXPOSURES: Record<string, { beta: number; sector?: GicsSector; sectorWeight?: number; driftPerYear?: number }> = {
  SPY: { beta: 3.2 }, VOO: { beta: 3.2 }, VTI: { beta: 3.2 }, DIA: { beta: 3.1 },
  QQQ: { beta: 2.6, sector: 'Information Technology', sectorWeight: 0.45, driftPerYear: 0.03 },
  IWM: { beta: 2.8 },
  XLK: { beta: 2.1, sector: 'Information Technology', sectorWeight: 0.7, driftPerYear: 0.04 },
  SMH: { beta: 1.8, sector: 'Information Technology', sectorWeight: 0.7, driftPerYear: 0.04 },
  XLF: { beta: 2.1, sector: 'Financials', sectorWeight: 0.7 },
  XLE: { beta: 1.5, sector: 'Energy', sectorWeight: 0.85, driftPerYear: 0.01 },
  XLV: { beta: 2.0, sector: 'Health Care', sectorWeight: 0.7, driftPerYear: 0.015 },
  XLY: { beta: 2.1, sector: 'Consumer Discretionary', sectorWeight: 0.7, driftPerYear: 0.025 },
  XLP: { beta: 1.5, sector: 'Consumer Staples', sectorWeight: 0.8, driftPerYear: 0.012 },
  XLI: { beta: 2.1, sector: 'Industrials', sectorWeight: 0.7 },
  XLB: { beta: 2.0, sector: 'Materials', sectorWeight: 0.7, driftPerYear: 0.012 },
  XLU: { beta: 1.2, sector: 'Utilities', sectorWeight: 0.85, driftPerYear: 0.015 },
  XLRE: { beta: 1.5, sector: 'Real Estate', sectorWeight: 0.8, driftPerYear: 0.01 },
  XLC: { beta: 2.1, sector: 'Communication Services', sectorWeight: 0.7, driftPerYear: 0.03 },
  ARKK: { beta: 1.5, sector: 'Information Technology', sectorWeight: 0.4, driftPerYear: 0.01 },
  GLD: { beta: 0.2, driftPerYear: 0.03 },
  TLT: { beta: 0.3, driftPerYear: 0 },
};

/** Weight of the market factor per unit of beta in a stock's standardised daily return. */
const MARKET_WEIGHT_PER_BETA = 0.3;
/** At least this share of a stock's (an ETF's) daily standard deviation is its own noise. */
const MIN_OWN_WEIGHT = 0.35;
const MIN_OWN_WEIGHT_ETF = 0.25;
/**
 * Share of the listed annual volatility carried by the day-to-day noise. The rest of a stock's
 * movement comes from events (episodes, earnings gaps, crashes and jumps), which bring its
 * realised volatility to about 80 % of the listed one (median over the US stocks): a calm market
 * in which a 10 % drop from the monthly high stands out (spec §5 scanners). ETFs have no events of
 * their own, so their noise carries more of theirs; crypto, which no threshold scanner reads, keeps
 * most of its famous swings.
 */
const DIFFUSION_SHARE = 0.55;
const DIFFUSION_SHARE_ETF = 0.7;
const DIFFUSION_SHARE_CRYPTO = 0.8;

export interface PriceModel {
  crypto: boolean;
  /** Seeds of the asset's own draws and of its sector factor. */
  seed: number;
  sectorSeed: number;
  /** Sessions per year (252 exchange days, 365 for crypto). */
  sessionsPerYear: number;
  /** Daily standard deviation of the day-to-day noise of the log price. */
  sigmaDaily: number;
  /** Weights of the market, sector and own standard normal draws (squares sum to 1). */
  marketWeight: number;
  sectorWeight: number;
  ownWeight: number;
  /** Long-run drift of the trend line, per year (log). */
  driftPerYear: number;
  /** Company episodes per year, crash and jump chances per session (all zero for ETFs). */
  episodesPerYear: number;
  crashChance: number;
  jumpChance: number;
}

export const isCrypto = (entry: UniverseEntry) => entry.exchange === 'Crypto';

/** The asset's price model: a pure function of its universe entry. */
export function priceModel(entry: UniverseEntry): PriceModel {
  const crypto = isCrypto(entry);
  const seed = hashString(entry.symbol);
  const sessionsPerYear = crypto ? 365 : 252;
  const etf = !crypto && !entry.sector ? (ETF_EXPOSURES[entry.symbol] ?? { beta: 2 }) : undefined;
  const diffusionShare = etf ? DIFFUSION_SHARE_ETF : crypto ? DIFFUSION_SHARE_CRYPTO : DIFFUSION_SHARE;
  const sigmaDaily = (entry.volatility * diffusionShare) / Math.sqrt(sessionsPerYear);
  if (etf) {
    return {
      crypto,
      seed,
      sessionsPerYear,
      sigmaDaily,
      sectorSeed: hashString(`sector|${etf.sector ?? entry.symbol}`),
      ...weights(etf.beta * MARKET_WEIGHT_PER_BETA, etf.sector ? (etf.sectorWeight ?? 0.6) : 0, MIN_OWN_WEIGHT_ETF),
      driftPerYear: etf.driftPerYear ?? 0.02,
      episodesPerYear: 0,
      crashChance: 0,
      jumpChance: 0,
    };
  }
  const profile = crypto ? CRYPTO_PROFILE : SECTORS[entry.sector!];
  const beta = profile.betaMin + unit(mix(seed, 21)) * (profile.betaMax - profile.betaMin);
  // Companies spread around their sector's drift (σ 2 %/yr), bounded so no price runs away. Drifts
  // are modest: over the 6-month window a strong one alone would lift most stocks 10 % off their lows.
  const driftPerYear = Math.max(-0.05, Math.min(0.12, profile.driftPerYear + 0.02 * gaussian(mix(seed, 22))));
  return {
    crypto,
    seed,
    sessionsPerYear,
    sigmaDaily,
    sectorSeed: hashString(`sector|${entry.sector ?? (crypto ? 'crypto' : entry.symbol)}`),
    ...weights(beta * MARKET_WEIGHT_PER_BETA, profile.sectorWeight, MIN_OWN_WEIGHT),
    driftPerYear,
    episodesPerYear: profile.episodesPerYear,
    crashChance: profile.crashChance,
    jumpChance: profile.jumpChance,
  };
}

/**
 * Factor weights whose squares sum to 1, so the asset's day-to-day volatility is its own whatever
 * its beta; the common weights shrink when they would leave less than `minOwn` of own noise.
 */
function weights(market: number, sector: number, minOwn: number): { marketWeight: number; sectorWeight: number; ownWeight: number } {
  const common = market * market + sector * sector;
  const maxCommon = 1 - minOwn * minOwn;
  const shrink = common > maxCommon ? Math.sqrt(maxCommon / common) : 1;
  const marketWeight = market * shrink;
  const sectorWeight = sector * shrink;
  return { marketWeight, sectorWeight, ownWeight: Math.sqrt(Math.max(0, 1 - marketWeight ** 2 - sectorWeight ** 2)) };
}
