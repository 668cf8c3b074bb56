import { Badge } from '@mantine/core';
import type { ReactNode } from 'react';
import { IMPORTED_MARKER, IMPORTED_MARKER_HINT, importedMarkerName } from '@signalboard/core';
import { TONE } from '../theme';

/** Never narrower than its word: a badge's label may shrink to nothing, and a crowded table would cut it to "Importe". */
const MARKER_STYLES = { root: { flexShrink: 0, minWidth: 'max-content' }, label: { overflow: 'visible' } } as const;

/**
 * Beside a symbol whose figures come from an imported price file (docs/data-in-and-out.md, "Where
 * imported figures are labelled"): 'Imported', named 'AAPL: imported prices' for assistive technology.
 */
export function ImportedMarker({ symbol }: { symbol: string }) {
  return (
    <Badge component="span" role="img" aria-label={importedMarkerName(symbol)} title={IMPORTED_MARKER_HINT} variant="outline" color={TONE.info} radius="sm" size="xs" tt="none" styles={MARKER_STYLES}>
      {IMPORTED_MARKER}
    </Badge>
  );
}

/**
 * A symbol as a list shows it, with the 'Imported' marker after it when its figures come from an
 * imported price file (one inline box, so a table's column grows to hold both).
 */
export function SymbolWithMarker({ symbol, imported, children }: { symbol: string; imported?: boolean | undefined; children?: ReactNode }) {
  if (!imported) return <>{children ?? symbol}</>;
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6, whiteSpace: 'nowrap' }}>
      {children ?? symbol}
      <ImportedMarker symbol={symbol} />
    </span>
  );
}
