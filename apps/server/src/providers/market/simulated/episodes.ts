/**
 * Episodes of one-way trading: market and sector selloffs and rallies, and a company's own
 * capitulations (a run of heavy selling after bad news) and momentum rallies. They are what makes
 * a stock oversold (14-day RSI under 30 after a 10 % drop) or overbought, so the option scanner
 * finds something on an ordinary day while most stocks trade normally.
 *
 * Sessions are numbered from the first simulated day (every asset of one calendar shares the
 * numbering). They are cut into blocks of BLOCK_SESSIONS; each block holds at most one episode of
 * a schedule, lying wholly inside it, so whether session n is in an episode is a pure function of
 * (seed, n): no state, no look-back.
 */
import type { PriceModel } from './profiles';
import { mix, unit } from './random';

/** Sessions per block: at least the longest episode. */
export const BLOCK_SESSIONS = 30;

export interface EpisodeSchedule {
  /** Episodes per year, selloffs and rallies together (at most one per block). */
  perYear: number;
  minSessions: number;
  maxSessions: number;
  sessionsPerYear: number;
}

export interface Episode {
  /** Sessions in the episode, and which one `session` is (0 first). */
  length: number;
  step: number;
  /** Uniform 0–1: how hard the episode trades. */
  strength: number;
  /** Uniform 0–1 from which the direction (selloff or rally) is picked. */
  directionDraw: number;
  /** Whether it opens with a news gap (bad or good news on day one). */
  opensWithGap: boolean;
}

/** The episode of the schedule covering `session`, if any. `offset` staggers blocks between assets. */
export function episodeAt(seed: number, session: number, schedule: EpisodeSchedule, offset = 0): Episode | null {
  const block = Math.floor((session + offset) / BLOCK_SESSIONS);
  if (unit(mix(seed, block, 61)) >= (schedule.perYear * BLOCK_SESSIONS) / schedule.sessionsPerYear) return null;
  const length = schedule.minSessions + Math.floor(unit(mix(seed, block, 62)) * (schedule.maxSessions - schedule.minSessions + 1));
  const start = block * BLOCK_SESSIONS - offset + Math.floor(unit(mix(seed, block, 63)) * (BLOCK_SESSIONS - length + 1));
  const step = session - start;
  if (step < 0 || step >= length) return null;
  return {
    length,
    step,
    strength: unit(mix(seed, block, 64)),
    directionDraw: unit(mix(seed, block, 66)),
    opensWithGap: unit(mix(seed, block, 65)) < 0.4,
  };
}

/** Market selloffs and rallies: four a year, 3–8 sessions, shifting the market draw 0.4–0.8 σ a session. */
const MARKET_EPISODES = { perYear: 4, minSessions: 3, maxSessions: 8 };
const MARKET_EPISODE_SHIFT = { min: 0.4, span: 0.4 };
/** Sector selloffs and rallies (rotation): three a year per sector, shifting its draw 0.3–0.8 σ. */
const SECTOR_EPISODES = { perYear: 3, minSessions: 3, maxSessions: 8 };
const SECTOR_EPISODE_SHIFT = { min: 0.3, span: 0.5 };
/**
 * Company episodes: 7–15 sessions moving 7–11 daily sigmas in all, so the 14-day RSI ends near 20
 * or 80 and a volatile stock moves 10–20 %.
 */
const COMPANY_EPISODES = { minSessions: 7, maxSessions: 15 };
const COMPANY_EPISODE_SIGMAS = { min: 7, span: 4 };
/** Share of a company episode that an opening news gap puts on its first day. */
const EPISODE_GAP_SHARE = 0.35;
/** How strongly the stretch from the trend picks a company episode's direction (logistic slope per band). */
const DIRECTION_SLOPE_PER_BAND = 1.5;

/** The episode schedules of one asset, built once per series. */
export interface Schedules {
  market: EpisodeSchedule;
  sector: EpisodeSchedule | null;
  company: EpisodeSchedule | null;
  /** Offsets stagger blocks, so sectors' and companies' episodes do not line up. */
  sectorOffset: number;
  companyOffset: number;
}

export function schedulesOf(model: PriceModel): Schedules {
  const sessionsPerYear = model.sessionsPerYear;
  return {
    market: { ...MARKET_EPISODES, sessionsPerYear },
    sector: model.sectorWeight > 0 ? { ...SECTOR_EPISODES, sessionsPerYear } : null,
    company: model.episodesPerYear > 0 ? { ...COMPANY_EPISODES, perYear: model.episodesPerYear, sessionsPerYear } : null,
    sectorOffset: model.sectorSeed % BLOCK_SESSIONS,
    companyOffset: model.seed % BLOCK_SESSIONS,
  };
}

/** Shift of the market or sector standard-normal draw during an episode (0 outside one). */
export function factorShift(episode: Episode | null, kind: 'market' | 'sector'): number {
  if (!episode) return 0;
  const size = kind === 'market' ? MARKET_EPISODE_SHIFT : SECTOR_EPISODE_SHIFT;
  return (episode.directionDraw < 0.5 ? -1 : 1) * (size.min + size.span * episode.strength);
}

/**
 * A company episode's direction, picked on its first session from how far the stock stands from its
 * trend (`stretch`, in band widths): stretched stocks tend to sell off, beaten-down ones to rally
 * (recoveries), which keeps prices in a realistic range without a stronger pull.
 */
export function companyEpisodeDirection(episode: Episode, stretch: number): -1 | 1 {
  const selloffChance = 1 / (1 + Math.exp(-DIRECTION_SLOPE_PER_BAND * stretch));
  return episode.directionDraw < selloffChance ? -1 : 1;
}

/**
 * A company episode's move on one session (log): spread evenly over its sessions (traded between
 * open and close), or, when it opens with news, a gap on day one and the rest spread after it.
 */
export function companyEpisodeMove(episode: Episode, direction: -1 | 1, sigmaDaily: number): { intraday: number; gap: number } {
  const total = direction * (COMPANY_EPISODE_SIGMAS.min + COMPANY_EPISODE_SIGMAS.span * episode.strength) * sigmaDaily;
  if (!episode.opensWithGap) return { intraday: total / episode.length, gap: 0 };
  if (episode.step === 0) return { intraday: 0, gap: total * EPISODE_GAP_SHARE };
  return { intraday: (total * (1 - EPISODE_GAP_SHARE)) / (episode.length - 1), gap: 0 };
}
