import { roundCentDown, roundCentUp } from '../../kit/prices';
import type { DailySeries } from '../../types';
import type { OptionPricingExtras } from '../option-trades/extras';
import type { DropOptionContract } from './state';

/**
 * Type O's contract: chosen and priced by the option engine's code (docs/rules/option-trades.md §4.2–4.3), which
 * the drop engine receives as a dependency. The drop engine applies §4.3's half-spread and cent
 * rounding and §4.4's barriers itself, from the fair values the pricer gives and, for a contract
 * chosen from a chain, the chain's bid at the close.
 */

/** The fair (mid, before the half-spread) values of a contract on one bar, and the chain's bid at its close when a chain quotes it. */
export interface DropOptionBar {
  /** At the bar's open, with the bar's σ (a stop gapped through fills at this value's bid). */
  open: number;
  /** At the bar's open with σ of close t, kept with the contract: the entry's price (docs/rules/option-trades.md §4.3 Entry). */
  entry: number;
  /** Repriced at the underlying's High and Low, τ at the close (for a CALL, best and worst). */
  high: number;
  low: number;
  /** At the close (the daily mark when the chain does not quote the contract). */
  close: number;
  /**
   * The session chain's bid for the contract at the close, when the contract was chosen from a chain
   * and the session's chain quotes it with a bid (docs/rules/option-trades.md §4.3 Chain: "mark at the bid"): the
   * daily mark then, in place of the model's `close` at the bid side. Absent: the model.
   */
  closeBid?: number;
  /** Calendar days from the bar's session to the expiry. */
  dte: number;
}

export interface DropOptionPricer {
  /**
   * After close t (the last bar of `series`, split-adjusted bars; the pricer reads raw prices and
   * chains from `extras`): the CALL §4.2 chooses, with its fair value at close t and its half-spread,
   * or null when no contract qualifies (then no O item).
   */
  chooseCall(input: { series: DailySeries; sessionDate: string; extras: OptionPricingExtras }): DropOptionContract | null;
  /**
   * The contract's fair values on the last bar of `series` (a session after the signal), or null
   * when it cannot be priced that session. `extras` is the session's (empty in simulate()).
   * `entryBar`: the bar is the entry's own (the item entered at its open, or waiting to): every
   * value of it is at the entry's σ, and no chain is read (docs/strategies/option-sigma.md).
   */
  valueOn(input: { contract: DropOptionContract; series: DailySeries; extras: OptionPricingExtras; entryBar?: boolean }): DropOptionBar | null;
}

/** EntryValue = value × (1 + h), rounded up to the cent (§4.3). */
export function askValue(value: number, halfSpread: number): number {
  return roundCentUp(value * (1 + halfSpread));
}

/** Current_Value = value × (1 − h), rounded down to the cent (§4.3). */
export function bidValue(value: number, halfSpread: number): number {
  return roundCentDown(Math.max(0, value * (1 - halfSpread)));
}
