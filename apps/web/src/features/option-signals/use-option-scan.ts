import { useCallback, useEffect, useReducer, useRef } from 'react';
import { ApiError } from '../../lib/client';
import { streamOptionScan } from './api/stream-option-scan';
import { INITIAL_OPTION_SCAN, INTERRUPTED_MESSAGE, optionScanReducer } from './option-scan-state';

const isAbort = (error: unknown) => error instanceof Error && error.name === 'AbortError';

/**
 * Runs one streamed Options Scanner request at a time: `start` (a new scan replaces the list and
 * stops a running one), `stop`. Leaving the screen stops the scan.
 */
export function useOptionScan() {
  const [state, dispatch] = useReducer(optionScanReducer, INITIAL_OPTION_SCAN);
  const current = useRef<AbortController | null>(null);

  const start = useCallback(async () => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    // Only the newest scan may change the state.
    const mine = () => current.current === controller;
    dispatch({ type: 'begin' });
    try {
      let ended = false;
      for await (const event of streamOptionScan(controller.signal)) {
        if (!mine()) return;
        dispatch({ type: 'event', event });
        if (event.type === 'end') ended = true;
      }
      if (mine() && !ended) dispatch(controller.signal.aborted ? { type: 'stopped' } : { type: 'failed', message: INTERRUPTED_MESSAGE });
    } catch (error) {
      if (!mine()) return;
      if (isAbort(error) || controller.signal.aborted) {
        dispatch({ type: 'stopped' });
      } else if (error instanceof ApiError && error.status === 401) {
        // The API client has already cleared the token and gone to the login screen.
        dispatch({ type: 'stopped' });
      } else {
        dispatch({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
      }
    } finally {
      if (mine()) current.current = null;
    }
  }, []);

  const stop = useCallback(() => current.current?.abort(), []);

  useEffect(() => () => current.current?.abort(), []);

  return { state, start, stop };
}
