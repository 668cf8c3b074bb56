import { finiteNumber, pushLine, pushNote, type ChartLine, type LevelNote } from '../../components/trade-ideas/chart-model';
import { stockEngineView } from '../../components/trade-ideas/engine-view';

/**
 * An option trade's chart: the strike and the option's values are not prices of the underlying, so
 * the chart is the underlying's, with its signal close and its price now; the option's values are
 * its level notes.
 */
export function optionChartLines(idea: Record<string, unknown>): ChartLine[] {
  const out: ChartLine[] = [];
  pushLine(out, 'Signal close', idea.SignalPrice, 'entry', false);
  pushLine(out, 'Underlying now', idea.CurrentPriceStock, 'neutral');
  return out;
}

/** The strike and the option's entry, current, target (+30%) and stop (−50%) values (docs/rules/option-trades.md §4). */
export function optionLevelNotes(idea: Record<string, unknown>): LevelNote[] {
  const out: LevelNote[] = [];
  pushNote(out, 'Strike', idea.Strike);
  pushNote(out, 'Option entry', idea.EntryValue);
  pushNote(out, 'Option current', idea.Current_Value);
  const entry = finiteNumber(idea.EntryValue);
  if (entry !== null && entry > 0) {
    pushNote(out, 'Option target (+30%)', Math.round(entry * 130) / 100);
    pushNote(out, 'Option stop (−50%)', Math.round(entry * 50) / 100);
  }
  pushNote(out, 'Option exit', idea.ExitValue);
  return out;
}

/** The option trades screen's engine as the shared trade-idea parts show it. */
export const OPTIONS_VIEW = stockEngineView({ id: 'options', chartLines: optionChartLines, levelNotes: optionLevelNotes });
