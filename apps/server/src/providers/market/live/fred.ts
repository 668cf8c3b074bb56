/** FRED: economic series observations (send file_type=json; "." marks a missing value). */
import type { CacheStore } from '../../../lib/cache-store';
import { z } from 'zod';
import type { Clock } from '../../../lib/clock';
import { ProviderError, UnknownSymbolError, type EconomicSeries } from '../types';
import { createHttpClient, expectShape, type FetchImpl } from './http';

const PROVIDER = 'FRED';
const body = z.object({ observations: z.array(z.object({ date: z.string(), value: z.string() })) });
const errorBody = z.object({ error_code: z.number(), error_message: z.string() });

/** The series the dashboard reads, with the names and units FRED gives them. */
export const FRED_SERIES: Record<string, { name: string; unit: string; frequency: EconomicSeries['frequency'] }> = {
  CPIAUCSL: { name: 'Consumer Price Index (CPI-U)', unit: 'Index 1982-1984=100', frequency: 'Monthly' },
  UNRATE: { name: 'Unemployment Rate', unit: 'Percent', frequency: 'Monthly' },
  FEDFUNDS: { name: 'Federal Funds Effective Rate', unit: 'Percent', frequency: 'Monthly' },
  DGS10: { name: '10-Year Treasury Constant Maturity Rate', unit: 'Percent', frequency: 'Daily' },
  A191RL1Q225SBEA: { name: 'Real GDP Growth (annualised, quarterly)', unit: 'Percent', frequency: 'Quarterly' },
  UMCSENT: { name: 'University of Michigan Consumer Sentiment', unit: 'Index 1966:Q1=100', frequency: 'Monthly' },
};

export function createFredAdapter(options: { apiKey: string; baseUrl?: string; fetchImpl?: FetchImpl; timeoutMs?: number; clock: Clock; sleep?: (ms: number) => Promise<void>; store?: CacheStore }) {
  const base = (options.baseUrl ?? 'https://api.stlouisfed.org/fred').replace(/\/$/, '');
  const http = createHttpClient({ provider: PROVIDER, fetchImpl: options.fetchImpl, timeoutMs: options.timeoutMs, ratePerMinute: 120, burst: 10, clock: options.clock, sleep: options.sleep, store: options.store });
  return {
    provider: PROVIDER,
    async series(id: string, limit = 36): Promise<EconomicSeries> {
      const spec = FRED_SERIES[id];
      if (!spec) throw new UnknownSymbolError(id);
      let raw: unknown;
      try {
        raw = await http.getJson(
          `${base}/series/observations?${new URLSearchParams({ series_id: id, api_key: options.apiKey, file_type: 'json', sort_order: 'desc', limit: String(limit * 2) })}`,
        );
      } catch (error) {
        if (error instanceof ProviderError && error.options.status === 400) {
          throw new ProviderError(PROVIDER, 'the request was refused (HTTP 400: check FRED_API_KEY and the series id)', { status: 400 });
        }
        throw error;
      }
      const failure = errorBody.safeParse(raw);
      if (failure.success) throw new ProviderError(PROVIDER, failure.data.error_message, { status: failure.data.error_code });
      const parsed = expectShape(PROVIDER, 'observations', body, raw);
      const observations = parsed.observations
        .filter((observation) => observation.value !== '.' && Number.isFinite(Number(observation.value)))
        .map((observation) => ({ date: observation.date, value: Number(observation.value) }))
        .sort((a, b) => b.date.localeCompare(a.date))
        .slice(0, limit);
      return { id, ...spec, observations };
    },
  };
}

export type FredAdapter = ReturnType<typeof createFredAdapter>;
