import { Badge } from '@mantine/core';
import { IMPORTED_MARKER, IMPORTED_MARKER_HINT, importedMarkerName } from '@signalboard/core';
import { TONE } from '../theme';

/**
 * Beside a symbol whose figures come from an imported price file (docs/data-in-and-out.md, "Where
 * imported figures are labelled"): 'Imported', named 'AAPL: imported prices' for assistive technology.
 */
export function ImportedMarker({ symbol }: { symbol: string }) {
  return (
    <Badge component="span" role="img" aria-label={importedMarkerName(symbol)} title={IMPORTED_MARKER_HINT} variant="outline" color={TONE.info} radius="sm" size="xs" tt="none" style={{ flexShrink: 0, verticalAlign: 'middle' }}>
      {IMPORTED_MARKER}
    </Badge>
  );
}

/** A symbol as a list shows it, with the 'Imported' marker when its figures come from an imported price file. */
export function SymbolWithMarker({ symbol, imported }: { symbol: string; imported?: boolean | undefined }) {
  return (
    <>
      {symbol}
      {imported && (
        <>
          {' '}
          <ImportedMarker symbol={symbol} />
        </>
      )}
    </>
  );
}
