import { pushLine, pushNote, type ChartLine, type LevelNote } from '../../components/trade-ideas/chart-model';
import { stockEngineView } from '../../components/trade-ideas/engine-view';

/** A drop item's chart: its entry, target (an S or L item's), stop and price now. */
export function dropChartLines(idea: Record<string, unknown>): ChartLine[] {
  const out: ChartLine[] = [];
  pushLine(out, 'Entry', idea.StockEntryPrice, 'entry', false);
  // An O item's TargetValue is the option's target (levelNotes), not a price of the stock.
  if (idea.StockType !== 'O') pushLine(out, 'Target', idea.TargetValue, 'gain');
  pushLine(out, 'Stop', idea.StopPrice, 'loss');
  pushLine(out, 'Current', idea.StockCurrentPrice, 'neutral');
  return out;
}

/** An O item's option values, which the stock's chart cannot show; an S or L item has none. */
export function dropLevelNotes(idea: Record<string, unknown>): LevelNote[] {
  const out: LevelNote[] = [];
  if (idea.StockType === 'O') {
    pushNote(out, 'Option entry', idea.OptionEntryValue);
    pushNote(out, 'Option current', idea.OptionCurrentValue);
    pushNote(out, 'Option target', idea.TargetValue);
    pushNote(out, 'Option exit', idea.OptionExitValue);
  }
  return out;
}

/** The drop items screen's engine as the shared trade-idea parts show it. */
export const DROP_VIEW = stockEngineView({ id: 'drop', chartLines: dropChartLines, levelNotes: dropLevelNotes });
