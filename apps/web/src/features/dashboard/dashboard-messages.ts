/** The Market Dashboard's wording (spec §2 "Market Dashboard", §8 "Dashboard:"). */

export const DASHBOARD_TITLE = 'Market Dashboard';

export const OVERALL_TITLE = 'Overall Market Sentiment';
export const MARKET_SUMMARY_HEADING = 'Market Summary';
export const EARNINGS_TITLE = "Today's Earnings (Favorites)";
export const SECTORS_TITLE = 'Sector Sentiment & News';
export const INDICATORS_TITLE = 'Key Economic Indicators';

export const INDICATORS_FAILED = 'Failed to load economic indicators.';
export const SECTORS_FAILED = 'Failed to load sector sentiments.';
export const OVERALL_FAILED = 'Failed to load overall market sentiment.';
export const EARNINGS_FAILED = "Failed to load today's earnings data.";
export const SOME_DATA_FAILED = 'Some data failed to load. Please try refreshing.';
export const UNEXPECTED_ERROR = 'An unexpected error occurred while loading dashboard data.';

export const SECTOR_NEWS_UNPARSEABLE = 'Could not load news items for this sector.';
export const NO_SUMMARY = 'No summary available.';
export const NO_OVERALL = 'No overall sentiment data available.';
export const NO_SECTORS = 'No sector sentiment data available.';
export const NO_INDICATORS = 'No economic indicator data available.';
export const NO_SECTOR_NEWS = 'No recent news items found for this sector.';
export const NO_EARNINGS = 'No earnings reported today for your favorite stocks.';

/** Beyond the spec: the market overview strip above the four parts. */
export const OVERVIEW_TITLE = 'Market Overview';
export const OVERVIEW_FAILED = 'The market overview is not available right now.';

/** Console lines (spec §8 names the favourites and earnings ones). */
export const FAVORITES_FAILED_LOG = 'Error loading favorites:';
export const EARNINGS_FAILED_LOG = 'Error fetching earnings data:';
