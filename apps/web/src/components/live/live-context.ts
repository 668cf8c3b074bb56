import { createContext } from 'react';
import type { LiveEvent, LiveStatus } from '../../lib/live';

export interface LiveContextValue {
  status: LiveStatus;
  /** Adds a screen's symbols to the stream's set; answers the removal. */
  addSymbols(symbols: readonly string[]): () => void;
  /** Listens to every event; answers the unsubscribe. */
  subscribe(listener: (event: LiveEvent) => void): () => void;
  /**
   * Registers an engine's live query keys (its screen configuration's, EngineView.liveQueryKeys): its
   * idea updates make those stale from then on, for as long as the stream lives (the screen's cached
   * queries outlive the screen). An engine not registered: defaultIdeaQueryKeys.
   */
  addEngine(engine: LiveEngine): void;
}

/** What the live stream needs of an engine's screen configuration (EngineView). */
export interface LiveEngine {
  readonly id: string;
  readonly liveQueryKeys: readonly (readonly unknown[])[];
}

/** The queries any engine's idea update makes stale: its trade-idea queries (the lists, status, track record and details). */
export const defaultIdeaQueryKeys = (engine: string): unknown[][] => [['trade-ideas', engine]];

/** Outside a LiveProvider (the sign-in screens, unit tests of a screen) there is no stream: screens poll. */
export const LiveContext = createContext<LiveContextValue>({
  status: 'off',
  addSymbols: () => () => undefined,
  subscribe: () => () => undefined,
  addEngine: () => undefined,
});
