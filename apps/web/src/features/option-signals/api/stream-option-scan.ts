import { optionScanEvent, optionSignalsEndpoints, type OptionScanEvent } from '@signalboard/core';
import { streamNdjson } from '../../../lib/ndjson';

/** Checks one streamed line against the fixed contract (packages/core/src/contract/scans.ts). */
function parseEvent(value: unknown): OptionScanEvent {
  const parsed = optionScanEvent.safeParse(value);
  if (!parsed.success) throw new Error('The server sent a scan update this page does not understand. Reload the page and try again.');
  return parsed.data;
}

/** POST api/scan/options: the Options Scanner over the favourites, one event at a time as it streams. */
export const streamOptionScan = (signal: AbortSignal) => streamNdjson(optionSignalsEndpoints.scanOptions, { signal, parse: parseEvent });
