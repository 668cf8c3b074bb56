/**
 * Redis for server tests. Tests of a Redis implementation run when REDIS_URL is set (CI sets it when
 * Redis answers) and are skipped otherwise: `describe.skipIf(!testRedisUrl())`. Each call of
 * `testRedisSettings` gives a prefix of its own, so test files (and tests) never share keys;
 * `clear` deletes every key under it.
 * The whole app suite runs on Redis in the external leg (vitest project server-pg with
 * SB_TEST_REDIS=external); `useRedisForApps()` says so.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { RedisSettings } from '../src/lib/redis';

export function testRedisUrl(): string | undefined {
  return process.env.REDIS_URL || undefined;
}

/** True in the leg where createTestApp builds every app on Redis. */
export function useRedisForApps(): boolean {
  return process.env.SB_TEST_REDIS === 'external' && testRedisUrl() !== undefined;
}

export function testRedisSettings(label = 't'): RedisSettings & { clear(): Promise<void> } {
  const url = testRedisUrl();
  if (!url) throw new Error('testRedisSettings needs REDIS_URL');
  const prefix = `sbt-${label}-${randomBytes(4).toString('hex')}`;
  return {
    url,
    prefix,
    clear: () => dropRedisKeys(url, `${prefix}:*`),
  };
}

/** Deletes the keys matching `pattern` (a test's or a bench's own prefix): the server-suite, e2e and bench clean-ups. */
export async function dropRedisKeys(url: string, pattern: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
