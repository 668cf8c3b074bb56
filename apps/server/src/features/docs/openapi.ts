/**
 * The OpenAPI 3.1 document of every call, generated from the zod contract in packages/core, and
 * served at GET /api/docs (behind the token, like every call but login, forgot-password and health).
 */
import type { FastifyInstance } from 'fastify';
import { z, type ZodType } from 'zod';
import {
  batchUpdateFavoriteStocksRequest,
  batchUpdateFavoriteStocksResponse,
  companyNewsQuery,
  deleteFavoriteStocksRequest,
  deleteFavoriteStocksResponse,
  earningsCalendarRequest,
  earningsCalendarResponse,
  errorBody,
  forgotPasswordRequest,
  getEmailResponse,
  getFavoriteStocksResponse,
  healthResponse,
  highLowRequest,
  highLowResponse,
  loginRequest,
  loginResponse,
  metricsResponse,
  msgBody,
  newsListResponse,
  newsSentimentResponse,
  quoteResponse,
  rsiQuery,
  rsiResponse,
  supportResistanceQuery,
  supportResistanceResponse,
  symbolLookupQuery,
  symbolLookupResponse,
  symbolQuery,
  symbolSearchQuery,
  symbolSearchResponse,
  trendDirectionRequest,
  trendDirectionResponse,
  updatePasswordRequest,
} from '@signalboard/core';
import { APP_VERSION } from '../health/health.routes';

interface Operation {
  method: 'get' | 'post';
  path: string;
  summary: string;
  open?: boolean;
  query?: ZodType;
  body?: ZodType;
  bodyType?: 'json' | 'form' | 'multipart';
  response: ZodType;
}

const supportForm = z.object({
  header: z.string(),
  body: z.string(),
  file: z.string().describe('binary, at most 10 MB').optional(),
});

export const OPERATIONS: Operation[] = [
  { method: 'post', path: '/api/login', summary: 'Sign in', open: true, body: loginRequest, response: loginResponse },
  { method: 'post', path: '/api/forgot-password', summary: 'E-mail a temporary password (always answers success)', open: true, body: forgotPasswordRequest, response: msgBody },
  { method: 'get', path: '/api/health', summary: 'Health and which sources serve data', open: true, response: healthResponse },
  { method: 'post', path: '/api/update-password', summary: 'Set a new password', body: updatePasswordRequest, response: msgBody },
  { method: 'get', path: '/api/getemail', summary: "The signed-in user's e-mail", response: getEmailResponse },
  { method: 'post', path: '/api/deactivate_user', summary: 'Deactivate the signed-in account', response: msgBody },
  { method: 'get', path: '/api/get_favorite_stocks', summary: 'Favourites, oldest first', response: getFavoriteStocksResponse },
  { method: 'post', path: '/api/delete_favorite_stocks', summary: 'Remove favourites', body: deleteFavoriteStocksRequest, response: deleteFavoriteStocksResponse },
  { method: 'post', path: '/api/batch_update_favorite_stocks', summary: 'Add or update favourites (upsert by symbol)', body: batchUpdateFavoriteStocksRequest, response: batchUpdateFavoriteStocksResponse },
  { method: 'post', path: '/api/contact-support', summary: 'Send a support request', body: supportForm, bodyType: 'multipart', response: msgBody },
  { method: 'get', path: '/api/symbol_lookup', summary: 'Symbols of one market matching q', query: symbolLookupQuery, response: symbolLookupResponse },
  { method: 'get', path: '/api/symbol_search', summary: 'Symbols of any market matching symbol', query: symbolSearchQuery, response: symbolSearchResponse },
  { method: 'get', path: '/api/quote', summary: 'Current quote', query: symbolQuery, response: quoteResponse },
  { method: 'get', path: '/api/quote_td', summary: 'Current quote (variant)', query: symbolQuery, response: quoteResponse },
  { method: 'get', path: '/api/fetch_metrics', summary: 'Highs, lows, RSIs, sentiment and volume-profile levels', query: symbolQuery, response: metricsResponse },
  { method: 'get', path: '/api/rsi', summary: 'RSI(14) on daily closes (range) and on today', query: rsiQuery, response: rsiResponse },
  { method: 'get', path: '/api/rsi_td', summary: 'RSI(14) (variant)', query: symbolQuery, response: rsiResponse },
  { method: 'get', path: '/api/news-sentiment', summary: 'News sentiment of a symbol and its sector', query: symbolQuery, response: newsSentimentResponse },
  { method: 'get', path: '/api/support-resistance', summary: 'Support and resistance levels', query: supportResistanceQuery, response: supportResistanceResponse },
  { method: 'post', path: '/api/stock-high-low', summary: 'High and low of the last N days (form)', body: highLowRequest, bodyType: 'form', response: highLowResponse },
  { method: 'post', path: '/api/stock-high-td', summary: 'High and low of the last N days (JSON)', body: highLowRequest, response: highLowResponse },
  { method: 'post', path: '/api/trend-direction', summary: 'Trend of the last N days', body: trendDirectionRequest, response: trendDirectionResponse },
  { method: 'post', path: '/api/earnings_calendar', summary: 'Earnings releases in a date range', body: earningsCalendarRequest, response: earningsCalendarResponse },
  { method: 'post', path: '/api/earnings_calendar_td', summary: 'Earnings releases (variant)', body: earningsCalendarRequest, response: earningsCalendarResponse },
  { method: 'get', path: '/api/market-news', summary: 'Latest market news', response: newsListResponse },
  { method: 'get', path: '/api/company-news', summary: 'Company news in a date range', query: companyNewsQuery, response: newsListResponse },
  { method: 'get', path: '/api/docs', summary: 'This document', response: z.object({}).passthrough() },
];

const jsonSchema = (schema: ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;

export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const error = { description: 'Error', content: { 'application/json': { schema: jsonSchema(errorBody, 'output') } } };
  for (const op of OPERATIONS) {
    const parameters = op.query
      ? Object.entries((jsonSchema(op.query, 'input').properties ?? {}) as Record<string, unknown>).map(([name, schema]) => ({
          name,
          in: 'query',
          required: ((jsonSchema(op.query!, 'input').required ?? []) as string[]).includes(name),
          schema,
        }))
      : undefined;
    const mediaType = op.bodyType === 'multipart' ? 'multipart/form-data' : op.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
    const content = op.bodyType === 'form' ? { [mediaType]: { schema: jsonSchema(op.body!, 'input') }, 'multipart/form-data': { schema: jsonSchema(op.body!, 'input') } } : op.body ? { [mediaType]: { schema: jsonSchema(op.body, 'input') } } : undefined;
    paths[op.path] = {
      ...(paths[op.path] ?? {}),
      [op.method]: {
        summary: op.summary,
        security: op.open ? [] : [{ bearer: [] }],
        ...(parameters ? { parameters } : {}),
        ...(content ? { requestBody: { required: true, content } } : {}),
        responses: {
          200: { description: 'OK', content: { 'application/json': { schema: jsonSchema(op.response, 'output') } } },
          400: error,
          ...(op.open ? {} : { 401: error }),
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Signalboard API', version: APP_VERSION, description: 'Errors answer JSON with a `msg` (and `error` where the spec says so).' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  };
}

export async function docsRoutes(app: FastifyInstance) {
  const document = buildOpenApiDocument();
  app.get('/docs', async () => document);
}
