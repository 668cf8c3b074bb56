/**
 * Option chains of the simulated market, priced with Black-Scholes from the stock's realised
 * volatility (with a mild skew), with volume and open interest that fall off away from the money.
 */
import { DAY_MS, isoFromDayNumber, tradingDayOnOrBefore } from '@signalboard/core';
import type { OptionChain, OptionContract } from '../types';
import { hashString, mix, unit } from './random';

export const RISK_FREE_RATE = 0.043;

/** Standard normal CDF (Abramowitz-Stegun 7.1.26 via erf; error below 1.5e-7). */
export function normalCdf(x: number): number {
  const t = 1 / (1 + 0.3275911 * (Math.abs(x) / Math.SQRT2));
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(x * x) / 2);
  return x >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

/** Black-Scholes price of a European option (no dividends). `years` to expiry, `sigma` annualised. */
export function blackScholes(type: 'call' | 'put', spot: number, strike: number, years: number, sigma: number, rate = RISK_FREE_RATE): number {
  if (years <= 0 || sigma <= 0) return Math.max(0, type === 'call' ? spot - strike : strike - spot);
  const d1 = (Math.log(spot / strike) + (rate + (sigma * sigma) / 2) * years) / (sigma * Math.sqrt(years));
  const d2 = d1 - sigma * Math.sqrt(years);
  return type === 'call'
    ? spot * normalCdf(d1) - strike * Math.exp(-rate * years) * normalCdf(d2)
    : strike * Math.exp(-rate * years) * normalCdf(-d2) - spot * normalCdf(-d1);
}

/** Listed expiries after `today`: the next six Fridays and the third Friday of the next six months. */
export function listedExpirations(today: number): number[] {
  const out = new Set<number>();
  const weekday = new Date(today * DAY_MS).getUTCDay();
  let friday = today + ((5 - weekday + 7) % 7 || 7);
  for (let k = 0; k < 6; k += 1, friday += 7) out.add(tradingDayOnOrBefore(friday));
  const date = new Date(today * DAY_MS);
  for (let m = 1; m <= 6; m += 1) {
    const first = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + m, 1) / DAY_MS;
    const firstFriday = first + ((5 - new Date(first * DAY_MS).getUTCDay() + 7) % 7);
    out.add(tradingDayOnOrBefore(firstFriday + 14));
  }
  return [...out].filter((day) => day > today).sort((a, b) => a - b);
}

function strikeStep(spot: number): number {
  if (spot < 5) return 0.5;
  if (spot < 25) return 1;
  if (spot < 100) return 2.5;
  if (spot < 250) return 5;
  if (spot < 1000) return 10;
  return 50;
}

/** OCC contract symbol: root, YYMMDD, C/P, strike × 1000 in 8 digits. */
export function occSymbol(root: string, expiration: string, type: 'call' | 'put', strike: number): string {
  const yymmdd = expiration.slice(2).replace(/-/g, '');
  return `${root.replace(/[^A-Z]/g, '')}${yymmdd}${type === 'call' ? 'C' : 'P'}${String(Math.round(strike * 1000)).padStart(8, '0')}`;
}

export function optionChain(input: {
  symbol: string;
  spot: number;
  today: number;
  realisedVolatility: number;
  avgVolume: number;
  expiration?: string;
}): OptionChain {
  const { symbol, spot, today } = input;
  const expirations = listedExpirations(today).map(isoFromDayNumber);
  const wanted = input.expiration ? [input.expiration] : expirations;
  const step = strikeStep(spot);
  const first = Math.max(step, Math.floor((spot * 0.7) / step) * step);
  const seed = hashString(symbol);
  const contracts: OptionContract[] = [];
  for (const expiration of wanted) {
    const expiryDay = Date.parse(`${expiration}T00:00:00Z`) / DAY_MS;
    const years = Math.max(1, expiryDay - today) / 365;
    for (let strike = first; strike <= spot * 1.3 + 1e-9; strike += step) {
      const moneyness = Math.log(strike / spot);
      for (const type of ['call', 'put'] as const) {
        const sigma = Math.max(0.08, input.realisedVolatility * (1 + 0.25 * Math.max(0, -moneyness) * 4 + 0.05));
        const mid = blackScholes(type, spot, strike, years, sigma);
        const spread = Math.max(0.01, mid * 0.04);
        const s = mix(seed, Math.round(strike * 100), expiryDay * 2 + (type === 'call' ? 0 : 1));
        const activity = Math.exp(-Math.abs(moneyness) * 12) * (input.avgVolume / 1_000_000) * (0.5 + unit(s));
        contracts.push({
          contractSymbol: occSymbol(symbol, expiration, type, strike),
          type,
          strike: Math.round(strike * 100) / 100,
          expiration,
          lastPrice: Math.round(mid * 100) / 100,
          bid: Math.max(0, Math.round((mid - spread / 2) * 100) / 100),
          ask: Math.round((mid + spread / 2) * 100) / 100,
          volume: Math.round(activity * 400 * (0.3 + unit(mix(s, 1)))),
          openInterest: Math.round(activity * 3000 * (0.5 + unit(mix(s, 2)))),
          impliedVolatility: Math.round(sigma * 10_000) / 10_000,
        });
      }
    }
  }
  return { symbol, underlyingPrice: spot, expirations, contracts };
}
