import { createHash } from 'node:crypto';
import type { CacheStore } from '../../lib/cache-store';
import type { Clock } from '../../lib/clock';
import type { AnalysisKind, Analyst } from '../../providers/ai';
import { AnalysisCache } from './analysis-cache';

/** Distinct texts whose analysis is kept. */
export const ANALYSIS_CACHE_MAX_ENTRIES = 200;

export interface NewsAnalysisService {
  analyze(kind: AnalysisKind, text: string): Promise<string>;
}

/**
 * The analyst behind a cache: the same call with the same text within `ttlMs` costs one analysis
 * (in every process of the installation when `store` is shared, i.e. on Redis).
 */
export function createNewsAnalysisService(options: { analyst: Analyst; clock: Clock; ttlMs: number; store?: CacheStore }): NewsAnalysisService {
  const cache = new AnalysisCache<string>({ ttlMs: options.ttlMs, maxEntries: ANALYSIS_CACHE_MAX_ENTRIES, clock: options.clock, ...(options.store ? { store: options.store } : {}) });
  return {
    analyze(kind, text) {
      const key = `${kind}:${createHash('sha256').update(text).digest('hex')}`;
      return cache.getOrCompute(key, () => options.analyst.analyze({ kind, text }));
    },
  };
}
