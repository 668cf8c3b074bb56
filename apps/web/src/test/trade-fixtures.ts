import {
  dropItem,
  ideaDetail,
  optionTrade,
  layeredTrade,
  replayStatus,
  swingTrade,
  trackRecord,
  type DropItem,
  type IdeaDetail,
  type IdeaStats,
  type LayeredTrade,
  type OptionTrade,
  type ReplayStatus,
  type SwingTrade,
  type TrackRecord,
  type TrackRecordGroup,
} from '@signalboard/core';

/**
 * Trade-idea fixtures for the web tests. Each is parsed with the core contract's schema, so a
 * fixture of the wrong shape fails the test that uses it rather than passing against a made-up API.
 */

const stamps = (id: string) => ({
  Id: id,
  Market: 'US' as const,
  CloseReason: null,
  ClosedAt: null,
  ExitPrice: null,
  SignalPrice: 100,
  EntryPending: false,
  RuleVersion: 'x@1.0.0',
  ParamHash: '0123456789abcdef',
  Origin: 'live' as const,
  SurvivorshipBiased: false,
});

function levels(prefix: 'ENL' | 'EXL', prices: (number | null)[], hits: number) {
  const out: Record<string, unknown> = {};
  for (let n = 1; n <= 5; n += 1) {
    const price = prices[n - 1] ?? null;
    const hit = price !== null && n <= hits;
    out[`${prefix}${n}`] = price;
    out[`Is${prefix}${n}`] = hit;
    out[`${prefix}${n}_Count`] = hit ? 1 : 0;
    out[`${prefix}${n}_LastReached`] = hit ? '2026-11-02T21:00:00.000Z' : null;
  }
  return out;
}

export function layeredRow(overrides: Partial<LayeredTrade> & { Symbol: string; CreatedAt: string }): LayeredTrade {
  const id = `layered.${overrides.Symbol}.${overrides.CreatedAt.slice(0, 10)}`;
  return layeredTrade.parse({
    UpdatedAt: overrides.CreatedAt,
    IsActive: true,
    OriginalEntryPrice: 100,
    CurrentPrice: 98.5,
    ThirtyDayHigh: 104,
    ...levels('ENL', [100, 97.92, 94.88, 90.32, 85.76], 2),
    ...levels('EXL', [104, 107.12, 110.24, 113.36, 119.6], 0),
    CurrentProfit: -1.25,
    IsTarget: false,
    IsNewTrade: false,
    entriesHit: '2/5',
    exitsHit: '0/5',
    entryPlan: [
      { name: 'ENL5', price: 85.76, allocation: 20, hit: false, count: 0, lastReached: null },
      { name: 'ENL4', price: 90.32, allocation: 20, hit: false, count: 0, lastReached: null },
      { name: 'ENL3', price: 94.88, allocation: 20, hit: false, count: 0, lastReached: null },
      { name: 'ENL2', price: 97.92, allocation: 20, hit: true, count: 1, lastReached: '2026-11-02T21:00:00.000Z' },
      { name: 'ENL1', price: 100, allocation: 20, hit: true, count: 1, lastReached: '2026-11-01T21:00:00.000Z' },
    ],
    exitPlan: [
      { name: 'EXL1', price: 104, allocation: 20, hit: false, count: 0, lastReached: null },
      { name: 'EXL2', price: 107.12, allocation: 20, hit: false, count: 0, lastReached: null },
      { name: 'EXL3', price: 110.24, allocation: 20, hit: false, count: 0, lastReached: null },
      { name: 'EXL4', price: 113.36, allocation: 20, hit: false, count: 0, lastReached: null },
      { name: 'EXL5', price: 119.6, allocation: 20, hit: false, count: 0, lastReached: null },
    ],
    latestExitLevel: 104,
    Status: 'Active',
    PotentialProfit: 4,
    Budget: 10000,
    SharesHeld: 40.42,
    CapitalDeployed: 4000,
    Proceeds: 0,
    StepPct: 0.0104,
    StopPrice: 95.9,
    ...stamps(id),
    ...overrides,
  }) as LayeredTrade;
}

export function swingRow(overrides: Partial<SwingTrade> & { Symbol: string; DateCreated: string }): SwingTrade {
  const id = `swing.${overrides.Symbol}.${overrides.DateCreated.slice(0, 10)}`;
  return swingTrade.parse({
    EntryPrice: 50,
    CurrentPrice: 51,
    PercentProfitTarget1: 5,
    PercentProfitTarget2: 10,
    IsProfit1: false,
    IsProfit2: false,
    IsActive: true,
    IsDrop: false,
    NearSupport: false,
    CurrentProfit: 2,
    DateUpdated: overrides.DateCreated,
    TradeType: overrides.IsDrop ? 'Price Drop' : 'Trend',
    Status: 'Active',
    Target1Price: 52.5,
    Target2Price: 55,
    StopPrice: 46,
    ATRAtSignal: 1.6,
    RSI2: null,
    DropATR: null,
    VolumeRatio: 2.1,
    SupportLevel: null,
    EarningsSoon: false,
    ...stamps(id),
    ...overrides,
  });
}

export function optionRow(overrides: Partial<OptionTrade> & { Symbol: string; CreatedDate: string }): OptionTrade {
  const id = overrides.OptionsChainId ?? `options.${overrides.Symbol}.${overrides.CreatedDate.slice(0, 10)}`;
  return optionTrade.parse({
    OptionsChainId: id,
    ContractName: `${overrides.Symbol}261218C00150000`,
    Expiry: '2026-12-18',
    Side: 'CALL',
    EntryValue: 4.2,
    Current_Value: 4.62,
    Strike: 150,
    ProfitPercent: 10,
    CurrentPriceStock: 148.35,
    LastUpdatedDate: overrides.CreatedDate,
    IsActive: true,
    IsTargetHit: false,
    IsLevel: false,
    NewTrade: false,
    VolumeSpikeCheck: '0',
    VolumeSwingCheck: '0',
    SwingCheck: '0',
    RSIStatus: 'neutral',
    AlertKind: 'bounce',
    AlertCount: 1,
    StrengthScore: 0,
    PriceSource: 'chain',
    Sigma: 0.32,
    DeltaAtEntry: 0.45,
    EarningsInWindow: false,
    Status: overrides.IsActive === false ? (overrides.IsTargetHit ? 'Successful' : 'Failed') : 'Active',
    ExitValue: null,
    ...stamps(id),
    ...overrides,
  });
}

export function dropRow(overrides: Partial<DropItem> & { StockSymbol: string; StockCreatedDate: string; StockType: DropItem['StockType'] }): DropItem {
  const id = overrides.StockScannerId ?? `drop.${overrides.StockType}.${overrides.StockSymbol}.${overrides.StockCreatedDate.slice(0, 10)}`;
  const option = overrides.StockType === 'O';
  const base = stamps(id);
  return dropItem.parse({
    StockScannerId: id,
    Id: id,
    StockIsActive: true,
    DropThreshold: 7.5,
    StockEntryPrice: 80,
    StockCurrentPrice: 82,
    ProfitPercentage: 2.5,
    StockIsTarget: false,
    TargetValue: option ? 5.46 : 84,
    StockNews: 'Shares fell after the quarterly guidance cut.',
    Sentiment: 'Negative',
    StockUpdatedDate: overrides.StockCreatedDate,
    StockSectorName: 'Technology',
    OptionChainId: option ? `${id}.opt` : null,
    ContractName: option ? `${overrides.StockSymbol}261218C00080000` : null,
    OptionExpiry: option ? '2026-12-18' : null,
    OptionEntryValue: option ? 4.2 : null,
    OptionCurrentValue: option ? 4.83 : null,
    OptionProfitPercent: option ? 15 : null,
    DropObserved: 9.1,
    NewsTag: 'news-driven',
    LinkedSwingTradeId: null,
    Status: overrides.StockIsActive === false ? 'Deactivated' : 'Active',
    OptionExitValue: null,
    Market: base.Market,
    CloseReason: null,
    ClosedAt: null,
    ExitPrice: null,
    SignalPrice: 80,
    EntryPending: false,
    RuleVersion: 'drop@1.1.0',
    ParamHash: base.ParamHash,
    Origin: 'live',
    SurvivorshipBiased: false,
    ...overrides,
  });
}

export function stats(overrides: Partial<IdeaStats> = {}): IdeaStats {
  return {
    n: 42,
    entryWeeks: 17,
    wins: 25,
    winRate: { rate: 0.595, low: 0.445, high: 0.73 },
    breakEvenWinRate: 0.48,
    meanReturn: 0.0123,
    meanInterval: { low: -0.004, high: 0.029 },
    medianReturn: 0.021,
    avgWin: 0.051,
    avgLoss: -0.043,
    profitFactor: 1.62,
    dollarWeighted: null,
    holdingMedian: 12,
    holdingMax: 21,
    worstReturn: -0.087,
    maxAdverseExcursion: -0.11,
    exitReasons: { target: 0.45, stop: 0.3, time: 0.25 },
    statuses: { Successful: 0.4, Partial: 0.2, Failed: 0.4 },
    ...overrides,
  };
}

export function recordGroup(overrides: Partial<TrackRecordGroup> = {}): TrackRecordGroup {
  return {
    type: 'All',
    origin: 'replayed',
    ruleVersion: 'swing@1.0.0',
    mature: stats(),
    allClosed: stats({ n: 50 }),
    open: { count: 6, avgMark: 0.014, oldestSessions: 15 },
    voided: 2,
    baseline: { n: 840, winRate: { rate: 0.52, low: 0.49, high: 0.55 }, meanReturn: -0.002, dollarWeighted: null },
    benchmark: { symbol: 'SPY', meanReturn: 0.008, meanExcess: 0.0043 },
    ...overrides,
  };
}

export function record(engine: TrackRecord['engine'], groups: TrackRecordGroup[], overrides: Partial<TrackRecord> = {}): TrackRecord {
  return trackRecord.parse({
    engine,
    scope: { from: null, to: null, symbol: null },
    survivorshipNote: null,
    costBps: 5,
    groups,
    asOf: '2026-11-20T22:00:00.000Z',
    ...overrides,
  });
}

export function replay(overrides: Partial<ReplayStatus> & { engine: ReplayStatus['engine'] }): ReplayStatus {
  return replayStatus.parse({
    ruleVersion: `${overrides.engine}@1.0.0`,
    state: 'done',
    sessionsDone: 244,
    sessionsTotal: 244,
    startedAt: '2026-11-20T10:00:00.000Z',
    finishedAt: '2026-11-20T10:05:00.000Z',
    error: null,
    ...overrides,
  });
}

export function detail(overrides: Partial<IdeaDetail> & Pick<IdeaDetail, 'engine' | 'idea'>): IdeaDetail {
  return ideaDetail.parse({ events: [], bars: [], ...overrides });
}
