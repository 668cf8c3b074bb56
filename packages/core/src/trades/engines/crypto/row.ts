import type { CryptoTrade } from '../../../contract/crypto-trades';
import type { IdeaOutcome, Mark, StoredIdeaEvent } from '../../types';
import { roundCryptoValue } from './format';
import type { CryptoParams } from './params';
import { foldCrypto } from './state';

const HOUR_MS = 3_600_000;

/** max(0, (high − price) / high × 100); null when the high is null or not positive. */
export function cryptoDropPercent(high: number | null, price: number): number | null {
  if (high === null || !(high > 0)) return null;
  return Math.max(0, ((high - price) / high) * 100);
}

function latestInstant(a: string, b: string | undefined): string {
  return b !== undefined && Date.parse(b) > Date.parse(a) ? b : a;
}

/**
 * A coin's API row: the fold of its events (oldest first), marked at `mark` (the intraday price)
 * while active, else at the last candle's close. The drops follow CurrentPrice; every other value is
 * the last pass's, on its candle. Numbers are rounded to the spec §9 formats (CRYPTO_DECIMALS).
 * DateCreated is the recording time of the last `signal_changed` (else of `opened`); DateUpdated
 * the last event's, or the mark's when later. IsNew: DateCreated within 24 h of `now`.
 */
export function foldCryptoRow(events: readonly StoredIdeaEvent[], mark: Mark | null, now: string, params: Pick<CryptoParams, 'newHours'>): CryptoTrade {
  const opened = events[0];
  const state = foldCrypto(events);
  if (!opened || opened.type !== 'opened' || !state) throw new Error('crypto fold: the first event must be `opened`');
  const last = events[events.length - 1]!;
  let created = opened.recordedAt;
  for (const event of events) if (event.type === 'signal_changed') created = event.recordedAt;
  const active = !state.closed;
  const snap = state.snapshot;
  const price = active && mark ? mark.price : snap.close;
  return {
    Symbol: state.symbol,
    CurrentPrice: roundCryptoValue('CurrentPrice', price)!,
    RSIValue: roundCryptoValue('RSIValue', snap.rsi),
    ATR_14_Day: roundCryptoValue('ATR_14_Day', snap.atr),
    DropPercentage: roundCryptoValue('DropPercentage', cryptoDropPercent(snap.oneMonthHigh, price)),
    DropPercentage60: roundCryptoValue('DropPercentage60', cryptoDropPercent(snap.sixMonthHigh, price)),
    VolumeLevel: roundCryptoValue('VolumeLevel', snap.volumeLevel),
    OneMonthHigh: roundCryptoValue('OneMonthHigh', snap.oneMonthHigh),
    SixMonthHigh: roundCryptoValue('SixMonthHigh', snap.sixMonthHigh),
    SwingLevel: roundCryptoValue('SwingLevel', snap.swingLevel),
    IsSwingLevel: snap.isSwingLevel,
    Trend: snap.trend,
    NewsSentiment: snap.sentiment,
    ShortTermSignal: state.signals.Short,
    MediumTermSignal: state.signals.Medium,
    LongTermSignal: state.signals.Long,
    News: snap.news,
    DateCreated: created,
    DateUpdated: latestInstant(last.recordedAt, active ? mark?.at : undefined),
    VolumeLabel: snap.volumeLabel,
    IsNew: Date.parse(now) - Date.parse(created) < params.newHours * HOUR_MS,
    SwingKind: snap.swingKind,
    ADX: roundCryptoValue('ADX', snap.adx),
    PlusDI: roundCryptoValue('PlusDI', snap.plusDi),
    MinusDI: roundCryptoValue('MinusDI', snap.minusDi),
    NewsScore: roundCryptoValue('NewsScore', snap.newsScore),
    HeadlineCount: snap.headlines,
    SentimentSource: snap.sentimentSource,
    Candles: snap.candles,
    CandleDate: snap.candleDate,
    LastClose: roundCryptoValue('LastClose', snap.close)!,
    SignalChangedOn: state.lastChangeDate,
    Unavailable: snap.unavailable,
    IsActive: active,
    Id: opened.ideaId,
    Market: opened.market,
    CloseReason: state.closeReason,
    ClosedAt: state.closed ? last.recordedAt : null,
    ExitPrice: null,
    SignalPrice: roundCryptoValue('LastClose', state.lastChangeClose)!,
    EntryPending: false,
    RuleVersion: opened.ruleVersion,
    ParamHash: opened.paramHash,
    Origin: opened.origin,
    SurvivorshipBiased: state.survivorshipBiased,
  };
}

/**
 * The crypto engine's rows are signals, not trades: none is an entered idea, so none counts in the
 * §6 track record (docs/rules/track-record.md §6.4: crypto uses docs/rules/crypto.md §3.4 instead). Its record is the signal
 * scorecard, computeCryptoScorecard over the `signal_changed` log.
 */
export function cryptoOutcome(): IdeaOutcome | null {
  return null;
}
