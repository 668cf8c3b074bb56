import type { EarningsRow, EconomicIndicator, GetFavoriteStocksResponse, MarketOverview, OverallSentiment, SectorSentiment } from '@signalboard/core';

/** Answers of the dashboard's calls for the screen's tests (the browser's "now" is TODAY 10:30). */

export const TODAY = '2026-11-20';
export const NOW = new Date(2026, 10, 20, 10, 30, 0);
const at = (hours: number, minutes = 0) => new Date(2026, 10, 20, hours, minutes).toISOString();

export const OVERALL: OverallSentiment[] = [
  {
    GptSummary: 'Stocks rose. Tech led gains. Bonds were flat. Oil fell sharply.\nThe Fed meets next week.',
    DateCreated: at(10, 0),
    NewsCount: 12,
    SentimentTone: 'positive',
    SentimentScore: 0.42,
  },
  { GptSummary: 'An older summary.', DateCreated: at(9, 30), NewsCount: 8, SentimentTone: 'neutral', SentimentScore: 0 },
];

const LONG_SUMMARY = `Refiners ${'gained ground on wider margins '.repeat(6)}`.trim();

export const ENERGY_NEWS = [
  { title: 'Oil slides on supply', url: 'https://news.example.com/oil', image: 'https://img.example.com/oil.jpg', summary: 'Crude fell 3%.' },
  { title: 'Refiners rally', url: 'https://news.example.com/refiners', image: '', summary: LONG_SUMMARY },
  { title: 'Unsafe link story', url: 'javascript:alert(1)', image: 'javascript:alert(2)', summary: 'Should not be a link.' },
  { title: 'Gas prices steady', url: 'https://news.example.com/gas', image: null, summary: 'Flat week.' },
  { title: 'Solar names jump', url: 'http://news.example.com/solar', image: null, summary: 'Policy hopes.' },
];
export { LONG_SUMMARY };

export const SECTORS: SectorSentiment[] = [
  {
    IndicatorName: 'Energy',
    GptSummary: 'Oil slid. Refiners gained. Gas was flat.',
    LastUpdatedUtc: at(10, 15),
    ValueRawJson: JSON.stringify(ENERGY_NEWS),
    SentimentTone: 'negative',
    SentimentScore: -0.35,
  },
  { IndicatorName: 'Materials', GptSummary: 'A quiet day.', LastUpdatedUtc: at(10, 5), ValueRawJson: '[]', SentimentTone: 'neutral', SentimentScore: 0 },
  { IndicatorName: 'Utilities', GptSummary: '', LastUpdatedUtc: at(9, 55), ValueRawJson: 'not json {', SentimentTone: 'mixed', SentimentScore: 0.05 },
];

export const INDICATORS: EconomicIndicator[] = [
  {
    IndicatorName: 'Unemployment Rate',
    IndicatorCode: 'UNRATE',
    Interval: 'Monthly',
    Unit: 'Percent',
    GptSummary: 'Unemployment ticked up to 4.2%.',
    LastUpdatedUtc: at(8, 0),
    ValueRawJson: JSON.stringify([
      { date: '2026-10-01', value: 4.2 },
      { date: '2026-09-01', value: '4.1' },
      { date: '2026-08-01', value: 4.0 },
    ]),
  },
  {
    IndicatorName: 'Consumer Price Index',
    IndicatorCode: 'CPIAUCSL',
    Interval: 'Monthly',
    Unit: 'Index 1982-1984=100',
    GptSummary: '',
    LastUpdatedUtc: at(8, 30),
    ValueRawJson: JSON.stringify([
      { date: '2026-10-01', value: 310.5 },
      { date: '2026-09-01', value: 311.25 },
    ]),
  },
];

export const FAVORITES: GetFavoriteStocksResponse = [
  { symbol: 'AAPL', description: 'Apple Inc' },
  { symbol: 'MSFT', description: 'Microsoft Corp' },
];

const row = (symbol: string, time: EarningsRow['time'], est: number | null, actual: number | null, surprise: number | null): EarningsRow => ({
  symbol,
  date: TODAY,
  time,
  eps_estimate: est,
  eps_actual: actual,
  difference: est !== null && actual !== null ? Number((actual - est).toFixed(2)) : null,
  surprise_percent: surprise,
  exchange: 'NASDAQ',
  country: 'US',
});

export const EARNINGS: EarningsRow[] = [
  row('AAPL', 'After Hours', 1.9, null, null),
  row('ZZZZ', 'Pre Market', 0.5, 0.6, 20),
  row('MSFT', 'Pre Market', 2.8, 3.1, 10.71),
];

const SECTOR_MOVES: Array<[string, string, number]> = [
  ['Communication Services', 'XLC', 0.4],
  ['Consumer Discretionary', 'XLY', -0.8],
  ['Consumer Staples', 'XLP', 0.1],
  ['Energy', 'XLE', -2.35],
  ['Financials', 'XLF', 0.9],
  ['Health Care', 'XLV', 0],
  ['Industrials', 'XLI', 0.25],
  ['Information Technology', 'XLK', 1.87],
  ['Materials', 'XLB', -0.3],
  ['Real Estate', 'XLRE', -1.1],
  ['Utilities', 'XLU', 0.05],
];

export const OVERVIEW: MarketOverview = {
  asOf: at(10, 30),
  market: { phase: 'open', nextChange: '2026-11-20T21:00:00.000Z' },
  indices: [
    { symbol: 'SPY', name: 'SPDR S&P 500 ETF', price: 598.12, change: 3.4, percentChange: 0.57, currency: 'USD', timestamp: 1_795_190_400 },
    { symbol: 'BTC', name: 'Bitcoin', price: 97_250.5, change: -1_210.75, percentChange: -1.23, currency: 'USD', timestamp: 1_795_190_400 },
  ],
  sectors: SECTOR_MOVES.map(([sector, etf, percentChange]) => ({ sector, etf, price: 100, percentChange })),
  failed: [],
};

/** Every dashboard call, by its path under /api/. */
export const DASHBOARD_PATHS = [
  'top_economic_indicators',
  'sector_sentiment_scanner',
  'all_overall_sentiment',
  'get_favorite_stocks',
  'earnings_calendar',
  'market_overview',
] as const;
export type DashboardPath = (typeof DASHBOARD_PATHS)[number];

export const DEFAULT_ANSWERS: Record<DashboardPath, unknown> = {
  top_economic_indicators: INDICATORS,
  sector_sentiment_scanner: SECTORS,
  all_overall_sentiment: OVERALL,
  get_favorite_stocks: FAVORITES,
  earnings_calendar: EARNINGS,
  market_overview: OVERVIEW,
};
