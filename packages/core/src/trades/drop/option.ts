import { roundCentDown, roundCentUp } from '../kit/prices';
import type { DailySeries, SessionExtras } from '../types';
import type { DropOptionContract } from './state';

/**
 * Type O's contract: chosen and priced by the option engine's code (strategies.md §4.2–4.3), which
 * the drop engine receives as a dependency. The drop engine applies §4.3's half-spread and cent
 * rounding and §4.4's barriers itself, from the fair values the pricer gives.
 */

/** The fair (mid, before the half-spread) values of a contract on one bar. */
export interface DropOptionBar {
  /** At the bar's open. */
  open: number;
  /** Repriced at the underlying's High and Low, τ at the close (for a CALL, best and worst). */
  high: number;
  low: number;
  /** At the close (the daily mark). */
  close: number;
  /** Calendar days from the bar's session to the expiry. */
  dte: number;
}

export interface DropOptionPricer {
  /**
   * After close t (the last bar of `series`, split-adjusted bars; the pricer reads raw prices and
   * chains from `extras`): the CALL §4.2 chooses, with its fair value at close t and its half-spread,
   * or null when no contract qualifies (then no O item).
   */
  chooseCall(input: { series: DailySeries; sessionDate: string; extras: SessionExtras }): DropOptionContract | null;
  /**
   * The contract's fair values on the last bar of `series` (a session after the signal), or null
   * when it cannot be priced that session. `extras` is the session's (empty in simulate()).
   */
  valueOn(input: { contract: DropOptionContract; series: DailySeries; extras: SessionExtras }): DropOptionBar | null;
}

/** EntryValue = value × (1 + h), rounded up to the cent (§4.3). */
export function askValue(value: number, halfSpread: number): number {
  return roundCentUp(value * (1 + halfSpread));
}

/** Current_Value = value × (1 − h), rounded down to the cent (§4.3). */
export function bidValue(value: number, halfSpread: number): number {
  return roundCentDown(Math.max(0, value * (1 - halfSpread)));
}
