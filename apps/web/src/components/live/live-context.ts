import { createContext } from 'react';
import type { LiveEvent, LiveStatus } from '../../lib/live';

export interface LiveContextValue {
  status: LiveStatus;
  /** Adds a screen's symbols to the stream's set; answers the removal. */
  addSymbols(symbols: readonly string[]): () => void;
  /** Listens to every event; answers the unsubscribe. */
  subscribe(listener: (event: LiveEvent) => void): () => void;
}

/** Outside a LiveProvider (the sign-in screens, unit tests of a screen) there is no stream: screens poll. */
export const LiveContext = createContext<LiveContextValue>({
  status: 'off',
  addSymbols: () => () => undefined,
  subscribe: () => () => undefined,
});
