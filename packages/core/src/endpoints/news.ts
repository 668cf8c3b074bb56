/** Market and company news, and the AI news analysis. */
import { companyNewsQuery, newsAnalysisRequest, newsAnalysisResponse, newsListResponse, trumpNewsAnalysisRequest } from '../contract/index';
import { defineEndpoint, endpointGroup, SYMBOL_DATA, MARKET_DATA } from './define';

export const newsEndpoints = endpointGroup({
  getMarketNews: defineEndpoint({ operationId: 'getMarketNews', method: 'get', path: '/api/market-news', summary: 'Latest market news', response: newsListResponse, errors: MARKET_DATA }),
  getCompanyNews: defineEndpoint({ operationId: 'getCompanyNews', method: 'get', path: '/api/company-news', summary: 'Company news in a date range', query: companyNewsQuery, response: newsListResponse, errors: SYMBOL_DATA }),
  analyzeNews: defineEndpoint({ operationId: 'analyzeNews', method: 'post', path: '/api/news-analysis', summary: 'AI analysis and summary of news text (cached 10 min per text; the analyst is AI_PROVIDER; at most ANALYSIS_MAX_PER_USER uncached analyses per ANALYSIS_WINDOW_SECONDS, 429 beyond)', body: newsAnalysisRequest, response: newsAnalysisResponse, errors: [429, 502] }),
  analyzeTrumpNews: defineEndpoint({ operationId: 'analyzeTrumpNews', method: 'post', path: '/api/analyze-trump-news', summary: 'AI analysis and summary of Trump-related news text (cached and limited like news-analysis, in the same count)', body: trumpNewsAnalysisRequest, response: newsAnalysisResponse, errors: [429, 502] }),
});
