import { dayNumber } from '../../../market/trading-calendar';
import { chooseContract } from '../option-trades/contract-choice';
import type { OptionPricingExtras } from '../option-trades/extras';
import { OPTIONS_PARAMS, type OptionsParams } from '../option-trades/params';
import { modelValue, type ContractTerms } from '../option-trades/pricing';
import type { DailySeries, Mark, OptionChainContract, SessionInput, StoredIdeaEvent } from '../../types';
import type { DropExtras } from './extras';
import { bidValue, type DropOptionBar, type DropOptionPricer } from './option';
import type { DropMark } from './row';
import { foldDrop, type DropOptionContract, type DropState } from './state';

/**
 * Type O's option pricer (docs/rules/option-trades.md §4.2–4.3), built on the options engine's own code: the
 * CALL is chosen by `chooseContract` (the session's chain when it lists calls, else the model's
 * Friday expiries and strike grid: DTE closest to 35, |Δ| closest to 0.45) and valued as the options
 * engine values its trades: the entry with the model at the open and σ of close t kept with the
 * contract. The entry bar (its open, High, Low and close, and its intraday marks) is valued at that
 * same σ, reading no chain: one σ for the entry and its bar (docs/strategies/option-sigma.md; 1.0.0
 * marked that bar at the session chain's IV and bid, so a gap against the CALL that raised the IV
 * booked a target at the entry's own open). From the session after, a CALL chosen from a chain is
 * marked at the session chain's bid when the chain quotes it (`closeBid`); the rest with the model
 * (BSM at the session's σ: the chain's IV for a chain-chosen contract it quotes, an IV-index σ
 * scaled by the index's move, else the sticky σ of the choice).
 */

/** What an O item keeps to value its contract later (DropOptionContract.pricing). */
type DropPricing = {
  sigma: number;
  sigmaSource: string;
  ivIndex: string | null;
  ivIndexAtEntry: number | null;
  rate: number;
  dividendYield: number;
  priceSource: 'chain' | 'model';
  deltaAtEntry: number;
};

function pricingOf(contract: DropOptionContract): DropPricing | null {
  const p = contract.pricing;
  if (typeof p.sigma !== 'number' || !(p.sigma > 0) || typeof p.rate !== 'number' || typeof p.dividendYield !== 'number') return null;
  return {
    sigma: p.sigma,
    sigmaSource: typeof p.sigmaSource === 'string' ? p.sigmaSource : 'realised',
    ivIndex: typeof p.ivIndex === 'string' ? p.ivIndex : null,
    ivIndexAtEntry: typeof p.ivIndexAtEntry === 'number' ? p.ivIndexAtEntry : null,
    rate: p.rate,
    dividendYield: p.dividendYield,
    priceSource: p.priceSource === 'chain' ? 'chain' : 'model',
    deltaAtEntry: typeof p.deltaAtEntry === 'number' ? p.deltaAtEntry : 0,
  };
}

/** The session's quote of a contract chosen from a chain (the same expiry and strike, a CALL); a model-chosen one reads no chain. */
function quoteOf(symbol: string, contract: DropOptionContract, pricing: DropPricing, extras: OptionPricingExtras): OptionChainContract | undefined {
  if (pricing.priceSource !== 'chain') return undefined;
  return extras.optionChains?.get(symbol)?.contracts.find((c) => c.side === 'CALL' && c.expiry === contract.expiry && Math.abs(c.strike - contract.strike) < 1e-9);
}

/** σ of a session: the chain's IV for the contract, else an index σ scaled by index(t) / index(entry), else the sticky σ. */
function sigmaOn(pricing: DropPricing, quote: OptionChainContract | undefined, extras: OptionPricingExtras): number {
  if (quote?.iv !== undefined && quote.iv > 0) return quote.iv;
  if (pricing.sigmaSource === 'index' && pricing.ivIndex !== null && pricing.ivIndexAtEntry) {
    const now = extras.ivIndexes?.get(pricing.ivIndex);
    if (now !== undefined && now > 0) return (pricing.sigma * now) / pricing.ivIndexAtEntry;
  }
  return pricing.sigma;
}

export function createDropOptionPricer(params: OptionsParams = OPTIONS_PARAMS): DropOptionPricer {
  return {
    chooseCall({ series, extras }: { series: DailySeries; sessionDate: string; extras: OptionPricingExtras }): DropOptionContract | null {
      const t = series.close.length - 1;
      if (t < 1) return null;
      const choice = chooseContract(params, series, t, 'CALL', extras);
      if (!choice) return null;
      const terms: ContractTerms = { side: 'CALL', strike: choice.strike, expiry: choice.expiry, rate: choice.rate, dividendYield: choice.dividendYield, halfSpread: choice.halfSpread };
      const fair = modelValue(terms, series.close[t]!, series.day[t]!, choice.sigma);
      if (!(fair > 0)) return null;
      const pricing: DropPricing = {
        sigma: choice.sigma,
        sigmaSource: choice.sigmaSource,
        ivIndex: choice.ivIndex,
        ivIndexAtEntry: choice.ivIndexAtEntry,
        rate: choice.rate,
        dividendYield: choice.dividendYield,
        priceSource: choice.priceSource,
        deltaAtEntry: choice.deltaAtEntry,
      };
      return {
        contractId: choice.contractName,
        contractName: choice.contractName,
        expiry: choice.expiry,
        strike: choice.strike,
        halfSpread: choice.halfSpread,
        signalValue: fair,
        pricing,
      };
    },

    valueOn({ contract, series, extras, entryBar = false }: { contract: DropOptionContract; series: DailySeries; extras: OptionPricingExtras; entryBar?: boolean }): DropOptionBar | null {
      const pricing = pricingOf(contract);
      const t = series.close.length - 1;
      if (!pricing || t < 0) return null;
      const day = series.day[t]!;
      // The entry bar: the entry's σ for every value, and no chain quote (its bid is of another σ).
      const quote = entryBar ? undefined : quoteOf(series.symbol, contract, pricing, extras);
      const sigma = entryBar ? pricing.sigma : sigmaOn(pricing, quote, extras);
      const terms: ContractTerms = { side: 'CALL', strike: contract.strike, expiry: contract.expiry, rate: pricing.rate, dividendYield: pricing.dividendYield, halfSpread: contract.halfSpread };
      const value = (spot: number) => modelValue(terms, spot, day, sigma);
      const bar: DropOptionBar = {
        open: value(series.open[t]!),
        // The entry: the model at the open with close t's σ (a chain cannot quote the open afterwards; §4.3).
        entry: modelValue(terms, series.open[t]!, day, pricing.sigma),
        high: value(series.high[t]!),
        low: value(series.low[t]!),
        close: value(series.close[t]!),
        dte: dayNumber(contract.expiry) - day,
        ...(quote && quote.bid > 0 ? { closeBid: quote.bid } : {}),
      };
      return Object.values(bar).every((v) => Number.isFinite(v)) ? bar : null;
    },
  };
}

/**
 * The underlyings whose option chain a drop session reads (`extras.optionChains`), each with the one
 * expiry it needs or null for every expiry: an open O item whose CALL was chosen from a chain, with a
 * bar on the session past its entry bar (its contract's bid marks it, its IV values it; the entry
 * bar is valued at the entry's σ), and each O candidate of the day (`candidates`, from dropSignals:
 * its CALL is chosen from the chain).
 */
export function dropChainNeeds(input: SessionInput<unknown, DropState, DropExtras>, candidates: readonly { symbol: string }[]): Map<string, string | null> {
  const day = dayNumber(input.session.date);
  const needs = new Map<string, string | null>();
  for (const idea of input.openIdeas) {
    const contract = idea.state.stockType === 'O' ? idea.state.option : null;
    const series = input.bars.get(idea.symbol);
    if (!contract || idea.state.entryPending || pricingOf(contract)?.priceSource !== 'chain' || !series || series.day[series.day.length - 1] !== day) continue;
    needs.set(idea.symbol, needs.has(idea.symbol) && needs.get(idea.symbol) !== contract.expiry ? null : contract.expiry);
  }
  for (const pick of candidates) needs.set(pick.symbol, null);
  return needs;
}

/** The pricer the registered drop engine uses. */
export const dropOptionPricer = createDropOptionPricer();

/**
 * The mark of a drop item at an underlying price (docs/rules/option-trades.md §4.3 marks): for an open O item
 * whose CALL was chosen from a chain, past its entry bar, the bid of the chain of the moment when
 * `extras` carries it and it quotes the contract; else the option's model value at that price, on
 * the mark's day, at the bid side (σ: the entry's on the entry bar — waiting for its entry, or
 * entered on the mark's day —, else the chain's IV when the chain quotes the contract, else σ of
 * the choice). S and L items, and closed ones, are marked by the price alone.
 */
export function dropMarkAt(events: readonly StoredIdeaEvent[], mark: Mark, pricer: DropOptionPricer = dropOptionPricer, extras: OptionPricingExtras = {}): DropMark {
  const state = foldDrop(events);
  if (!state || state.closed || state.stockType !== 'O' || !state.option) return mark;
  const day = Math.max(dayNumber(mark.at.slice(0, 10)), dayNumber(events[0]!.barDate));
  const one = (value: number) => Float64Array.of(value);
  const series: DailySeries = { symbol: events[0]!.symbol, market: events[0]!.market, day: Int32Array.of(day), open: one(mark.price), high: one(mark.price), low: one(mark.price), close: one(mark.price), volume: one(0) };
  const entryBar = state.entryPending || state.entryDay === null || state.entryDay >= day;
  const bar = pricer.valueOn({ contract: state.option, series, extras, entryBar });
  return bar ? { ...mark, optionValue: bar.closeBid ?? bidValue(bar.close, state.option.halfSpread) } : mark;
}
