import { cryptoScorecard, cryptoTrade, type CryptoScorecard, type CryptoScorecardCell, type CryptoScorecardGroup, type CryptoTrade } from '@signalboard/core';

/**
 * Crypto Scanner fixtures for the web tests, parsed with the core contract's schemas so a fixture
 * of the wrong shape fails the test that uses it.
 */

/** A warm coin with every field; override what the test is about. */
export function cryptoRow(overrides: Partial<CryptoTrade> & { Symbol: string }): CryptoTrade {
  return cryptoTrade.parse({
    Id: `crypto.${overrides.Symbol}`,
    Market: 'CRYPTO',
    CurrentPrice: 100,
    RSIValue: 50,
    ATR_14_Day: 2,
    DropPercentage: 5,
    DropPercentage60: 10,
    VolumeLevel: 1,
    OneMonthHigh: 105.26315789,
    SixMonthHigh: 111.11111111,
    SwingLevel: 98,
    IsSwingLevel: '0',
    Trend: 'No Clear Trend',
    NewsSentiment: 'Neutral',
    ShortTermSignal: 'Hold',
    MediumTermSignal: 'Hold',
    LongTermSignal: 'Hold',
    News: 'No recent news summary available.',
    DateCreated: '2026-11-01T00:05:00.000Z',
    DateUpdated: '2026-11-20T00:05:00.000Z',
    VolumeLabel: 'Normal',
    IsNew: false,
    SwingKind: 'low',
    ADX: 20,
    PlusDI: 20,
    MinusDI: 20,
    NewsScore: null,
    HeadlineCount: 0,
    SentimentSource: null,
    Candles: 400,
    CandleDate: '2026-11-19',
    LastClose: 100,
    SignalChangedOn: '2026-10-31',
    Unavailable: [],
    IsActive: true,
    CloseReason: null,
    ClosedAt: null,
    ExitPrice: null,
    SignalPrice: 100,
    EntryPending: false,
    RuleVersion: 'crypto@1.0.0',
    ParamHash: '0123456789abcdef',
    Origin: 'live',
    SurvivorshipBiased: false,
    ...overrides,
  });
}

export function scorecardCell(overrides: Partial<CryptoScorecardCell> & { days: number }): CryptoScorecardCell {
  return {
    n: 0,
    pending: 0,
    mean: null,
    median: null,
    sharePositive: null,
    meanInterval: null,
    baseline: null,
    excess: null,
    benchmark: { symbol: 'BTC', n: overrides.n ?? 0, meanReturn: null, meanExcess: null },
    ...overrides,
  };
}

export function scorecardGroup(overrides: Partial<CryptoScorecardGroup> & Pick<CryptoScorecardGroup, 'horizon' | 'label'>): CryptoScorecardGroup {
  return {
    ruleVersion: 'crypto@1.0.0',
    origin: 'replayed',
    sign: overrides.label === 'Sell' ? -1 : 1,
    signals: 0,
    cells: [7, 30, 90].map((days) => scorecardCell({ days })),
    ...overrides,
  };
}

/**
 * The Short-term Buy group the scorecard tests share: 40 signal changes; at 7 days 36 scored (a mean
 * with its interval, a share positive, the baseline, and BTC's benchmark over `benchmarkN` of them),
 * at 30 days 12 (a mean and a share, no interval), at 90 days none yet (all 40 pending).
 */
export function scoredBuyGroup(benchmarkN = 36): CryptoScorecardGroup {
  return scorecardGroup({
    horizon: 'Short',
    label: 'Buy',
    signals: 40,
    cells: [
      scorecardCell({
        days: 7,
        n: 36,
        pending: 4,
        mean: 0.0123,
        median: 0.01,
        meanInterval: { low: -0.004, high: 0.0281 },
        sharePositive: { rate: 0.5833, low: 0.4217, high: 0.7288 },
        baseline: 0.0051,
        excess: 0.0072,
        benchmark: { symbol: 'BTC', n: benchmarkN, meanReturn: 0.008, meanExcess: 0.0043 },
      }),
      scorecardCell({ days: 30, n: 12, pending: 28, mean: -0.02, sharePositive: { rate: 0.4167, low: 0.1933, high: 0.6806 } }),
      scorecardCell({ days: 90, n: 0, pending: 40 }),
    ],
  });
}

export function scorecard(groups: CryptoScorecardGroup[], overrides: Partial<CryptoScorecard> = {}): CryptoScorecard {
  return cryptoScorecard.parse({
    asOf: '2026-11-19',
    window: { from: '2025-06-01', to: '2026-11-19' },
    symbol: null,
    days: [7, 30, 90],
    benchmarkSymbol: 'BTC',
    groups,
    ...overrides,
  });
}
