import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createLiveClient, type LiveClient, type LiveEvent, type LiveStatus } from '../../lib/live';
import { defaultIdeaQueryKeys, LiveContext, type LiveContextValue } from './live-context';

/**
 * One live-update stream for the signed-in app (mounted by the dashboard shell). Screens add the
 * symbols they show (the union is the stream's set) and listen to events; an engine's idea update
 * re-reads that engine's queries here, so every trade screen follows without polling: the keys its
 * screen registered (useLiveEngine with its EngineView), or its trade-idea queries (defaultIdeaQueryKeys).
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>('off');
  const listeners = useRef(new Set<(event: LiveEvent) => void>());
  const symbolCounts = useRef(new Map<string, number>());
  const client = useRef<LiveClient | null>(null);
  // Engines whose screens registered their query keys: kept after the screen closes, as its cached queries are.
  const engineKeys = useRef(new Map<string, readonly (readonly unknown[])[]>());

  useEffect(() => {
    const live = createLiveClient({
      onStatus: setStatus,
      onEvent: (event) => {
        if (event.type === 'ideas') {
          for (const queryKey of engineKeys.current.get(event.engine) ?? defaultIdeaQueryKeys(event.engine)) void queryClient.invalidateQueries({ queryKey });
        }
        for (const listener of [...listeners.current]) listener(event);
      },
    });
    client.current = live;
    live.setSymbols([...symbolCounts.current.keys()]);
    live.start();
    return () => {
      live.stop();
      client.current = null;
    };
  }, [queryClient]);

  const value = useMemo<LiveContextValue>(() => {
    const push = () => client.current?.setSymbols([...symbolCounts.current.keys()]);
    return {
      status,
      addSymbols(symbols) {
        const unique = [...new Set(symbols.map((symbol) => symbol.toUpperCase()))];
        for (const symbol of unique) symbolCounts.current.set(symbol, (symbolCounts.current.get(symbol) ?? 0) + 1);
        push();
        return () => {
          for (const symbol of unique) {
            const count = (symbolCounts.current.get(symbol) ?? 1) - 1;
            if (count <= 0) symbolCounts.current.delete(symbol);
            else symbolCounts.current.set(symbol, count);
          }
          push();
        };
      },
      subscribe(listener) {
        listeners.current.add(listener);
        return () => listeners.current.delete(listener);
      },
      addEngine(engine) {
        engineKeys.current.set(engine.id, engine.liveQueryKeys);
      },
    };
  }, [status]);

  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}
