/**
 * The fixed list behind the OPTION_ALERT alert type (spec §9: "about 57 tickers: SPY, NVDA, TSLA,
 * QQQ, AAPL and others"): the most actively traded US options.
 */
export const OPTION_ALERT_TICKERS: readonly string[] = [
  'SPY', 'NVDA', 'TSLA', 'QQQ', 'AAPL', 'AMZN', 'META', 'MSFT', 'GOOGL', 'AMD',
  'NFLX', 'IWM', 'PLTR', 'COIN', 'BA', 'AVGO', 'MU', 'INTC', 'UBER', 'DIS',
  'JPM', 'BAC', 'WFC', 'C', 'GS', 'XOM', 'CVX', 'OXY', 'PFE', 'MRK',
  'LLY', 'UNH', 'ABBV', 'WMT', 'COST', 'TGT', 'HD', 'NKE', 'SBUX', 'MCD',
  'PYPL', 'XYZ', 'HOOD', 'SMCI', 'ORCL', 'CRM', 'ADBE', 'QCOM', 'CSCO', 'F',
  'GM', 'T', 'VZ', 'DIA', 'XLF', 'XLE', 'GLD',
];
