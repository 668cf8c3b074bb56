/** Themes and tickers the local analyst recognises in news text. */

/** Theme name → words or phrases (lower case, matched on word boundaries). */
export const NEWS_THEMES: Readonly<Record<string, readonly string[]>> = {
  Earnings: ['earnings', 'revenue', 'eps', 'quarter', 'quarterly', 'results', 'guidance', 'beats', 'misses', 'profit', 'forecast', 'outlook', 'estimates'],
  'Interest rates & the Fed': ['fed', 'federal reserve', 'fomc', 'powell', 'rate cut', 'rate cuts', 'rate hike', 'interest rate', 'interest rates', 'yields', 'treasury', 'bond', 'bonds'],
  Inflation: ['inflation', 'cpi', 'pce', 'consumer prices', 'price pressures'],
  'Trade & tariffs': ['tariff', 'tariffs', 'trade war', 'trade deal', 'imports', 'exports', 'sanctions', 'export controls'],
  'Politics & policy': ['trump', 'white house', 'congress', 'senate', 'election', 'president', 'administration', 'executive order', 'regulation', 'government shutdown'],
  Geopolitics: ['war', 'ukraine', 'russia', 'china', 'taiwan', 'israel', 'iran', 'middle east', 'conflict', 'military', 'nato', 'tensions', 'geopolitical'],
  'Analyst ratings': ['upgrade', 'upgrades', 'upgraded', 'downgrade', 'downgrades', 'downgraded', 'price target', 'analyst', 'analysts', 'outperform', 'underperform', 'overweight'],
  'Deals & M&A': ['acquisition', 'acquire', 'acquires', 'merger', 'buyout', 'takeover', 'stake', 'ipo'],
  'Technology & AI': ['ai', 'artificial intelligence', 'chip', 'chips', 'semiconductor', 'semiconductors', 'cloud', 'software', 'data center', 'data centers'],
  'Energy & commodities': ['oil', 'crude', 'opec', 'natural gas', 'gold', 'commodities', 'energy', 'copper'],
  Crypto: ['bitcoin', 'crypto', 'cryptocurrency', 'ethereum', 'blockchain', 'stablecoin'],
  'Jobs & economy': ['jobs', 'payrolls', 'unemployment', 'gdp', 'economy', 'recession', 'consumer spending', 'retail sales', 'layoffs'],
  'Legal & regulatory': ['lawsuit', 'probe', 'investigation', 'sec', 'antitrust', 'settlement', 'court', 'fine', 'fined'],
};

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const THEME_PATTERNS = Object.entries(NEWS_THEMES).map(
  ([theme, words]) => [theme, new RegExp(`\\b(?:${words.map(escape).join('|')})\\b`, 'i')] as const,
);

/** The themes `text` touches, in the table's order. */
export function themesOf(text: string): string[] {
  return THEME_PATTERNS.filter(([, pattern]) => pattern.test(text)).map(([theme]) => theme);
}

/** Company names that stand for a ticker in headlines. */
const COMPANY_TICKERS: Readonly<Record<string, string>> = {
  apple: 'AAPL', microsoft: 'MSFT', nvidia: 'NVDA', tesla: 'TSLA', amazon: 'AMZN', alphabet: 'GOOGL', google: 'GOOGL', meta: 'META',
  netflix: 'NFLX', amd: 'AMD', intel: 'INTC', broadcom: 'AVGO', oracle: 'ORCL', salesforce: 'CRM', boeing: 'BA', walmart: 'WMT',
  jpmorgan: 'JPM', 'goldman sachs': 'GS', exxon: 'XOM', chevron: 'CVX', pfizer: 'PFE', palantir: 'PLTR', coinbase: 'COIN',
};
const COMPANY_PATTERN = new RegExp(`\\b(${Object.keys(COMPANY_TICKERS).map(escape).join('|')})\\b`, 'gi');
/** $AAPL, (AAPL), NASDAQ:AAPL and NYSE: BRK.B — bare capitals (CEO, GDP) are not taken for tickers. */
const TICKER_PATTERN = /(?:\$([A-Z]{1,5}(?:\.[A-Z])?)\b|\(([A-Z]{1,5}(?:\.[A-Z])?)\)|\b(?:NASDAQ|NYSE|AMEX):\s?([A-Z]{1,5}(?:\.[A-Z])?)\b)/g;

/** Tickers mentioned in `text`, most mentioned first (ties: explicit tickers, then names, each in order seen). */
export function tickersOf(text: string): string[] {
  const counts = new Map<string, number>();
  const add = (ticker: string) => counts.set(ticker, (counts.get(ticker) ?? 0) + 1);
  for (const match of text.matchAll(TICKER_PATTERN)) add((match[1] ?? match[2] ?? match[3])!);
  for (const match of text.matchAll(COMPANY_PATTERN)) add(COMPANY_TICKERS[match[1]!.toLowerCase()]!);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([ticker]) => ticker);
}
