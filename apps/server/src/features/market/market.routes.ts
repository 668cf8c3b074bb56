import type { FastifyInstance } from 'fastify';
import {
  highLowRequest,
  marketEndpoints,
  newsEndpoints,
  safeLinkUrl,
  stripControlCharacters,
  type NewsArticleBody,
  type NewsSentimentResponse,
  type SymbolLookupResponse,
  type SymbolSearchResponse,
} from '@signalboard/core';
import { route } from '../../lib/endpoint';
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

  route(app, marketEndpoints.lookupSymbol, async (_request, _reply, { q, exchange }): Promise<SymbolLookupResponse> => {
    const { value } = await market.lookupSymbols(q, exchange);
    return { result: value.map((info) => ({ symbol: info.symbol, description: oneLine(info.description), exchange: info.exchange })) };
  });

  route(app, marketEndpoints.searchSymbols, async (_request, _reply, { symbol }): Promise<SymbolSearchResponse> => {
    const { value } = await market.searchSymbols(symbol);
    return { results: value.map((info) => ({ symbol: info.symbol, instrument_name: oneLine(info.description), country: info.country, exchange: info.exchange })) };
  });

  const quote = async (_request: unknown, _reply: unknown, { symbol }: { symbol: string }) => service.quote(symbol);
  route(app, marketEndpoints.getQuote, quote);
  route(app, marketEndpoints.getQuoteTd, quote);

  route(app, marketEndpoints.fetchMetrics, async (_request, _reply, { symbol }) => service.metrics(symbol));

  route(app, marketEndpoints.getRsi, async (_request, _reply, { symbol, from, to }) => {
    return service.rsi(symbol, from !== undefined && to !== undefined ? { from, to } : undefined);
  });
  route(app, marketEndpoints.getRsiTd, async (_request, _reply, { symbol }) => service.rsiTd(symbol));

  route(app, marketEndpoints.getNewsSentiment, async (_request, _reply, { symbol }): Promise<NewsSentimentResponse> => {
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

  route(app, marketEndpoints.getSupportResistance, async (_request, _reply, { symbol, resolution }) => service.supportResistance(symbol, resolution));

  // Form post (multipart, as a browser's FormData sends it, or url-encoded); the multipart parser in
  // this route's own scope only.
  await app.register(async (form) => {
    await acceptMultipart(form);
    // Parsed here: the fields come from the form (multipart or url-encoded).
    route(form, marketEndpoints.getStockHighLow, { parse: 'none' }, async (request) => {
      const { symbol, days } = parseInput(highLowRequest, await readFormFields(request));
      return service.highLow(symbol, days);
    });
  });

  route(app, marketEndpoints.getStockHighTd, async (_request, _reply, { symbol, days }) => service.highLow(symbol, days));

  route(app, marketEndpoints.getTrendDirection, async (_request, _reply, { symbol, days, interval }) => {
    const weekly = interval === '1week' || interval === 'weekly' || interval === 'W';
    return service.trend(symbol, days, weekly ? '1week' : '1day');
  });

  const earnings = async (_request: unknown, _reply: unknown, { start_date, end_date }: { start_date: string; end_date: string }) => service.earnings(start_date, end_date);
  route(app, marketEndpoints.getEarningsCalendar, earnings);
  route(app, marketEndpoints.getEarningsCalendarTd, earnings);

  route(app, newsEndpoints.getMarketNews, async () => (await market.getMarketNews()).value.map((article) => toArticle(article, imageOrigins)));

  route(app, newsEndpoints.getCompanyNews, async (_request, _reply, { symbol, from, to }) => {
    return (await market.getCompanyNews(symbol, from, to)).value.map((article) => toArticle(article, imageOrigins));
  });
}
