import { createHash } from 'node:crypto';
import type { CacheStore } from '../../lib/cache-store';
import type { Clock } from '../../lib/clock';
import type { AnalysisKind, Analyst } from '../../providers/ai';
import { AnalysisCache } from './analysis-cache';

/** Distinct texts whose analysis is kept. */
export const ANALYSIS_CACHE_MAX_ENTRIES = 200;

export interface NewsAnalysisService {
  /**
   * The analysis of `text`; `beforeAnalysis` runs (and may throw, e.g. a per-user limit) only when
   * the analyst is to be asked: not for an answer the cache holds or a computation under way.
   */
  analyze(kind: AnalysisKind, text: string, beforeAnalysis?: () => Promise<void>): Promise<string>;
}

/**
 * The analyst behind a cache: the same call with the same text within `ttlMs` costs one analysis
 * (in every process of the installation when `store` is shared, i.e. on Redis).
 */
export function createNewsAnalysisService(options: { analyst: Analyst; clock: Clock; ttlMs: number; store?: CacheStore }): NewsAnalysisService {
  const cache = new AnalysisCache<string>({ ttlMs: options.ttlMs, maxEntries: ANALYSIS_CACHE_MAX_ENTRIES, clock: options.clock, ...(options.store ? { store: options.store } : {}) });
  return {
    async analyze(kind, text, beforeAnalysis) {
      const key = `${kind}:${createHash('sha256').update(text).digest('hex')}`;
      if (beforeAnalysis && !(await cache.has(key))) await beforeAnalysis();
      return cache.getOrCompute(key, () => options.analyst.analyze({ kind, text }));
    },
  };
}
