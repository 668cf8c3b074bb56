import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import {
  analysisTooLongMessage,
  NEWS_ANALYSIS_MAX_CHARS,
  newsAnalysisRequest,
  newsEndpoints,
  trumpNewsAnalysisRequest,
  type NewsAnalysisResponse,
} from '@signalboard/core';
import { route } from '../../lib/endpoint';
import { HttpError, parseInput } from '../../lib/errors';
import type { UserLimit } from '../../lib/user-limit';
import { AnalystError, type AnalysisKind } from '../../providers/ai';
import type { NewsAnalysisService } from './news-analysis.service';

/** The text field of a body, checked: too long → 413 (before parsing), missing/empty/not text → 400. */
function analysisText(body: unknown, field: string, schema: ZodType<Record<string, string>>): string {
  const raw = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
  if (typeof raw === 'string' && raw.length > NEWS_ANALYSIS_MAX_CHARS) throw new HttpError(413, analysisTooLongMessage(field));
  return parseInput(schema, body)[field]!;
}

/** POST api/news-analysis and api/analyze-trump-news (spec §7); registered in the secured scope, limited per user. */
export async function newsAnalysisRoutes(app: FastifyInstance, options: { service: NewsAnalysisService; limit: UserLimit }) {
  const answer = async (request: FastifyRequest, kind: AnalysisKind, text: string): Promise<NewsAnalysisResponse> => {
    try {
      // Counts against the user's limit only when the analyst is asked (a cached answer is free).
      return { response: await options.service.analyze(kind, text, () => options.limit.hit(request.user.id)) };
    } catch (error) {
      if (!(error instanceof AnalystError)) throw error;
      request.log.warn({ err: error, reason: error.reason }, 'news analysis failed');
      throw new HttpError(502, error.message);
    }
  };

  // Parsed here: a text too long answers 413 before the body is parsed.
  route(app, newsEndpoints.analyzeNews, { parse: 'none' }, async (request) => answer(request, 'news', analysisText(request.body, 'event_string', newsAnalysisRequest)));
  route(app, newsEndpoints.analyzeTrumpNews, { parse: 'none' }, async (request) => answer(request, 'trump', analysisText(request.body, 'news_data', trumpNewsAnalysisRequest)));
}
