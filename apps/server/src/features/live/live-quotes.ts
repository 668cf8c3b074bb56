/**
 * The live-quote publisher: reads the quotes of the symbols open streams show (through the market
 * cache, so one upstream call per symbol per 15 s for the whole installation) and publishes those
 * that changed since its last pass. One process runs it: the API's timer without Redis, a worker's
 * schedule with Redis.
 */
import type { LiveBus } from '../../lib/live-bus';
import type { CachedMarket } from '../../providers/market/cached-market';
import type { LiveRegistry } from './live-registry';

/** Every 5 s: a quote reaches the screens within a few seconds of the cache taking it. */
export const LIVE_QUOTES_INTERVAL_MS = 5_000;
const CONCURRENCY = 4;

export interface LiveQuotesDeps {
  market: Pick<CachedMarket, 'getQuote'>;
  bus: Pick<LiveBus, 'publish'>;
  registry: Pick<LiveRegistry, 'wantedSymbols'>;
  log: { warn(message: string): void };
}

export interface LiveQuotesReport {
  symbols: number;
  published: number;
  failed: string[];
}

export function createLiveQuotes(deps: LiveQuotesDeps) {
  const { market, bus, registry, log } = deps;
  /** The last published state per symbol (price, previous close, timestamp). */
  const last = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<LiveQuotesReport> | undefined;

  async function pass(): Promise<LiveQuotesReport> {
    const symbols = await registry.wantedSymbols();
    const report: LiveQuotesReport = { symbols: symbols.length, published: 0, failed: [] };
    const wanted = new Set(symbols);
    for (const symbol of last.keys()) if (!wanted.has(symbol)) last.delete(symbol);
    const queue = [...symbols];
    const worker = async () => {
      for (let symbol = queue.shift(); symbol; symbol = queue.shift()) {
        try {
          const { value } = await market.getQuote(symbol);
          const key = `${value.price}|${value.previousClose}|${value.timestamp}`;
          if (last.get(symbol) === key) continue;
          last.set(symbol, key);
          report.published += 1;
          await bus.publish({
            type: 'quote',
            symbol,
            price: value.price,
            previousClose: value.previousClose,
            change: value.change,
            percentChange: value.percentChange,
            timestamp: value.timestamp,
          });
        } catch (error) {
          report.failed.push(`${symbol}: ${(error as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return report;
  }

  /** One pass now; concurrent calls share it. */
  const runOnce = (): Promise<LiveQuotesReport> => {
    running ??= pass().finally(() => (running = undefined));
    return running;
  };

  return {
    runOnce,
    /** A pass every `intervalMs` until stop() (the one-process timer). */
    start(intervalMs = LIVE_QUOTES_INTERVAL_MS): void {
      if (timer) return;
      timer = setInterval(() => {
        runOnce().catch((error: unknown) => log.warn(`Live quotes: a pass failed: ${(error as Error).message}`));
      }, intervalMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}

export type LiveQuotes = ReturnType<typeof createLiveQuotes>;
