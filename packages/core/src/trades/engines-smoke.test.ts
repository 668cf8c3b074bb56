import { describe, expect, it } from 'vitest';
import { layeredTrade, swingTrade } from '../contract/trades';
import { isoFromDayNumber } from '../market/trading-calendar';
import { replay } from './kit/replay';
import { randomUniverse } from './kit/test-bars';
import { layeredEngine } from './layered';
import { swingEngine } from './swing';
import type { StoredIdeaEvent, UniverseMember } from './types';

describe('smoke', () => {
  it('runs', () => {
    const series = randomUniverse(7, 200, 504);
    const sessions = [...series.values().next().value!.day].slice(260).map((d) => isoFromDayNumber(d));
    const members: UniverseMember[] = [...series.keys()].map((symbol) => ({ symbol, market: 'US', survivorshipBiased: true }));
    for (const engine of [layeredEngine, swingEngine] as const) {
      const start = performance.now();
      const events = replay(engine as never, { series, sessions, universeFor: () => members, origin: 'replayed' }) as StoredIdeaEvent[];
      const byIdea = new Map<string, StoredIdeaEvent[]>();
      for (const e of events) byIdea.set(e.ideaId, [...(byIdea.get(e.ideaId) ?? []), e]);
      const counts: Record<string, number> = {};
      for (const e of events) counts[e.type] = (counts[e.type] ?? 0) + 1;
      const reasons: Record<string, number> = {};
      for (const list of byIdea.values()) {
        const row = engine.fold(list as never, null, '2025-01-01T00:00:00Z');
        (engine.id === 'layered' ? layeredTrade : swingTrade).parse(row);
        const r = String((row as { CloseReason: string | null }).CloseReason);
        reasons[r] = (reasons[r] ?? 0) + 1;
      }
      console.log(engine.id, (performance.now() - start).toFixed(0), 'ms', byIdea.size, counts, reasons);
      expect(byIdea.size).toBeGreaterThan(0);
    }
  });
});
