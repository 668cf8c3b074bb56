import { formatCryptoNumber, type CryptoNumberField } from '@signalboard/core';
import { chartPrecision, finiteNumber, type ChartLine, type ChartTone } from '../../components/trade-ideas/chart-model';
import type { EngineView } from '../../components/trade-ideas/engine-view';

/** A crypto level with its spec §9 format (swing 4 decimals, highs 8). */
function cryptoLine(out: ChartLine[], title: string, idea: Record<string, unknown>, field: CryptoNumberField, tone: ChartTone, dashed = true) {
  const price = finiteNumber(idea[field]);
  if (price !== null && price > 0) out.push({ title, price, tone, dashed, text: formatCryptoNumber(field, price) });
}

/** A coin's chart: its swing level and its 1-month and 6-month highs. */
export function cryptoChartLines(idea: Record<string, unknown>): ChartLine[] {
  const out: ChartLine[] = [];
  const kind = idea.SwingKind === 'low' ? 'Swing low' : idea.SwingKind === 'high' ? 'Swing high' : 'Swing level';
  cryptoLine(out, kind, idea, 'SwingLevel', 'entry', false);
  cryptoLine(out, '1M high', idea, 'OneMonthHigh', 'neutral');
  cryptoLine(out, '6M high', idea, 'SixMonthHigh', 'neutral');
  return out;
}

/**
 * The crypto screen's engine as the shared trade-idea parts show it: a coin, prices in the spec §9
 * price format (8 decimals), a chart scale with the decimals a coin's prices need, UTC candles; its
 * live updates make the crypto screen's own queries (list, scorecard) stale too.
 */
export const CRYPTO_VIEW: EngineView<'crypto'> = {
  id: 'crypto',
  noun: 'coin',
  chartLines: cryptoChartLines,
  levelNotes: () => [],
  formatPrice: (value) => formatCryptoNumber('LastClose', value),
  chartPrecision,
  chartLabel: (symbol) => `${symbol} daily (UTC) candles with the swing level, highs and signal changes`,
  liveQueryKeys: [['crypto'], ['trade-ideas', 'crypto']],
};
