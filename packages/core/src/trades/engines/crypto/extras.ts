/**
 * The crypto engine's extras (docs/rules/crypto.md §3): each coin's scored news and its summary, the
 * analyst's name, the candles' provenance (close-only coins, the volume unit). The server's crypto
 * adapter builds them (apps/server/src/features/trades/engines/crypto.ts).
 */
import type { CommonExtras } from '../../types';

export interface CryptoExtras extends CommonExtras {
  /** Each coin's scored headlines as known at the pass (the last 72 h are used; older ones are ignored). */
  cryptoNews?: ReadonlyMap<string, readonly CryptoHeadline[]>;
  /** Each coin's news summary by the configured analyst (server-side), over the same headlines. */
  cryptoNewsSummaries?: ReadonlyMap<string, string>;
  /** Which analyst scored the headlines ('lexicon', or the configured OpenAI-compatible model): the row's SentimentSource. */
  cryptoSentimentSource?: string;
  /** Coins whose candles carry only closes (no High/Low from the source): their range fields show defaults and say why. */
  cryptoCloseOnly?: ReadonlySet<string>;
  /** The unit of the candles' volume: 'usd' (the venue's quote volume, the default) or 'base' (coins; USD volume = volume × close). */
  cryptoVolumeUnit?: 'usd' | 'base';
}

/** A coin's headline as the crypto engine receives it (docs/rules/crypto.md §3.2): scored by the configured analyst. */
export interface CryptoHeadline {
  url: string;
  title: string;
  /** ISO 8601 UTC publication time. */
  publishedAt: string;
  /** The analyst's score in [−1, 1] (values outside are clamped; a non-finite score drops the headline). */
  score: number;
  /** The publisher ('CoinDesk', …). */
  source: string;
}
