/**
 * The parameter table of `drop@1.1.0` (docs/rules/drop-items.md §5) and the rule version. Frozen per
 * rule version: changing a value changes the ParamHash and needs a new version.
 */

export interface DropParams {
  warmupBars: number;
  /** Best of S&P 500: SMA200(t) > SMA200(t − bestSlopeLag); momentum close(t − skip)/close(t − lookback) − 1; top ⌈n × bestFraction⌉. */
  bestSlopeLagSessions: number;
  momentumSkipSessions: number;
  momentumLookbackSessions: number;
  bestFraction: number;
  /** S: drop from the sHighSessions high ≥ max(sMinDrop, sAtrMultiple × ATR%), close > SMA200. */
  sHighSessions: number;
  sMinDrop: number;
  sAtrMultiple: number;
  sTargetPct: number;
  sStopAtr: number;
  sTimeStopSessions: number;
  sCooldownSessions: number;
  /** L: drop from the lHighSessions high ≥ lMinDrop; target lTargetOfHigh × that high (also the void price). */
  lHighSessions: number;
  lMinDrop: number;
  lTargetOfHigh: number;
  lStopOfEntry: number;
  lTimeStopSessions: number;
  lCooldownSessions: number;
  /** O: drop from the oHighSessions high ≥ max(oMinDrop, oAtrMultiple × ATR%), close > SMA200. */
  oHighSessions: number;
  oMinDrop: number;
  oAtrMultiple: number;
  /** O's barriers on the option: target 1 + oTargetPct/100, stop 1 − oStopPct/100 of the entry value. */
  oTargetPct: number;
  oStopPct: number;
  oTimeStopSessions: number;
  oMinDte: number;
  oCooldownSessions: number;
  /** Per type and day. */
  capacityPerType: number;
  /** Sentiment is 'Neutral' below this many headlines. */
  minHeadlines: number;
}

export const DROP_PARAMS: DropParams = {
  warmupBars: 260,
  bestSlopeLagSessions: 21,
  momentumSkipSessions: 21,
  momentumLookbackSessions: 252,
  bestFraction: 0.5,
  sHighSessions: 20,
  sMinDrop: 0.07,
  sAtrMultiple: 3,
  sTargetPct: 5,
  sStopAtr: 3.5,
  sTimeStopSessions: 21,
  sCooldownSessions: 10,
  lHighSessions: 252,
  lMinDrop: 0.2,
  lTargetOfHigh: 0.95,
  lStopOfEntry: 0.7,
  lTimeStopSessions: 252,
  lCooldownSessions: 63,
  oHighSessions: 5,
  oMinDrop: 0.04,
  oAtrMultiple: 2,
  oTargetPct: 30,
  oStopPct: 50,
  oTimeStopSessions: 10,
  oMinDte: 7,
  oCooldownSessions: 10,
  capacityPerType: 10,
  minHeadlines: 3,
};

/**
 * 1.1.0: one σ for an O item's entry and its bar (docs/strategies/option-sigma.md), as options@1.1.0.
 * 1.0.0 priced the entry at close t's σ but valued the entry bar's open, High, Low and close at that
 * session's chain IV and bid, so a gap against the CALL that raised the IV booked a target at the
 * entry's own open.
 */
export const DROP_RULE_VERSION = 'drop@1.1.0';
