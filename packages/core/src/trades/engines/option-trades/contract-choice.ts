import type { OptionSide } from '../../../contract/option-trades';
import { dayNumber, isoFromDayNumber, tradingDayOnOrAfter } from '../../../market/trading-calendar';
import type { DailySeries } from '../../types';
import type { OptionPricingExtras } from './extras';
import { chooseExpiry, liquidEnough, modelExpiries, occName, rankStrikes, strikeStep, yearsBetween } from './contracts';
import type { OptionsParams } from './params';
import { askOf, bidOf, bsmDelta, modelValue, yangZhang } from './pricing';
import type { OptionOpenedData, SigmaSource } from './state';

/**
 * The contract of a new option trade (docs/rules/option-trades.md §4.2), chosen after close t from the
 * session's chain or the model's grid, with the σ it is priced at when the chain gives none (§4.3).
 */

/** σ when the chain gives none (docs/rules/option-trades.md §4.3): the IV index, else max(floor, premium × (½ YZ20 + ½ YZ60)). */
export function fallbackSigma(params: OptionsParams, series: DailySeries, t: number, extras: OptionPricingExtras): { sigma: number; source: SigmaSource; index: string | null; indexValue: number | null } {
  const index = params.ivIndexes[series.symbol];
  const value = index === undefined ? undefined : extras.ivIndexes?.get(index);
  if (index !== undefined && value !== undefined && value > 0) return { sigma: value / 100, source: 'index', index, indexValue: value };
  const realised = 0.5 * yangZhang(series, t, params.yzShort) + 0.5 * yangZhang(series, t, params.yzLong);
  return { sigma: Math.max(params.sigmaFloor, Number.isFinite(realised) ? params.ivPremium * realised : 0), source: 'realised', index: null, indexValue: null };
}

function halfSpreadOf(params: OptionsParams, symbol: string): number {
  return params.indexEtfs.includes(symbol) ? params.halfSpreadIndex : params.halfSpreadOther;
}

type ContractChoice = Pick<
  OptionOpenedData,
  'contractName' | 'expiry' | 'strike' | 'priceSource' | 'sigma' | 'sigmaSource' | 'ivIndex' | 'ivIndexAtEntry' | 'rate' | 'dividendYield' | 'halfSpread' | 'deltaAtEntry' | 'signalValue' | 'signalMark'
>;

/**
 * Contract selection after close t (docs/rules/option-trades.md §4.2): from the session's chain when it lists the
 * side (chain Δ, else BSM Δ with the contract's IV or the fallback σ; liquidity when known), else
 * from the model's Friday expiries and strike grid. Null when nothing qualifies.
 */
export function chooseContract(params: OptionsParams, series: DailySeries, t: number, side: OptionSide, extras: OptionPricingExtras): ContractChoice | null {
  const symbol = series.symbol;
  const spot = series.close[t]!;
  const day = series.day[t]!;
  const fromDay = tradingDayOnOrAfter(day + 1);
  const rate = extras.riskFreeRate ?? params.defaultRate;
  const fallback = fallbackSigma(params, series, t, extras);
  const halfSpread = halfSpreadOf(params, symbol);
  const base = { rate, dividendYield: params.dividendYield, halfSpread, ivIndex: fallback.index, ivIndexAtEntry: fallback.indexValue };
  const deltaOf = (strike: number, expiry: number, sigma: number) =>
    bsmDelta({ side, spot, strike, years: yearsBetween(day, expiry), rate, dividendYield: params.dividendYield, sigma });
  const listed = (extras.optionChains?.get(symbol)?.contracts ?? []).filter((c) => c.side === side && c.strike > 0);
  if (listed.length > 0) {
    const expiries = [...new Set(listed.map((c) => dayNumber(c.expiry)))];
    const expiry = chooseExpiry(expiries, fromDay, params);
    if (expiry === null) return null;
    const candidates = listed
      .filter((c) => dayNumber(c.expiry) === expiry)
      .map((quote) => ({ quote, strike: quote.strike, signed: quote.delta ?? deltaOf(quote.strike, expiry, quote.iv ?? fallback.sigma) }))
      .map((c) => ({ ...c, delta: Math.abs(c.signed) }));
    const pick = rankStrikes(candidates, spot, params).find((c) => liquidEnough(c.quote, params.minOpenInterest, params.maxSpreadOfMid));
    if (!pick) return null;
    const fromChain = pick.quote.iv !== undefined && pick.quote.iv > 0;
    const sigma = fromChain ? pick.quote.iv! : fallback.sigma;
    const expiryIso = isoFromDayNumber(expiry);
    const mid = modelValue({ side, strike: pick.strike, expiry: expiryIso, ...base }, spot, day, sigma);
    return {
      ...base,
      ...(fromChain ? { ivIndex: null, ivIndexAtEntry: null } : {}),
      contractName: occName(symbol, expiryIso, side, pick.strike),
      expiry: expiryIso,
      strike: pick.strike,
      priceSource: 'chain',
      sigma,
      sigmaSource: fromChain ? 'chain' : fallback.source,
      deltaAtEntry: pick.signed,
      // Enter at the ask, mark at the bid (h applied to the model when the quote has no side).
      signalValue: pick.quote.ask > 0 ? pick.quote.ask : askOf(mid, halfSpread),
      signalMark: pick.quote.bid > 0 ? pick.quote.bid : bidOf(mid, halfSpread),
    };
  }
  const expiry = chooseExpiry(modelExpiries(fromDay, fromDay + params.dteFallback[1]), fromDay, params);
  if (expiry === null) return null;
  const sigma = fallback.sigma;
  const step = strikeStep(symbol, spot, params.indexEtfs);
  // |Δ| in [0.35, 0.55] lies well within two standard deviations of the close.
  const spread = 2 * sigma * Math.sqrt(Math.max(yearsBetween(day, expiry), 1 / 365));
  const candidates: { strike: number; delta: number; signed: number }[] = [];
  for (let k = Math.max(1, Math.floor((spot * Math.exp(-spread)) / step)); k * step <= spot * Math.exp(spread) + step; k += 1) {
    const strike = Math.round(k * step * 1000) / 1000;
    const signed = deltaOf(strike, expiry, sigma);
    candidates.push({ strike, delta: Math.abs(signed), signed });
  }
  const pick = rankStrikes(candidates, spot, params)[0];
  if (!pick) return null;
  const expiryIso = isoFromDayNumber(expiry);
  const mid = modelValue({ side, strike: pick.strike, expiry: expiryIso, ...base }, spot, day, sigma);
  return {
    ...base,
    contractName: occName(symbol, expiryIso, side, pick.strike),
    expiry: expiryIso,
    strike: pick.strike,
    priceSource: 'model',
    sigma,
    sigmaSource: fallback.source,
    deltaAtEntry: pick.signed,
    signalValue: askOf(mid, halfSpread),
    signalMark: bidOf(mid, halfSpread),
  };
}
