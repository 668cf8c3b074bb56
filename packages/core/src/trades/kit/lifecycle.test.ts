import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../market/trading-calendar';
import type { IdeaEvent } from '../types';
import { applyClosed, applyStopHit, applyVoided, closeLifecycle, foldWith, openLifecycle, openOnly, sessionEmitter, type ClosingState, type StockExitState } from './lifecycle';

type TestState = ClosingState & StockExitState & { symbol: string; signalDate: string; signalPrice: number; entryPending: boolean; fills: number };

const eventOf = (type: IdeaEvent['type'], barDate: string, price: number | null, data: Record<string, unknown> = {}): IdeaEvent => ({
  ideaId: 'swing.AAA.2026-03-02',
  engine: 'swing',
  market: 'US',
  symbol: 'AAA',
  type,
  level: '',
  barDate,
  price,
  data,
});

function freshState(): TestState {
  return {
    ...openLifecycle(eventOf('opened', '2026-03-02', 10)),
    fills: 0,
    exitPending: false,
    closed: false,
    closeReason: null,
    exitPrice: null,
    closedDay: null,
    exitAt: null,
    sessionsHeld: null,
    maxAdverseExcursion: null,
  };
}

/** A toy reducer built from the kit's steps (opened, entry_filled, stop_hit, closed, voided). */
function applyTest(state: TestState | null, event: IdeaEvent): TestState | null {
  if (event.type === 'opened') return { ...freshState(), ...openLifecycle(event) };
  if (!state) return null;
  const day = dayNumber(event.barDate);
  if (event.type === 'entry_filled') {
    state.entryPending = false;
    state.fills += 1;
  } else if (event.type === 'stop_hit') applyStopHit(state);
  else if (event.type === 'closed') applyClosed(state, { price: event.price, data: { reason: 'stop', exitAt: 'open', sessionsHeld: 3, maxAdverseExcursion: -0.04 } }, day);
  else if (event.type === 'voided') applyVoided(state, day);
  return state;
}

describe('trade lifecycle kit', () => {
  it('openLifecycle: symbol, signal date and price, entry pending (price 0 when the event has none)', () => {
    expect(openLifecycle(eventOf('opened', '2026-03-02', 12.5))).toEqual({ symbol: 'AAA', signalDate: '2026-03-02', signalPrice: 12.5, entryPending: true });
    expect(openLifecycle(eventOf('opened', '2026-03-02', null)).signalPrice).toBe(0);
    expect(Object.keys(openLifecycle(eventOf('opened', '2026-03-02', 1)))).toEqual(['symbol', 'signalDate', 'signalPrice', 'entryPending']);
  });

  it('closeLifecycle sets the close fields only; applyClosed adds the exit price and clears a pending exit', () => {
    const day = dayNumber('2026-03-10');
    const facts = { reason: 'time' as const, exitAt: 'close' as const, sessionsHeld: 21, maxAdverseExcursion: -0.1 };
    const onlyClose = freshState();
    closeLifecycle(onlyClose, facts, day);
    expect(onlyClose).toEqual({ ...freshState(), closed: true, closeReason: 'time', closedDay: day, exitAt: 'close', sessionsHeld: 21, maxAdverseExcursion: -0.1 });

    const stock = { ...freshState(), exitPending: true };
    applyClosed(stock, { price: 11.25, data: facts }, day);
    expect(stock).toEqual({ ...freshState(), closed: true, closeReason: 'time', exitPrice: 11.25, closedDay: day, exitAt: 'close', exitPending: false, sessionsHeld: 21, maxAdverseExcursion: -0.1 });
  });

  it('applyVoided closes a pending entry with reason void and leaves the exit alone', () => {
    const state = freshState();
    applyVoided(state, dayNumber('2026-03-03'));
    expect(state).toEqual({ ...freshState(), closed: true, closeReason: 'void', entryPending: false, closedDay: dayNumber('2026-03-03') });
  });

  it('applyStopHit leaves an exit pending for the next open', () => {
    const state = freshState();
    applyStopHit(state);
    expect(state).toEqual({ ...freshState(), exitPending: true });
  });

  it('foldWith folds forward from null; nothing before `opened`', () => {
    const fold = foldWith(applyTest);
    expect(fold([])).toBeNull();
    expect(fold([eventOf('entry_filled', '2026-03-03', 10)])).toBeNull();
    const log = [eventOf('opened', '2026-03-02', 10), eventOf('entry_filled', '2026-03-03', 10.2), eventOf('stop_hit', '2026-03-05', 9), eventOf('closed', '2026-03-06', 8.9)];
    let byHand: TestState | null = null;
    for (const event of log) byHand = applyTest(byHand, event);
    expect(fold(log)).toEqual(byHand);
    expect(fold(log)).toMatchObject({ fills: 1, entryPending: false, exitPending: false, closed: true, exitPrice: 8.9, closedDay: dayNumber('2026-03-06') });
  });

  it('openOnly answers the state while open, null once closed or never opened', () => {
    const state = freshState();
    expect(openOnly(state)).toBe(state);
    expect(openOnly(null)).toBeNull();
    expect(openOnly({ ...state, closed: true })).toBeNull();
  });

  it('sessionEmitter stamps each event on the view’s last bar and applies it as it is emitted', () => {
    const series = {
      symbol: 'AAA',
      market: 'US' as const,
      day: Int32Array.from([dayNumber('2026-03-04'), dayNumber('2026-03-05')]),
      open: new Float64Array(2),
      high: new Float64Array(2),
      low: new Float64Array(2),
      close: new Float64Array(2),
      volume: new Float64Array(2),
    };
    const state = freshState();
    const seen: boolean[] = [];
    const { events, emit } = sessionEmitter<{ stop_hit: { stop: number }; closed: { reason: string } }, TestState>('swing', 'swing.AAA.2026-03-02', series, state, (s, event) => {
      seen.push(s.exitPending);
      applyTest(s, event);
    });
    emit('stop_hit', 'STOP', 9, { stop: 9.5 });
    expect(state.exitPending).toBe(true);
    emit('closed', '', 8.9, { reason: 'stop' });
    expect(seen).toEqual([false, true]);
    expect(state.closed).toBe(true);
    expect(JSON.stringify(events)).toBe(
      JSON.stringify([
        { ideaId: 'swing.AAA.2026-03-02', engine: 'swing', market: 'US', symbol: 'AAA', type: 'stop_hit', level: 'STOP', barDate: '2026-03-05', price: 9, data: { stop: 9.5 } },
        { ideaId: 'swing.AAA.2026-03-02', engine: 'swing', market: 'US', symbol: 'AAA', type: 'closed', level: '', barDate: '2026-03-05', price: 8.9, data: { reason: 'stop' } },
      ]),
    );
  });
});
