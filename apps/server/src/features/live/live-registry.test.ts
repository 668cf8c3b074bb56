/**
 * The live registry's per-user stream count, in memory and (with REDIS_URL) on Redis: the cap holds
 * when many opens race (on Redis from several connections, as several API replicas), an expired
 * stream stops counting, a heartbeat keeps a stream counted, and a dropped stream frees its place.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../test/helpers';
import { testRedisSettings, testRedisUrl } from '../../../test/redis';
import { createMemoryRegistry, createRedisRegistry, LIVE_ENTRY_TTL_MS, type LiveRegistry } from './live-registry';

interface Installation {
  /** The registries of `replicas` processes sharing one state (memory: one process, so one registry). */
  registries: LiveRegistry[];
  /** PTTL of a Redis key under the installation's prefix (memory: undefined). */
  pttl?: (...parts: Array<string | number>) => Promise<number>;
  close(): Promise<void>;
}

const kinds: Array<{ name: string; skip: boolean; open: (clock: FakeClock, replicas: number) => Installation }> = [
  {
    name: 'memory',
    skip: false,
    open: (clock) => {
      const registry = createMemoryRegistry(clock);
      return { registries: [registry], close: () => registry.close() };
    },
  },
  {
    name: 'Redis',
    skip: !testRedisUrl(),
    open: (clock, replicas) => {
      const settings = testRedisSettings('live-registry');
      const registries = Array.from({ length: replicas }, () => createRedisRegistry(settings, clock));
      const raw = new Redis(settings.url, { maxRetriesPerRequest: 1 });
      return {
        registries,
        pttl: (...parts) => raw.pttl([settings.prefix, ...parts].join(':')),
        async close() {
          await Promise.all(registries.map((registry) => registry.close()));
          raw.disconnect();
          await settings.clear();
        },
      };
    },
  },
];

for (const { name, skip, open } of kinds) {
  describe.skipIf(skip)(`the live registry's stream count (${name})`, () => {
    const closers: Array<() => Promise<void>> = [];
    const installation = (clock: FakeClock, replicas = 1) => {
      const opened = open(clock, replicas);
      closers.push(opened.close);
      return opened;
    };
    afterEach(async () => {
      for (const close of closers.splice(0)) await close();
    });

    it('lets exactly max of 20 racing opens through, from several replicas', async () => {
      const { registries } = installation(new FakeClock(), 4);
      const ids = Array.from({ length: 20 }, () => randomUUID());
      const answers = await Promise.all(ids.map((id, i) => registries[i % registries.length]!.openConnection(id, 7, 5)));
      expect(answers.filter(Boolean)).toHaveLength(5);
      // The recorded ones have their owner; the refused ones were not recorded.
      const owners = await Promise.all(ids.map((id) => registries[0]!.ownerOf(id)));
      expect(owners.filter((owner) => owner === 7)).toHaveLength(5);
      expect(owners.filter((owner) => owner === null)).toHaveLength(15);
      // Another user has a count of their own.
      expect(await registries[0]!.openConnection(randomUUID(), 8, 5)).toBe(true);
    });

    it('forgets streams nobody refreshed for the TTL, keeps those the heartbeat refreshed', async () => {
      const clock = new FakeClock();
      const { registries, pttl } = installation(clock);
      const registry = registries[0]!;
      const ids = Array.from({ length: 5 }, () => randomUUID());
      for (const id of ids) expect(await registry.openConnection(id, 1, 5)).toBe(true);
      expect(await registry.openConnection(randomUUID(), 1, 5)).toBe(false);
      clock.advance(30_000);
      // Two streams' holder is alive: its heartbeat refreshes them; the other three's holder crashed.
      await registry.claimConnection(ids[0]!, 1);
      await registry.claimConnection(ids[1]!, 1);
      if (pttl) expect(await pttl('live', 'user', 1)).toBeGreaterThan(LIVE_ENTRY_TTL_MS - 5_000);
      expect(await registry.openConnection(randomUUID(), 1, 5)).toBe(false);
      clock.advance(LIVE_ENTRY_TTL_MS - 30_000 + 1);
      expect(await registry.ownerOf(ids[1]!)).toBe(1);
      const more = await Promise.all(Array.from({ length: 4 }, () => registry.openConnection(randomUUID(), 1, 5)));
      expect(more.filter(Boolean)).toHaveLength(3);
      // All of them past the TTL with no heartbeat: none counts.
      clock.advance(LIVE_ENTRY_TTL_MS + 1);
      const fresh = await Promise.all(Array.from({ length: 6 }, () => registry.openConnection(randomUUID(), 1, 5)));
      expect(fresh.filter(Boolean)).toHaveLength(5);
    });

    it('frees a place when a stream is dropped', async () => {
      const { registries } = installation(new FakeClock(), 2);
      const [a, b] = [registries[0]!, registries.at(-1)!];
      const ids = Array.from({ length: 3 }, () => randomUUID());
      for (const id of ids) expect(await a.openConnection(id, 3, 3)).toBe(true);
      expect(await b.openConnection(randomUUID(), 3, 3)).toBe(false);
      await a.dropConnection(ids[0]!, 3);
      expect(await a.ownerOf(ids[0]!)).toBeNull();
      expect(await b.openConnection(randomUUID(), 3, 3)).toBe(true);
      expect(await b.openConnection(randomUUID(), 3, 3)).toBe(false);
    });
  });
}
