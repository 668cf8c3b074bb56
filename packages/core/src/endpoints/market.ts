/** The market-data calls of spec §7 for one symbol or one market. */
import { earningsCalendarRequest, earningsCalendarResponse, highLowRequest, highLowResponse, metricsResponse, newsSentimentResponse, quoteResponse, rsiQuery, rsiResponse, supportResistanceQuery, supportResistanceResponse, symbolLookupQuery, symbolLookupResponse, symbolQuery, symbolSearchQuery, symbolSearchResponse, trendDirectionRequest, trendDirectionResponse } from '../contract/index';
import { defineEndpoint, endpointGroup, SYMBOL_DATA, MARKET_DATA } from './define';

export const marketEndpoints = endpointGroup({
  lookupSymbol: defineEndpoint({ operationId: 'lookupSymbol', method: 'get', path: '/api/symbol_lookup', summary: 'Symbols of one market matching q', query: symbolLookupQuery, response: symbolLookupResponse, errors: MARKET_DATA }),
  searchSymbols: defineEndpoint({ operationId: 'searchSymbols', method: 'get', path: '/api/symbol_search', summary: 'Symbols of any market matching symbol', query: symbolSearchQuery, response: symbolSearchResponse, errors: MARKET_DATA }),
  getQuote: defineEndpoint({ operationId: 'getQuote', method: 'get', path: '/api/quote', summary: 'Current quote', query: symbolQuery, response: quoteResponse, errors: SYMBOL_DATA }),
  getQuoteTd: defineEndpoint({ operationId: 'getQuoteTd', method: 'get', path: '/api/quote_td', summary: 'Current quote (variant)', query: symbolQuery, response: quoteResponse, errors: SYMBOL_DATA }),
  fetchMetrics: defineEndpoint({ operationId: 'fetchMetrics', method: 'get', path: '/api/fetch_metrics', summary: 'Highs, lows, RSIs, sentiment and volume-profile levels (definitions: docs/market-data.md "Metrics")', query: symbolQuery, response: metricsResponse, errors: SYMBOL_DATA }),
  getRsi: defineEndpoint({ operationId: 'getRsi', method: 'get', path: '/api/rsi', summary: 'RSI(14) on daily closes (range) and on today', query: rsiQuery, response: rsiResponse, errors: SYMBOL_DATA }),
  getRsiTd: defineEndpoint({ operationId: 'getRsiTd', method: 'get', path: '/api/rsi_td', summary: 'RSI(14) (variant)', query: symbolQuery, response: rsiResponse, errors: SYMBOL_DATA }),
  getNewsSentiment: defineEndpoint({ operationId: 'getNewsSentiment', method: 'get', path: '/api/news-sentiment', summary: 'News sentiment of a symbol and its sector', query: symbolQuery, response: newsSentimentResponse, errors: SYMBOL_DATA }),
  getSupportResistance: defineEndpoint({ operationId: 'getSupportResistance', method: 'get', path: '/api/support-resistance', summary: 'Support and resistance levels', query: supportResistanceQuery, response: supportResistanceResponse, errors: SYMBOL_DATA }),
  getStockHighLow: defineEndpoint({ operationId: 'getStockHighLow', method: 'post', path: '/api/stock-high-low', summary: 'High and low of the last N days (form)', body: highLowRequest, bodyType: 'form', response: highLowResponse, errors: SYMBOL_DATA }),
  getStockHighTd: defineEndpoint({ operationId: 'getStockHighTd', method: 'post', path: '/api/stock-high-td', summary: 'High and low of the last N days (JSON)', body: highLowRequest, response: highLowResponse, errors: SYMBOL_DATA }),
  getTrendDirection: defineEndpoint({ operationId: 'getTrendDirection', method: 'post', path: '/api/trend-direction', summary: 'Trend of the last N days', body: trendDirectionRequest, response: trendDirectionResponse, errors: SYMBOL_DATA }),
  getEarningsCalendar: defineEndpoint({ operationId: 'getEarningsCalendar', method: 'post', path: '/api/earnings_calendar', summary: 'Earnings releases in a date range', body: earningsCalendarRequest, response: earningsCalendarResponse, errors: MARKET_DATA }),
  getEarningsCalendarTd: defineEndpoint({ operationId: 'getEarningsCalendarTd', method: 'post', path: '/api/earnings_calendar_td', summary: 'Earnings releases (variant)', body: earningsCalendarRequest, response: earningsCalendarResponse, errors: MARKET_DATA }),
});
