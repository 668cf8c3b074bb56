import type { OptionSide } from '../../../contract/option-trades';
import { dayNumber } from '../../../market/trading-calendar';
import { roundCentDown, roundCentUp } from '../../kit/prices';
import type { DailySeries } from '../../types';

/**
 * Option pricing (docs/rules/option-trades.md §4.3): European Black-Scholes-Merton price and delta, the
 * Yang-Zhang volatility estimator, and the half-spread. Pure functions on numbers.
 */

/**
 * The standard normal CDF: Hart's double-precision rational approximation (1968), as given by
 * G. West, "Better approximations to cumulative normal functions" (2005), absolute error < 1e-14.
 */
export function normCdf(x: number): number {
  const z = Math.abs(x);
  let tail = 0;
  if (z <= 37) {
    const e = Math.exp((-z * z) / 2);
    if (z < 7.07106781186547) {
      let n = 3.52624965998911e-2 * z + 0.700383064443688;
      n = n * z + 6.37396220353165;
      n = n * z + 33.912866078383;
      n = n * z + 112.079291497871;
      n = n * z + 221.213596169931;
      n = n * z + 220.206867912376;
      let d = 8.83883476483184e-2 * z + 1.75566716318264;
      d = d * z + 16.064177579207;
      d = d * z + 86.7807322029461;
      d = d * z + 296.564248779674;
      d = d * z + 637.333633378831;
      d = d * z + 793.826512519948;
      d = d * z + 440.413735824752;
      tail = (e * n) / d;
    } else {
      let f = z + 0.65;
      f = z + 4 / f;
      f = z + 3 / f;
      f = z + 2 / f;
      f = z + 1 / f;
      tail = e / f / 2.506628274631;
    }
  }
  return x <= 0 ? tail : 1 - tail;
}

/** BSM inputs: S the (raw) underlying, K the strike, T in years (calendar days / 365), r and q continuous, σ annual. */
export interface BsmInput {
  side: OptionSide;
  spot: number;
  strike: number;
  years: number;
  rate: number;
  dividendYield: number;
  sigma: number;
}

function d1d2(input: BsmInput): [number, number] {
  const root = input.sigma * Math.sqrt(input.years);
  const d1 = (Math.log(input.spot / input.strike) + (input.rate - input.dividendYield + (input.sigma * input.sigma) / 2) * input.years) / root;
  return [d1, d1 - root];
}

/** The European BSM value; at or after expiry (T ≤ 0) or with σ ≤ 0, the intrinsic value. */
export function bsmPrice(input: BsmInput): number {
  const { side, spot, strike, years, rate, dividendYield, sigma } = input;
  if (!(years > 0) || !(sigma > 0)) return Math.max(0, side === 'CALL' ? spot - strike : strike - spot);
  const [d1, d2] = d1d2(input);
  const carried = spot * Math.exp(-dividendYield * years);
  const discounted = strike * Math.exp(-rate * years);
  return side === 'CALL' ? carried * normCdf(d1) - discounted * normCdf(d2) : discounted * normCdf(-d2) - carried * normCdf(-d1);
}

/** The BSM delta: e^(−qT) N(d1) for a call, −e^(−qT) N(−d1) for a put; at expiry 1/0 (call) or −1/0 (put). */
export function bsmDelta(input: BsmInput): number {
  const { side, spot, strike, years, dividendYield, sigma } = input;
  if (!(years > 0) || !(sigma > 0)) {
    if (side === 'CALL') return spot > strike ? 1 : 0;
    return spot < strike ? -1 : 0;
  }
  const [d1] = d1d2(input);
  const carry = Math.exp(-dividendYield * years);
  return side === 'CALL' ? carry * normCdf(d1) : -carry * normCdf(-d1);
}

/**
 * Yang-Zhang volatility over the n bars ending at t (docs/rules/option-trades.md §4.3), annualised with 252:
 * o = ln(O_i / C_{i−1}), c = ln(C_i / O_i), V_o and V_c their sample variances (n − 1),
 * V_rs = mean[ln(H/C)·ln(H/O) + ln(L/C)·ln(L/O)], k = 0.34 / (1.34 + (n + 1)/(n − 1)),
 * YZ = √(252 · (V_o + k·V_c + (1 − k)·V_rs)). NaN when bar t − n (the first C_{i−1}) is missing.
 */
export function yangZhang(series: Pick<DailySeries, 'open' | 'high' | 'low' | 'close'>, t: number, n: number): number {
  if (n < 2 || t - n < 0) return Number.NaN;
  let sumO = 0;
  let sumC = 0;
  let sumRs = 0;
  for (let i = t - n + 1; i <= t; i += 1) {
    const open = series.open[i]!;
    const close = series.close[i]!;
    sumO += Math.log(open / series.close[i - 1]!);
    sumC += Math.log(close / open);
    const high = series.high[i]!;
    const low = series.low[i]!;
    sumRs += Math.log(high / close) * Math.log(high / open) + Math.log(low / close) * Math.log(low / open);
  }
  const meanO = sumO / n;
  const meanC = sumC / n;
  let varO = 0;
  let varC = 0;
  for (let i = t - n + 1; i <= t; i += 1) {
    const o = Math.log(series.open[i]! / series.close[i - 1]!) - meanO;
    const c = Math.log(series.close[i]! / series.open[i]!) - meanC;
    varO += o * o;
    varC += c * c;
  }
  varO /= n - 1;
  varC /= n - 1;
  const k = 0.34 / (1.34 + (n + 1) / (n - 1));
  return Math.sqrt(252 * (varO + k * varC + (1 - k) * (sumRs / n)));
}

/** A contract's terms as the engine values it (docs/rules/option-trades.md §4.3, Model). */
export interface ContractTerms {
  side: OptionSide;
  strike: number;
  /** YYYY-MM-DD. */
  expiry: string;
  rate: number;
  dividendYield: number;
  /** h, a fraction of the premium. */
  halfSpread: number;
}

/** The model's (mid) value of the contract with the underlying at `spot` on day `day` (T = calendar days to expiry / 365). */
export function modelValue(terms: ContractTerms, spot: number, day: number, sigma: number): number {
  const years = Math.max(0, dayNumber(terms.expiry) - day) / 365;
  return bsmPrice({ side: terms.side, spot, strike: terms.strike, years, rate: terms.rate, dividendYield: terms.dividendYield, sigma });
}

/** What a buyer pays: value × (1 + h), rounded up to the cent. */
export function askOf(value: number, halfSpread: number): number {
  return roundCentUp(value * (1 + halfSpread));
}

/** What a seller gets (Current_Value): value × (1 − h), rounded down to the cent. */
export function bidOf(value: number, halfSpread: number): number {
  return roundCentDown(value * (1 - halfSpread));
}
