import type { TradeEngine } from '../../lib/api/trade-ideas';
import { defaultIdeaQueryKeys } from '../live/live-context';
import { formatPrice } from '../format';
import type { ChartLine, LevelNote } from './chart-model';

/**
 * One engine's screen configuration: what the shared trade-idea code (the idea detail's chart, its
 * levels and log; the live updates) needs to know of the engine, so that it never branches on one.
 * Each engine's is in its screen's feature folder (features/crypto/crypto-view.ts …); the screen
 * passes it to the shared parts (useIdeaScreen, IdeaListSection, IdeaDetailModal), and registers it
 * with the live stream (useLiveEngine).
 */
export interface EngineView<E extends TradeEngine = TradeEngine> {
  /** The engine's id: its trade-idea calls, its queries and its live events. */
  readonly id: E;
  /** What one of its ideas is called in the detail's title ('AAPL · idea detail', 'BTC · coin detail'). */
  readonly noun: string;
  /** The horizontal lines of an idea's chart, from its row (docs/ui.md "Charts"). */
  readonly chartLines: (idea: Record<string, unknown>) => ChartLine[];
  /** The levels its chart cannot draw, shown as text only (an option's values). */
  readonly levelNotes: (idea: Record<string, unknown>) => LevelNote[];
  /** A price in the levels and the event log. */
  readonly formatPrice: (value: number) => string;
  /** The decimals of the chart's price scale, from the bars' closes. */
  readonly chartPrecision: (closes: readonly number[]) => number;
  /** The chart's accessible name. */
  readonly chartLabel: (symbol: string) => string;
  /** The query keys an idea update of this engine makes stale (LiveProvider). */
  readonly liveQueryKeys: readonly (readonly unknown[])[];
}

/**
 * A stock engine's view: its own `id` and `chartLines` (and anything else it overrides), the rest
 * as every stock screen has it: 'idea', prices to the cent, a two-decimal chart scale, no level
 * notes, and its trade-idea queries made stale by its live updates.
 */
export function stockEngineView<E extends TradeEngine>(view: Pick<EngineView<E>, 'id' | 'chartLines'> & Partial<EngineView<E>>): EngineView<E> {
  return {
    noun: 'idea',
    levelNotes: () => [],
    formatPrice: (value) => formatPrice(value),
    chartPrecision: () => 2,
    chartLabel: (symbol) => `${symbol} daily candles with the idea's levels and events`,
    liveQueryKeys: defaultIdeaQueryKeys(view.id),
    ...view,
  };
}
