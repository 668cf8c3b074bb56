/**
 * The parameter table of `options@1.1.0` (docs/rules/option-trades.md §4) and the rule version. Frozen
 * per rule version: changing a value changes the ParamHash and needs a new version.
 */

export interface OptionsParams {
  warmupBars: number;
  /** Breakout / breakdown: close beyond the extreme close of the prior N sessions, and beyond SMA50. */
  breakoutSessions: number;
  /** Bounce / rejection: within swingAtr × ATR14 of a confirmed swing point of the last swingSessions; RSI14 beyond the cut. */
  swingSessions: number;
  swingAtr: number;
  bounceRsiMax: number;
  rejectionRsiMin: number;
  rsiSessions: number;
  /** VolumeSpikeCheck: volume(t) ≥ ratio × the mean of the N sessions before t. */
  volumeSpikeRatio: number;
  volumeSessions: number;
  rsiOversold: number;
  rsiOverbought: number;
  cooldownSessions: number;
  capacityPerDay: number;
  targetDte: number;
  dteRange: [number, number];
  dteFallback: [number, number];
  targetDelta: number;
  deltaRange: [number, number];
  minOpenInterest: number;
  maxSpreadOfMid: number;
  earningsSessions: number;
  /** r when the session gives none (DTB3 missing), and q (no dividend source). */
  defaultRate: number;
  dividendYield: number;
  /** σ = max(sigmaFloor, ivPremium × (½ YZ(yzShort) + ½ YZ(yzLong))) when neither the chain nor an index gives it. */
  sigmaFloor: number;
  ivPremium: number;
  yzShort: number;
  yzLong: number;
  /** 30-day IV index per underlying (VIX for SPY, VXN for QQQ). */
  ivIndexes: Record<string, string>;
  /** h: indexEtfs pay halfSpreadIndex, the rest halfSpreadOther; the index ETFs also use $1 strikes. */
  indexEtfs: string[];
  halfSpreadIndex: number;
  halfSpreadOther: number;
  /** Percent of EntryValue. */
  targetPct: number;
  stopPct: number;
  timeStopSessions: number;
  /** Time exit at the first close with DTE ≤ minDte. */
  minDte: number;
}

export const OPTIONS_PARAMS: OptionsParams = {
  warmupBars: 260,
  breakoutSessions: 20,
  swingSessions: 120,
  swingAtr: 0.5,
  bounceRsiMax: 35,
  rejectionRsiMin: 65,
  rsiSessions: 14,
  volumeSpikeRatio: 2,
  volumeSessions: 20,
  rsiOversold: 30,
  rsiOverbought: 70,
  cooldownSessions: 5,
  capacityPerDay: 10,
  targetDte: 35,
  dteRange: [28, 45],
  dteFallback: [21, 60],
  targetDelta: 0.45,
  deltaRange: [0.35, 0.55],
  minOpenInterest: 500,
  maxSpreadOfMid: 0.1,
  earningsSessions: 10,
  defaultRate: 0.04,
  dividendYield: 0,
  sigmaFloor: 0.15,
  ivPremium: 1.1,
  yzShort: 20,
  yzLong: 60,
  ivIndexes: { SPY: 'VIX', QQQ: 'VXN' },
  indexEtfs: ['SPY', 'QQQ', 'IWM', 'DIA'],
  halfSpreadIndex: 0.015,
  halfSpreadOther: 0.03,
  targetPct: 30,
  stopPct: 50,
  timeStopSessions: 10,
  minDte: 7,
};

/**
 * 1.1.0: one σ for the entry and its bar. 1.0.0 priced the entry at close t's σ but marked the entry
 * bar (its open, High, Low and close) at that session's chain, so a gap against the position that
 * raised the chain's IV booked a target at the entry's own open.
 */
export const OPTIONS_RULE_VERSION = 'options@1.1.0';
