/**
 * The drop engine's extras (docs/rules/drop-items.md §5): the index, the O universe, the company news,
 * the sectors and the linked swing trades, plus the option pricing inputs its O items' CALL is chosen
 * and valued with (the options engine's code: option-trades/extras.ts OptionPricingExtras). The
 * server's drop-items adapter builds them.
 */
import type { CommonExtras } from '../../types';
import type { OptionPricingExtras } from '../option-trades/extras';

export interface DropExtras extends CommonExtras, OptionPricingExtras {
  /** The S&P 500 members on the session ("Best of S&P 500" is built from them); absent: every universe member. */
  dropIndexMembers?: ReadonlySet<string>;
  /** The OPTION_ALERT underlyings (type O's universe); absent: none. */
  dropOptionUnderlyings?: ReadonlySet<string>;
  /** The source's company headlines per symbol, as known at the pass (StockNews, Sentiment, NewsTag). */
  dropNews?: ReadonlyMap<string, readonly DropHeadline[]>;
  /** GICS sector per symbol on the session (source profile); else the universe member's sector. */
  sectors?: ReadonlyMap<string, string>;
  /** The open swing trade's id per symbol (LinkedSwingTradeId). */
  swingTradeIds?: ReadonlyMap<string, string>;
}

/** A company headline for the drop engine (spec §3 "News article" subset). */
export interface DropHeadline {
  /** ISO 8601 UTC publication time. */
  datetime: string;
  headline: string;
  summary: string;
  /** De-duplicates with the normalised headline (docs/rules/crypto.md §3.2). */
  url?: string;
  /** A score in [−1, 1] from the configured analyst; the local lexicon scores it when absent. */
  score?: number;
}
