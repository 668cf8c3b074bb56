/**
 * The options engine's extras (docs/rules/option-trades.md §4): what its sessions read beyond bars, as of
 * the session's close. The pricing part (chains, 30-day IV indexes, the rate) is read by the contract
 * choice and valuation code (contract-choice.ts, update.ts), which drop's O items reuse
 * (docs/rules/drop-items.md §4.2; drop-items/extras.ts extends it); the server's options adapter builds them.
 */
import type { CommonExtras, EarningsExtras, OptionChainSnapshot } from '../../types';

/** What choosing and valuing a contract reads (chooseContract, fallbackSigma, sigmaToday, quoteOf; drop's pricer). */
export interface OptionPricingExtras {
  /** The option chain per underlying symbol, as quoted at the session's close. */
  optionChains?: ReadonlyMap<string, OptionChainSnapshot>;
  /** 30-day IV index closes in points (e.g. 'VIX' → 18.4, 'VXN' → 22.1). */
  ivIndexes?: ReadonlyMap<string, number>;
  /** The risk-free rate (DTB3) as a fraction (0.04 = 4 %); 0.04 (the parameters' defaultRate) when absent. */
  riskFreeRate?: number;
}

/** The options engine's extras: removals, earnings (EarningsInWindow), the pricing inputs and corporate actions. */
export interface OptionsExtras extends CommonExtras, EarningsExtras, OptionPricingExtras {
  /** Underlyings with a split or other adjustment effective on the session (open option ideas close). */
  corporateActions?: ReadonlySet<string>;
}
