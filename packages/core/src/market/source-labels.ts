/**
 * How every screen, export and alert names where a figure came from (docs/data-in-and-out.md, "Where
 * imported figures are labelled"). The installation's source has one label; a figure computed from an
 * imported price file's bars, or a price that is the last imported bar, adds "imported prices" to it.
 */

export type MarketSourceId = 'simulated' | 'file' | 'live';

/** The installation's market source as the screens and the alert messages name it. */
export const MARKET_SOURCE_LABELS: Readonly<Record<MarketSourceId, string>> = { simulated: 'Simulated market', file: 'Dataset', live: 'Live market data' };

/** The words added to a source label for figures from imported price files. */
export const IMPORTED_PRICES = 'imported prices';

/** The label of a source id (an unknown id is shown as it is). */
export const marketSourceLabel = (source: string): string => MARKET_SOURCE_LABELS[source as MarketSourceId] ?? source;

/**
 * The source of figures, imported or not: 'Simulated market', 'Simulated market, imported prices'.
 * With `importedCount` (a list's header: how many of its symbols' figures are imported):
 * 'Simulated market, imported prices for 3 symbols' ('for 1 symbol'); 0 gives the bare label.
 */
export function figureSourceLabel(source: string, imported: boolean | number): string {
  const label = marketSourceLabel(source);
  if (imported === false || imported === 0) return label;
  if (imported === true) return importedSourceLabel(label);
  return `${label}, ${importedPricesFor(imported)}`;
}

/** A list's count of symbols with imported figures: 'imported prices for 1 symbol', 'for 3 symbols'. */
export const importedPricesFor = (count: number): string => `${IMPORTED_PRICES} for ${count} ${count === 1 ? 'symbol' : 'symbols'}`;

/** A source label of figures from imported price files: 'Simulated market' → 'Simulated market, imported prices' (once). */
export const importedSourceLabel = (label: string): string => (label.endsWith(`, ${IMPORTED_PRICES}`) ? label : `${label}, ${IMPORTED_PRICES}`);

/** A row's marker (its visible text) and its accessible name: 'Imported', 'AAPL: imported prices'. */
export const IMPORTED_MARKER = 'Imported';
export const importedMarkerName = (symbol: string) => `${symbol}: ${IMPORTED_PRICES}`;
/** What the marker's tooltip says. */
export const IMPORTED_MARKER_HINT = 'Figures computed from an imported price file (Administration → Data), not from the market source.';
