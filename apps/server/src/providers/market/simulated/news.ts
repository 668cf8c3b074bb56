/**
 * News of the simulated market, drawn from the same seed and events as the prices: big moves and
 * earnings produce matching headlines; market news covers the indices, the Fed, tariffs, Trump,
 * inflation and the day's movers. Each article knows its tone (+1 / −1 / 0), which the sentiment
 * numbers count.
 */
import { isoFromDayNumber, newYorkInstantMs } from '@signalboard/core';
import type { NewsArticle } from '../types';
import type { UniverseEntry } from '../universe/types';
import type { SimEarnings } from './earnings';
import { hashString, mix, unit } from './random';

export interface SimArticle extends NewsArticle {
  tone: -1 | 0 | 1;
}

export const SIMULATED_NEWS_SOURCES = ['Signalboard Wire', 'Market Desk', 'Street Ledger', 'Capital Courier', 'Ticker Daily'];

/** Chance of a routine company article on a calendar day. */
const ROUTINE_NEWS_CHANCE = 0.5;

/** Share of articles with an image (a chart card served by the simulated-news route); the rest have none, as real feeds do. */
const IMAGE_SHARE = 0.6;

/** Whether the article of this id has an image: a deterministic ~60 % of ids. */
export function hasNewsImage(id: string): boolean {
  return unit(mix(hashString(id), 71)) < IMAGE_SHARE;
}

/**
 * A close-to-close move big enough for its own headline: 5 % always, else 2.5 daily sigmas of the
 * stock's day-to-day noise (2 % at least, so calm stocks do not make news on ordinary days).
 */
export function isHeadlineMove(dayReturn: number, sigmaDaily: number): boolean {
  return Math.abs(dayReturn) >= Math.min(0.05, Math.max(0.02, 2.5 * sigmaDaily));
}

const choose = <T>(seed: number, items: readonly T[]) => items[Math.floor(unit(seed) * items.length)]!;
const pct = (value: number) => `${Math.abs(value * 100).toFixed(1)}%`;

function article(
  base: { id: string; day: number; minute: number; related: string; category: string; seed: number },
  headline: string,
  summary: string,
  tone: -1 | 0 | 1,
): SimArticle {
  return {
    id: base.id,
    headline,
    summary,
    source: choose(mix(base.seed, 1), SIMULATED_NEWS_SOURCES),
    category: base.category,
    datetime: Math.floor(newYorkInstantMs(base.day, base.minute) / 1000),
    url: `/simulated-news/${encodeURIComponent(base.id)}`,
    image: hasNewsImage(base.id) ? `/simulated-news/${encodeURIComponent(base.id)}/image.svg` : '',
    related: base.related,
    tone,
  };
}

const DOWN_REASONS = [
  'after a downbeat analyst note questioned its growth outlook',
  'as investors locked in gains after a strong run',
  'on worries about slowing demand',
  'after a rival cut prices',
  'as a regulatory probe weighed on sentiment',
  'amid a broader pullback in its sector',
];
const UP_REASONS = [
  'after an analyst upgrade to Buy',
  'on reports of a large new contract',
  'as buyers returned after recent weakness',
  'after the company raised its full-year outlook',
  'on strong demand for its newest products',
  'amid a rally across its sector',
];
const NEUTRAL_HEADLINES: ReadonlyArray<(name: string) => [string, string]> = [
  (n) => [`${n} to present at an industry conference next week`, 'The company will outline its strategy and take questions from investors.'],
  (n) => [`${n} names new chief financial officer`, 'The company said the appointment takes effect next month.'],
  (n) => [`What analysts expect from ${n} this quarter`, 'Consensus estimates have moved little over the past month.'],
];
const POSITIVE_HEADLINES: ReadonlyArray<(name: string) => [string, string]> = [
  (n) => [`${n} expands share buyback program`, 'The board authorised additional repurchases, the company said in a filing.'],
  (n) => [`${n} announces partnership to broaden its product line`, 'Analysts said the deal could lift revenue growth next year.'],
  (n) => [`Analyst raises ${n} price target, citing strong demand`, 'The firm said recent checks point to better-than-expected sales.'],
  (n) => [`${n} wins major new customer contract`, 'The multi-year agreement is expected to add to earnings from next year.'],
];
const NEGATIVE_HEADLINES: ReadonlyArray<(name: string) => [string, string]> = [
  (n) => [`Analyst downgrades ${n} to Neutral on valuation`, 'The firm said the shares already price in most of the expected growth.'],
  (n) => [`${n} faces regulatory scrutiny over business practices`, 'Officials are reviewing the matter; the company said it is cooperating.'],
  (n) => [`${n} warns of softer demand in some markets`, 'Management flagged slower orders in a presentation to investors.'],
  (n) => [`${n} hit by lawsuit from former partners`, 'The company said the claims are without merit and it will defend itself.'],
];

/**
 * Company news of one day. `dayReturn` is the close-to-close move; `sigma` the daily volatility;
 * `release` the earnings report of that day, if any.
 */
export function companyNewsOfDay(
  entry: UniverseEntry,
  day: number,
  dayReturn: number | undefined,
  /** The close-to-close move over the five sessions before the day: routine news leans its way. */
  recentReturn: number,
  sigma: number,
  release: SimEarnings | undefined,
): SimArticle[] {
  const seed = mix(hashString(entry.symbol), day, 51);
  const name = entry.name.replace(/,? (Inc\.|Corporation|Corp\.|Ltd\.|plc|Co\.)$/, '');
  const out: SimArticle[] = [];
  const base = (k: number, minute: number) => ({
    id: `${entry.symbol}-${isoFromDayNumber(day)}-${k}`,
    day,
    minute,
    related: entry.symbol,
    category: 'company',
    seed: mix(seed, k),
  });
  if (release) {
    const beat = release.surprise >= 0;
    const minute = release.hour === 'amc' ? 16 * 60 + 10 : release.hour === 'bmo' ? 7 * 60 + 5 : 12 * 60;
    out.push(
      article(
        base(0, minute),
        `${name} ${beat ? 'beats' : 'misses'} quarterly estimates: EPS $${release.epsActual.toFixed(2)} vs $${release.epsEstimate.toFixed(2)} expected`,
        `${name} reported Q${release.quarter} ${release.year} earnings of $${release.epsActual.toFixed(2)} per share against a consensus of $${release.epsEstimate.toFixed(2)}, a ${beat ? 'beat' : 'miss'} of ${pct(release.surprise)}.`,
        beat ? 1 : -1,
      ),
    );
  }
  if (dayReturn !== undefined && isHeadlineMove(dayReturn, sigma)) {
    const up = dayReturn > 0;
    const reason = choose(mix(seed, 2), up ? UP_REASONS : DOWN_REASONS);
    const verb = up ? (dayReturn > 0.08 ? 'soar' : 'jump') : dayReturn < -0.08 ? 'plunge' : 'tumble';
    out.push(
      article(
        // Written after the close: the move is close to close.
        base(1, 16 * 60 + 10),
        `${name} (${entry.symbol}) shares ${verb} ${pct(dayReturn)} ${reason}`,
        `Shares of ${name} ${up ? 'rose' : 'fell'} ${pct(dayReturn)} in heavy trading ${reason}.`,
        up ? 1 : -1,
      ),
    );
  }
  if (unit(mix(seed, 3)) < ROUTINE_NEWS_CHANCE) {
    // Routine news leans with the stock's last week: a quarter neutral, 60 % with the move, 15 %
    // against it. Sector sentiment then follows the sector, so a stock sold off on its own news in
    // a sector whose news is upbeat is the Option Scanner's CALL, and broad moves are not.
    const u = unit(mix(seed, 5));
    const leaning = recentReturn >= 0 ? 1 : -1;
    const tone: -1 | 0 | 1 = u < 0.25 ? 0 : u < 0.85 ? (leaning as -1 | 1) : (-leaning as -1 | 1);
    const templates = tone === 0 ? NEUTRAL_HEADLINES : tone > 0 ? POSITIVE_HEADLINES : NEGATIVE_HEADLINES;
    const [headline, summary] = choose(mix(seed, 4), templates)(name);
    out.push(article(base(2, 9 * 60 + Math.floor(unit(mix(seed, 6)) * 400)), headline, summary, tone));
  }
  return out;
}

export interface MarketDay {
  day: number;
  /** SPY, QQQ and IWM close-to-close returns. */
  indexReturns: { spy: number; qqq: number; iwm: number };
  /** Sector average returns of the day. */
  sectorReturns: Array<{ sector: string; change: number }>;
  /** The day's largest gainers and losers. */
  movers: Array<{ entry: UniverseEntry; change: number }>;
  /** Latest value of the 10-year yield and of CPI inflation, for colour. */
  tenYearYield: number;
  inflation: number;
}

/** Market news (category general) of one day. */
export function marketNewsOfDay(market: MarketDay): SimArticle[] {
  const { day } = market;
  const seed = mix(hashString('market-news'), day);
  const items: SimArticle[] = [];
  const base = (k: number, minute: number) => ({
    id: `market-${isoFromDayNumber(day)}-${k}`,
    day,
    minute,
    related: '',
    category: 'general',
    seed: mix(seed, k),
  });
  const spy = market.indexReturns.spy;
  const direction = spy >= 0 ? 'higher' : 'lower';
  items.push(
    article(
      base(0, 16 * 60 + 5),
      `Stocks close ${direction}: S&P 500 ${spy >= 0 ? 'gains' : 'slips'} ${pct(spy)}, Nasdaq ${market.indexReturns.qqq >= 0 ? 'up' : 'down'} ${pct(market.indexReturns.qqq)}`,
      `The S&P 500 ended ${pct(spy)} ${direction} while small caps moved ${pct(market.indexReturns.iwm)} ${market.indexReturns.iwm >= 0 ? 'up' : 'down'}. The 10-year Treasury yield stood near ${market.tenYearYield.toFixed(2)}%.`,
      spy > 0.002 ? 1 : spy < -0.002 ? -1 : 0,
    ),
  );
  const sectors = [...market.sectorReturns].sort((a, b) => b.change - a.change);
  const best = sectors[0];
  const worst = sectors[sectors.length - 1];
  if (best && worst) {
    items.push(
      article(
        base(1, 15 * 60 + 30),
        `${best.sector} leads, ${worst.sector} lags as investors rotate`,
        `${best.sector} stocks gained ${pct(best.change)} on average while ${worst.sector} fell ${pct(worst.change)}.`,
        0,
      ),
    );
  }
  for (const [k, mover] of market.movers.slice(0, 4).entries()) {
    const up = mover.change > 0;
    items.push(
      article(
        base(2 + k, 14 * 60 + k * 17),
        `${mover.entry.name} ${up ? 'surges' : 'sinks'} ${pct(mover.change)}, among the day's ${up ? 'top gainers' : 'biggest decliners'}`,
        `${mover.entry.symbol} was one of the market's biggest movers, ${up ? 'rising' : 'falling'} ${pct(mover.change)}.`,
        up ? 1 : -1,
      ),
    );
  }
  const themes = [
    [`Fed officials signal patience on rate cuts as inflation runs near ${market.inflation.toFixed(1)}%`, 'Policymakers said they want more evidence that price pressures are easing before lowering rates further.', 0],
    ['Trump says new tariffs on imports are coming, rattling trade-exposed stocks', 'President Trump said his administration would announce additional tariffs, adding to uncertainty for manufacturers and retailers.', -1],
    ['Trump touts deal talks with major trading partners; markets weigh tariff relief', 'The president said negotiations were progressing, and investors looked for signs of lower tariffs on key goods.', 1],
    ['Treasury yields climb as traders reassess the path of Fed policy', `The 10-year yield moved toward ${(market.tenYearYield + 0.05).toFixed(2)}% as bond traders priced fewer cuts.`, -1],
    ['Consumer spending holds up despite higher prices, retail data show', 'Shoppers kept spending on services and travel, easing fears of a sharp slowdown.', 1],
    ['Oil prices swing on supply worries and demand outlook', 'Crude moved sharply as traders weighed output decisions against signs of slower demand.', 0],
    ['Tariff uncertainty clouds outlook for chipmakers and automakers', 'Executives said planning has become harder as trade policy keeps shifting.', -1],
    ['Trump criticises the Federal Reserve, calls for faster rate cuts', 'The president repeated his view that rates are too high, a theme markets have grown used to.', 0],
    ['Jobless claims edge lower, pointing to a resilient labor market', 'Fewer Americans filed for unemployment benefits last week than economists expected.', 1],
    ['Earnings season: most companies beating estimates so far', 'Analysts say results have been better than feared, though guidance has been cautious.', 1],
    ['Dollar steadies as investors await key inflation report', 'Currency markets were calm ahead of the data, which could shape the Fed’s next move.', 0],
    ['Bitcoin swings as crypto traders weigh regulation and ETF flows', 'Digital assets moved in a wide range as flows into spot funds shifted.', 0],
  ] as const;
  const count = 6;
  const start = Math.floor(unit(mix(seed, 90)) * themes.length);
  for (let k = 0; k < count; k += 1) {
    const [headline, summary, tone] = themes[(start + k * 5) % themes.length]!;
    items.push(article(base(10 + k, 7 * 60 + Math.floor(unit(mix(seed, 91 + k)) * 600)), headline, summary, tone as -1 | 0 | 1));
  }
  return items;
}
