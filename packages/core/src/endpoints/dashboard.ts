/** The dashboard: sentiment, sectors, economic indicators, market overview. */
import { allOverallSentimentResponse, economicIndicatorsResponse, marketOverviewResponse, sectorSentimentResponse } from '../contract/index';
import { defineEndpoint, endpointGroup } from './define';

export const dashboardEndpoints = endpointGroup({
  getOverallSentiment: defineEndpoint({ operationId: 'getOverallSentiment', method: 'get', path: '/api/all_overall_sentiment', summary: "Overall market sentiment: the analyst's summaries of the latest market news, newest first (refreshed every 30 min while the market is open, hourly otherwise)", response: allOverallSentimentResponse }),
  getSectorSentiment: defineEndpoint({ operationId: 'getSectorSentiment', method: 'get', path: '/api/sector_sentiment_scanner', summary: "Sector sentiment: each GICS sector's latest news (ValueRawJson, JSON text) and summary (refreshed hourly)", response: sectorSentimentResponse }),
  getEconomicIndicators: defineEndpoint({ operationId: 'getEconomicIndicators', method: 'get', path: '/api/top_economic_indicators', summary: 'Key economic indicators: latest values (ValueRawJson, JSON text, newest first) and what the latest change means (refreshed every 6 h)', response: economicIndicatorsResponse }),
  getMarketOverview: defineEndpoint({ operationId: 'getMarketOverview', method: 'get', path: '/api/market_overview', summary: 'Market status, the index ETFs and Bitcoin, and the sector ETFs\' moves today (instruments the source lacks are left out; failures listed)', response: marketOverviewResponse }),
});
