import { pushLine, type ChartLine } from '../../components/trade-ideas/chart-model';
import { stockEngineView } from '../../components/trade-ideas/engine-view';

/** A short-term trade's chart: its entry, both targets, the stop and the support level. */
export function swingChartLines(idea: Record<string, unknown>): ChartLine[] {
  const out: ChartLine[] = [];
  pushLine(out, 'Entry', idea.EntryPrice, 'entry', false);
  pushLine(out, 'Target 5%', idea.Target1Price, 'gain');
  pushLine(out, 'Target 10%', idea.Target2Price, 'gain');
  pushLine(out, 'Stop', idea.StopPrice, 'loss');
  pushLine(out, 'Support', idea.SupportLevel, 'neutral');
  return out;
}

/** The short-term screen's engine as the shared trade-idea parts show it. */
export const SWING_VIEW = stockEngineView({ id: 'swing', chartLines: swingChartLines });
