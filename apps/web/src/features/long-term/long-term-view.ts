import { pushLine, type ChartLine } from '../../components/trade-ideas/chart-model';
import { stockEngineView } from '../../components/trade-ideas/engine-view';

/** A layered plan's chart: its entry, the defined entry and exit levels, the stop and the 30-day high at creation. */
export function layeredChartLines(idea: Record<string, unknown>): ChartLine[] {
  const out: ChartLine[] = [];
  pushLine(out, 'Entry', idea.OriginalEntryPrice, 'entry', false);
  for (let n = 2; n <= 5; n += 1) pushLine(out, `ENL${n}`, idea[`ENL${n}`], 'entry');
  for (let n = 1; n <= 5; n += 1) pushLine(out, `EXL${n}`, idea[`EXL${n}`], 'gain');
  pushLine(out, 'Stop', idea.StopPrice, 'loss');
  pushLine(out, '30-day high at creation', idea.ThirtyDayHigh, 'neutral');
  return out;
}

/** The long-term screen's engine (layered plans) as the shared trade-idea parts show it. */
export const LAYERED_VIEW = stockEngineView({ id: 'layered', chartLines: layeredChartLines });
