// 1,000 concurrent requests for one quote through the market cache: how many upstream calls?
import { MarketCache } from '../apps/server/src/providers/market/cache';

export async function run(): Promise<string[][]> {
  const cache = new MarketCache({ nowMs: () => Date.now() });
  let upstream = 0;
  const load = async () => {
    upstream += 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { price: 100 };
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: 1000 }, () => cache.get('quote:AAPL', 15_000, load)));
  const elapsed = performance.now() - start;
  return [['1,000 concurrent identical quote requests', `${upstream} upstream call(s), ${elapsed.toFixed(1)} ms`, '1 call', upstream === 1 ? 'ok' : 'OVER']];
}
