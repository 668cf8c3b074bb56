import type { FastifyInstance } from 'fastify';
import {
  companyNewsQuery,
  earningsCalendarRequest,
  highLowRequest,
  rsiQuery,
  safeLinkUrl,
  supportResistanceQuery,
  symbolLookupQuery,
  symbolQuery,
  stripControlCharacters,
  symbolSearchQuery,
  trendDirectionRequest,
  type NewsArticleBody,
  type NewsSentimentResponse,
  type SymbolLookupResponse,
  type SymbolSearchResponse,
} from '@signalboard/core';
import { parseInput } from '../../lib/errors';
import { allowedNewsImage } from '../../lib/news-images';
import { acceptMultipart, readFormFields } from '../../lib/multipart';
import type { CachedMarket } from '../../providers/market/cached-market';
import type { NewsArticle } from '../../providers/market/types';
import type { MarketService } from './market.service';

/**
 * Provider text the web app sends back to us (news into the analysis calls, a lookup's description
 * into the favourites) loses the control characters those calls refuse.
 */
const clean = (text: string) => stripControlCharacters(text, 'multi');
const oneLine = (text: string) => stripControlCharacters(text, 'single');

const toArticle = (article: NewsArticle, imageOrigins: readonly string[]): NewsArticleBody => ({
  id: article.id,
  headline: clean(article.headline),
  summary: clean(article.summary),
  source: oneLine(article.source),
  category: oneLine(article.category),
  // Provider content is untrusted: only http(s) and same-origin links reach the browser, and only
  // images the CSP lets it load (our own paths, NEWS_IMAGE_ORIGINS).
  url: safeLinkUrl(article.url) ?? '',
  image: allowedNewsImage(article.image, imageOrigins),
  datetime: article.datetime,
  related: oneLine(article.related),
});

/** The market-data calls of spec §7. All behind the token (registered in the secured scope). */
export async function marketRoutes(app: FastifyInstance, options: { market: CachedMarket; service: MarketService; imageOrigins?: readonly string[] }) {
  const { market, service } = options;
  const imageOrigins = options.imageOrigins ?? [];

  app.get('/symbol_lookup', async (request): Promise<SymbolLookupResponse> => {
    const { q, exchange } = parseInput(symbolLookupQuery, request.query);
    const { value } = await market.lookupSymbols(q, exchange);
    return { result: value.map((info) => ({ symbol: info.symbol, description: oneLine(info.description), exchange: info.exchange })) };
  });

  app.get('/symbol_search', async (request): Promise<SymbolSearchResponse> => {
    const { symbol } = parseInput(symbolSearchQuery, request.query);
    const { value } = await market.searchSymbols(symbol);
    return { results: value.map((info) => ({ symbol: info.symbol, instrument_name: oneLine(info.description), country: info.country, exchange: info.exchange })) };
  });

  for (const path of ['/quote', '/quote_td']) {
    app.get(path, async (request) => service.quote(parseInput(symbolQuery, request.query).symbol));
  }

  app.get('/fetch_metrics', async (request) => service.metrics(parseInput(symbolQuery, request.query).symbol));

  app.get('/rsi', async (request) => {
    const { symbol, from, to } = parseInput(rsiQuery, request.query);
    return service.rsi(symbol, from !== undefined && to !== undefined ? { from, to } : undefined);
  });
  app.get('/rsi_td', async (request) => service.rsiTd(parseInput(symbolQuery, request.query).symbol));

  app.get('/news-sentiment', async (request): Promise<NewsSentimentResponse> => {
    const { symbol } = parseInput(symbolQuery, request.query);
    const cached = await market.getNewsSentiment(symbol);
    const sentiment = cached.value;
    return {
      symbol: sentiment.symbol,
      sectorAverageBullishPercent: sentiment.sectorAverageBullishPercent,
      sectorAverageNewsScore: sentiment.sectorAverageNewsScore,
      companyNewsScore: sentiment.companyNewsScore,
      sentiment: { bullishPercent: sentiment.bullishPercent, bearishPercent: sentiment.bearishPercent },
      buzz: { articlesInLastWeek: sentiment.articlesInLastWeek, weeklyAverage: sentiment.weeklyAverage },
      stale: cached.stale,
      as_of: Math.floor(cached.fetchedAtMs / 1000),
    };
  });

  app.get('/support-resistance', async (request) => {
    const { symbol, resolution } = parseInput(supportResistanceQuery, request.query);
    return service.supportResistance(symbol, resolution);
  });

  // Form post (multipart, as a browser's FormData sends it, or url-encoded); the multipart parser in
  // this route's own scope only.
  await app.register(async (form) => {
    await acceptMultipart(form);
    form.post('/stock-high-low', async (request) => {
      const { symbol, days } = parseInput(highLowRequest, await readFormFields(request));
      return service.highLow(symbol, days);
    });
  });

  app.post('/stock-high-td', async (request) => {
    const { symbol, days } = parseInput(highLowRequest, request.body);
    return service.highLow(symbol, days);
  });

  app.post('/trend-direction', async (request) => {
    const { symbol, days, interval } = parseInput(trendDirectionRequest, request.body);
    const weekly = interval === '1week' || interval === 'weekly' || interval === 'W';
    return service.trend(symbol, days, weekly ? '1week' : '1day');
  });

  for (const path of ['/earnings_calendar', '/earnings_calendar_td']) {
    app.post(path, async (request) => {
      const { start_date, end_date } = parseInput(earningsCalendarRequest, request.body);
      return service.earnings(start_date, end_date);
    });
  }

  app.get('/market-news', async () => (await market.getMarketNews()).value.map((article) => toArticle(article, imageOrigins)));

  app.get('/company-news', async (request) => {
    const { symbol, from, to } = parseInput(companyNewsQuery, request.query);
    return (await market.getCompanyNews(symbol, from, to)).value.map((article) => toArticle(article, imageOrigins));
  });
}
