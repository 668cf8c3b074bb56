/**
 * A small deterministic option pricer for the drop engine's tests (not exported; not used by
 * production code): the strike is the signal close rounded to the dollar, the expiry `dteDays`
 * calendar days after the signal, and the fair value max(0, S − K + `floor`) + `timeValue` × S × √(dte / 35),
 * so barrier tests can be computed by hand (timeValue 0 makes it S − K + `floor`).
 */
import { isoFromDayNumber, dayNumber } from '../../../market/trading-calendar';
import type { DropOptionBar, DropOptionPricer } from './option';
import type { DropOptionContract } from './state';

export interface TestPricerOptions {
  dteDays?: number;
  halfSpread?: number;
  /** A value floor added to the intrinsic value (a flat time value). */
  floor?: number;
  timeValue?: number;
  /** Symbols without a qualifying contract. */
  noContract?: ReadonlySet<string>;
}

export function testPricer(options: TestPricerOptions = {}): DropOptionPricer {
  const dteDays = options.dteDays ?? 35;
  const h = options.halfSpread ?? 0;
  const floor = options.floor ?? 5;
  const timeValue = options.timeValue ?? 0;
  const value = (price: number, strike: number, dte: number) => Math.max(0, price - strike + floor) + timeValue * price * Math.sqrt(Math.max(0, dte) / 35);
  return {
    chooseCall: ({ series }) => {
      if (options.noContract?.has(series.symbol)) return null;
      const t = series.close.length - 1;
      const strike = Math.round(series.close[t]!);
      const expiry = isoFromDayNumber(series.day[t]! + dteDays);
      const name = `${series.symbol}${expiry.slice(2, 4)}${expiry.slice(5, 7)}${expiry.slice(8, 10)}C${String(strike * 1000).padStart(8, '0')}`;
      const contract: DropOptionContract = { contractId: name, contractName: name, expiry, strike, halfSpread: h, signalValue: value(series.close[t]!, strike, dteDays), pricing: { sigma: 0.3 } };
      return contract;
    },
    valueOn: ({ contract, series }): DropOptionBar => {
      const t = series.close.length - 1;
      const dte = dayNumber(contract.expiry) - series.day[t]!;
      return {
        open: value(series.open[t]!, contract.strike, dte),
        // One σ for every session: the entry's value is the open's.
        entry: value(series.open[t]!, contract.strike, dte),
        high: value(series.high[t]!, contract.strike, dte),
        low: value(series.low[t]!, contract.strike, dte),
        close: value(series.close[t]!, contract.strike, dte),
        dte,
      };
    },
  };
}
