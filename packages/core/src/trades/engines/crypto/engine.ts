import type { CryptoTrade } from '../../../contract/crypto-trades';
import { dayNumber, isoFromDayNumber } from '../../../market/trading-calendar';
import { openOnly } from '../../kit/lifecycle';
import { paramHash } from '../../kit/param-hash';
import { compareCodePoints } from '../../kit/selection';
import { viewThrough } from '../../kit/series';
import { cryptoPassTimeOf } from '../../kit/times';
import { ideaIdOf, type DailySeries, type EngineDefinition, type IdeaEvent, type SessionInput } from '../../types';
import type { CryptoExtras } from './extras';
import { cryptoFieldsAt, type CryptoSnapshot } from './fields';
import { CRYPTO_PARAMS, CRYPTO_RULE_VERSION, type CryptoParams } from './params';
import { cryptoOutcome, foldCryptoRow } from './row';
import { CRYPTO_HORIZONS } from './series';
import { applyCryptoEvent, foldCrypto, type CryptoEventData, type CryptoOpenedData, type CryptoSignalChangedData, type CryptoState } from './state';
import { isCryptoMember } from './universe';

/**
 * Engine `crypto@1.0.0` (docs/rules/crypto.md §3; screen cryptoscanner, `GET api/all_crypto_scanner`):
 * signals, not trades — one row per coin of the universe, on UTC daily candles. Every UTC day is a
 * session; the pass deciding day D runs at D + 1, 00:05 UTC (kit/times cryptoPassTimeOf), and reads
 * the candles through D.
 *
 * Per session, for each coin of the universe (CRYPTO members not excluded by universe.ts) whose
 * last candle is the session's:
 * - no row yet and ≥ 30 candles: `opened` with the coin's fields (fields.ts);
 * - a row: one `signal_changed` per horizon whose displayed label differs from the row's (Short,
 *   Medium, Long in that order), then `updated` with the fields;
 * - a row whose coin is in extras.removals: `closed` (reason index_exit) instead.
 * A coin without a candle on the session is left alone that session. Events come ordered by
 * symbol (code point). Labels are the two-close hysteresis over the coin's whole history
 * (series.ts), so they do not depend on where a replay starts.
 */

function event<T extends keyof CryptoEventData>(series: DailySeries, ideaId: string, type: T, level: string, data: CryptoEventData[T]): IdeaEvent {
  const t = series.close.length - 1;
  return {
    ideaId,
    engine: 'crypto',
    market: series.market,
    symbol: series.symbol,
    type,
    level,
    barDate: isoFromDayNumber(series.day[t]!),
    price: series.close[t]!,
    data,
  };
}

/** One coin's events on the last candle of `series` (a view ending at the session's candle). */
function coinEvents(params: CryptoParams, state: CryptoState | null, ideaId: string, series: DailySeries, extras: CryptoExtras, now: string, survivorshipBiased: boolean): IdeaEvent[] {
  if (state && extras.removals?.has(series.symbol)) return [event(series, ideaId, 'closed', '', { reason: 'index_exit' })];
  const snapshot: CryptoSnapshot = cryptoFieldsAt(params, series, extras, Date.parse(now));
  if (!state) {
    const data: CryptoOpenedData = { ...snapshot, createdAt: now, survivorshipBiased };
    return [event(series, ideaId, 'opened', '', data)];
  }
  const out: IdeaEvent[] = [];
  for (const horizon of CRYPTO_HORIZONS) {
    const from = state.signals[horizon];
    const to = snapshot.signals[horizon];
    if (from === to) continue;
    const data: CryptoSignalChangedData = { horizon, from, to };
    out.push(event(series, ideaId, 'signal_changed', horizon, data));
  }
  out.push(event(series, ideaId, 'updated', '', snapshot));
  return out;
}

function runCryptoSession(input: SessionInput<CryptoParams, CryptoState, CryptoExtras>): IdeaEvent[] {
  const { params, session, bars, universe, openIdeas, extras } = input;
  const day = dayNumber(session.date);
  const onSession = (symbol: string): DailySeries | null => {
    const series = bars.get(symbol);
    return series && series.day.length > 0 && series.day[series.day.length - 1] === day ? series : null;
  };
  const perSymbol: { symbol: string; events: IdeaEvent[] }[] = [];
  const withRow = new Set<string>();
  for (const idea of openIdeas) {
    withRow.add(idea.symbol);
    const series = onSession(idea.symbol);
    if (!series) continue;
    perSymbol.push({ symbol: idea.symbol, events: coinEvents(params, idea.state, idea.ideaId, series, extras, session.now, idea.state.survivorshipBiased) });
  }
  for (const member of universe) {
    if (withRow.has(member.symbol) || !isCryptoMember(member) || extras.removals?.has(member.symbol)) continue;
    const series = onSession(member.symbol);
    if (!series || series.close.length < params.displayCandles) continue;
    withRow.add(member.symbol);
    perSymbol.push({ symbol: member.symbol, events: coinEvents(params, null, ideaIdOf('crypto', member.symbol, session.date), series, extras, session.now, member.survivorshipBiased) });
  }
  perSymbol.sort((a, b) => compareCodePoints(a.symbol, b.symbol));
  return perSymbol.flatMap((entry) => entry.events);
}

/**
 * docs/rules/track-record.md §6.4 b asks each engine for a forced draw; for crypto it is the coin's row forced
 * open on candle `signalIndex` (the 30-candle display rule skipped), then run through the same
 * session code on every later candle of the series. (The crypto record does not draw baselines:
 * its baseline is the scorecard's, §3.4.)
 */
function simulateCrypto(input: { params: CryptoParams; series: DailySeries; signalIndex: number; ideaId: string }): IdeaEvent[] {
  const { params, series, signalIndex, ideaId } = input;
  const events: IdeaEvent[] = [];
  let state: CryptoState | null = null;
  for (let end = signalIndex; end < series.close.length; end += 1) {
    const view = viewThrough(series, end);
    const now = cryptoPassTimeOf(isoFromDayNumber(series.day[end]!));
    for (const emitted of coinEvents(params, state, ideaId, view, {}, now, false)) {
      events.push(emitted);
      state = applyCryptoEvent(state, emitted);
    }
  }
  return events;
}

export function createCryptoEngine(params: CryptoParams = CRYPTO_PARAMS): EngineDefinition<CryptoParams, CryptoState, CryptoTrade, CryptoExtras> {
  return {
    id: 'crypto',
    calendar: 'utc',
    ruleVersion: CRYPTO_RULE_VERSION,
    params,
    paramHash: paramHash(params),
    warmupBars: params.replayWarmupCandles,
    // The longest scorecard horizon: a signal's forward returns are all known 90 days after it.
    maxHoldSessions: Math.max(...params.scorecardDays),
    runSession: runCryptoSession,
    openState: (events) => openOnly(foldCrypto(events)),
    fold: (events, mark, now) => foldCryptoRow(events, mark, now, params),
    cooldownKey: (item) => item.symbol,
    simulate: simulateCrypto,
    outcome: cryptoOutcome,
  };
}

export const cryptoEngine = createCryptoEngine();
