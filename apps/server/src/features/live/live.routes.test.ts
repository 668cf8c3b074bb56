/**
 * Live updates over a real socket: the stream's auth and format, quotes only of the stream's
 * symbols, alerts only to their user, the symbols call's validation and ownership, the per-user cap,
 * the stream's end with its account (deactivated here or by another process) and its session, and
 * (with REDIS_URL) a stream on one app receiving what another app publishes and the per-user cap
 * counted over both apps.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { LiveStreamEvent } from '@signalboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, signJwt, TEST_JWT_SECRET, uniqueEmail, type TestApp } from '../../../test/helpers';
import { testRedisSettings, testRedisUrl } from '../../../test/redis';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { users } from '../../db/schema';
import type { LiveBus } from '../../lib/live-bus';
import { createMarket } from '../../providers/market';
import type { CachedMarket } from '../../providers/market/cached-market';
import type { Quote } from '../../providers/market/types';
import { createInProcessBus, createRedisBus } from './live-bus';
import { LIVE_STREAMS_PER_USER, tooManyStreamsMsg } from './live-hub';

const LINE_WAIT_MS = 5_000;

/** Quotes the test sets; every other symbol is unknown. */
function quoteBoard() {
  const quotes = new Map<string, Quote>();
  return {
    set(symbol: string, price: number) {
      quotes.set(symbol, { symbol, price, change: price - 100, percentChange: price - 100, previousClose: 100, open: 100, high: price, low: price, volume: 1, timestamp: 1_700_000_000 });
    },
    market: (base: CachedMarket): CachedMarket => ({
      ...base,
      getQuote: async (symbol: string) => {
        const value = quotes.get(symbol);
        if (!value) throw new Error(`no quote for ${symbol}`);
        return { value, stale: false, fetchedAtMs: 0 };
      },
    }),
  };
}

interface OpenStream {
  status: number;
  headers: Headers;
  hello: Extract<LiveStreamEvent, { type: 'hello' }>;
  /** Reads lines until one matches; answers every line read (the match last). */
  until(match: (line: LiveStreamEvent) => boolean): Promise<LiveStreamEvent[]>;
  /** Resolves when the server ends the stream. */
  ended(): Promise<void>;
  close(): void;
}

async function openStream(base: string, authorization: string): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(`${base}/api/live`, { headers: { authorization, 'accept-encoding': 'gzip, br' }, signal: controller.signal });
  if (!response.ok || !response.body) throw new Error(`GET /api/live answered ${response.status}: ${await response.text()}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let done = false;
  const pending: LiveStreamEvent[] = [];
  const readLine = async (): Promise<LiveStreamEvent | null> => {
    while (pending.length === 0) {
      if (done) return null;
      const chunk = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no line within the wait')), LINE_WAIT_MS)),
      ]);
      if (chunk.done) done = true;
      else buffer += decoder.decode(chunk.value, { stream: true });
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      for (const part of parts) if (part.trim() !== '') pending.push(JSON.parse(part) as LiveStreamEvent);
    }
    return pending.shift()!;
  };
  const first = await readLine();
  if (first?.type !== 'hello') throw new Error(`the first line was not hello: ${JSON.stringify(first)}`);
  return {
    status: response.status,
    headers: response.headers,
    hello: first,
    async until(match) {
      const lines: LiveStreamEvent[] = [];
      for (;;) {
        const line = await readLine();
        if (line === null) throw new Error(`the stream ended before the line; read ${JSON.stringify(lines)}`);
        lines.push(line);
        if (match(line)) return lines;
      }
    },
    async ended() {
      while ((await readLine()) !== null);
    },
    close: () => controller.abort(),
  };
}

async function listen(app: FastifyInstance): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' });
}

async function signedIn(t: TestApp, label: string): Promise<{ authorization: string; userId: number; email: string }> {
  const email = uniqueEmail(label);
  const userId = await createUser(t.db, email, 'pw');
  return { ...(await login(t.app, email, 'pw')), userId, email };
}

/** The sign-in session (`sid`) of a bearer authorization header. */
const sessionIdOf = (authorization: string) => JSON.parse(Buffer.from(authorization.split('.')[1]!, 'base64url').toString()).sid as string;

const isMarker = (at: number) => (line: LiveStreamEvent) => line.type === 'ideas' && line.at === at;

/** A GET /api/live expected to be refused (429 with the cap's message). */
async function expectRefused(base: string, authorization: string): Promise<void> {
  const refused = await fetch(`${base}/api/live`, { headers: { authorization } });
  expect(refused.status).toBe(429);
  expect(await refused.json()).toEqual({ msg: tooManyStreamsMsg(LIVE_STREAMS_PER_USER) });
}

/** Polls GET /api/live until one opens (a closed stream leaves the count once its server sees it go). */
async function openOnceFreed(base: string, authorization: string): Promise<void> {
  await expect.poll(async () => {
    const again = await fetch(`${base}/api/live`, { headers: { authorization } });
    await again.body?.cancel();
    return again.status;
  }).toBe(200);
}

/** The user (with no stream open) opens the most streams allowed; the next is refused until one closes. */
async function expectStreamCap(base: string, authorization: string): Promise<void> {
  const streams = await Promise.all(Array.from({ length: LIVE_STREAMS_PER_USER }, () => openStream(base, authorization)));
  await expectRefused(base, authorization);
  streams[0]!.close();
  // Once one closes, another may open.
  await openOnceFreed(base, authorization);
  streams.slice(1).forEach((stream) => stream.close());
}

describe('live updates (one process)', () => {
  let t: TestApp;
  let base: string;
  let bus: LiveBus;
  const board = quoteBoard();

  beforeAll(async () => {
    bus = createInProcessBus();
    t = await createTestApp({}, { bus, market: (config, clock) => board.market(createMarket(config, clock)) });
    base = await listen(t.app);
  });
  afterAll(async () => {
    await t.close();
    await bus.close();
  });

  it('needs the bearer token, with the messages every call answers', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/api/live' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({ msg: 'Auth token missing' });
    const foreign = await t.app.inject({ method: 'GET', url: '/api/live', headers: { authorization: `Bearer ${signJwt({ sub: '1', exp: 4_102_444_800 }, 'another-secret-another-secret-0123456')}` } });
    expect(foreign.statusCode).toBe(401);
    expect(foreign.json()).toEqual({ msg: 'Auth token invalid' });
    // A token in the URL is no credential.
    const user = await signedIn(t, 'url');
    const inUrl = await t.app.inject({ method: 'GET', url: `/api/live?access_token=${user.authorization.slice('Bearer '.length)}` });
    expect(inUrl.statusCode).toBe(401);
  });

  it('opens with hello, uncompressed and unbuffered, and sends quotes of its symbols only', async () => {
    const user = await signedIn(t, 'quotes');
    const aapl = await openStream(base, user.authorization);
    const msft = await openStream(base, user.authorization);
    expect(aapl.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(aapl.headers.get('x-accel-buffering')).toBe('no');
    expect(aapl.headers.get('content-encoding')).toBeNull();
    expect(aapl.hello).toEqual({ type: 'hello', connection_id: expect.stringMatching(/^[0-9a-f-]{36}$/), heartbeat_ms: 15_000 });
    expect(msft.hello.connection_id).not.toBe(aapl.hello.connection_id);

    const set = async (stream: OpenStream, symbols: string[]) => {
      const answer = await t.app.inject({ method: 'POST', url: '/api/live_symbols', headers: { authorization: user.authorization }, payload: { connection_id: stream.hello.connection_id, symbols } });
      expect(answer.statusCode, answer.body).toBe(200);
    };
    await set(aapl, ['aapl']);
    await set(msft, ['MSFT']);
    board.set('AAPL', 101);
    board.set('MSFT', 202);
    // The publisher reads the wanted symbols (both streams') and publishes each once.
    expect(await t.app.liveQuotes.runOnce()).toEqual({ symbols: 2, published: 2, failed: [] });
    expect(await t.app.liveQuotes.runOnce()).toEqual({ symbols: 2, published: 0, failed: [] });
    await bus.publish({ type: 'ideas', engine: 'layered', at: 1 });
    const aaplLines = await aapl.until(isMarker(1));
    expect(aaplLines.filter((line) => line.type === 'quote')).toEqual([
      { type: 'quote', symbol: 'AAPL', price: 101, previousClose: 100, change: 1, percentChange: 1, timestamp: 1_700_000_000 },
    ]);
    const msftLines = await msft.until(isMarker(1));
    expect(msftLines.filter((line) => line.type === 'quote').map((line) => line.type === 'quote' && line.symbol)).toEqual(['MSFT']);

    // Only the change goes out next time.
    board.set('AAPL', 99.5);
    expect(await t.app.liveQuotes.runOnce()).toMatchObject({ published: 1 });
    const next = await aapl.until((line) => line.type === 'quote');
    expect(next.at(-1)).toMatchObject({ symbol: 'AAPL', price: 99.5 });
    aapl.close();
    msft.close();
  });

  it('sends an alert only to its user, without the user id', async () => {
    const alice = await signedIn(t, 'alice');
    const bob = await signedIn(t, 'bob');
    const aliceStream = await openStream(base, alice.authorization);
    const bobStream = await openStream(base, bob.authorization);
    await bus.publish({ type: 'alert', userId: alice.userId, alertType: 'PRICE_DROP', symbol: 'AAPL', message: 'AAPL fell 5 %', at: 5 });
    await bus.publish({ type: 'ideas', engine: 'swing', at: 2 });
    expect((await aliceStream.until(isMarker(2))).filter((line) => line.type === 'alert')).toEqual([
      { type: 'alert', alertType: 'PRICE_DROP', symbol: 'AAPL', message: 'AAPL fell 5 %', at: 5 },
    ]);
    expect((await bobStream.until(isMarker(2))).filter((line) => line.type === 'alert')).toEqual([]);
    aliceStream.close();
    bobStream.close();
  });

  it('validates the symbols call and checks whose stream it is', async () => {
    const owner = await signedIn(t, 'owner');
    const other = await signedIn(t, 'other');
    const stream = await openStream(base, owner.authorization);
    const call = (authorization: string, payload: unknown) => t.app.inject({ method: 'POST', url: '/api/live_symbols', headers: { authorization }, payload: payload as object });
    const cases: Array<[unknown, string]> = [
      [{ symbols: ['AAPL'] }, 'connection_id is required'],
      [{ connection_id: 'abc', symbols: ['AAPL'] }, "connection_id must be the id the stream's hello line gave"],
      [{ connection_id: stream.hello.connection_id }, 'symbols is required'],
      [{ connection_id: stream.hello.connection_id, symbols: 'AAPL' }, 'symbols must be a list of symbols'],
      [{ connection_id: stream.hello.connection_id, symbols: ['A B'] }, 'Symbol may hold only letters, digits and . - ^ = :'],
      [{ connection_id: stream.hello.connection_id, symbols: Array.from({ length: 101 }, (_, i) => `S${i}`) }, 'symbols may name at most 100 symbols'],
    ];
    for (const [payload, msg] of cases) {
      const answer = await call(owner.authorization, payload);
      expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
      expect(answer.json<{ msg: string }>().msg).toContain(msg);
    }
    const unknown = await call(owner.authorization, { connection_id: randomUUID(), symbols: ['AAPL'] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ msg: string }>().msg).toMatch(/No open live-update stream/);
    const foreign = await call(other.authorization, { connection_id: stream.hello.connection_id, symbols: ['AAPL'] });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ msg: 'This live-update stream belongs to another account.' });
    const ok = await call(owner.authorization, { connection_id: stream.hello.connection_id, symbols: [] });
    expect(ok.json()).toEqual({ msg: 'This stream now shows 0 symbols.' });
    stream.close();
    // A closed stream is forgotten.
    await expect.poll(async () => (await call(owner.authorization, { connection_id: stream.hello.connection_id, symbols: [] })).statusCode).toBe(404);
  });

  it(`caps a user at ${LIVE_STREAMS_PER_USER} open streams with a clear 429`, async () => {
    await expectStreamCap(base, (await signedIn(t, 'cap')).authorization);
  });

  it('ends the streams of a user deactivated by another process (the CLI), and only theirs', async () => {
    const gone = await signedIn(t, 'deactivated-elsewhere');
    const stays = await signedIn(t, 'stays');
    const first = await openStream(base, gone.authorization);
    const second = await openStream(base, gone.authorization);
    const other = await openStream(base, stays.authorization);
    // As `npm run user -- deactivate` does, from outside this app: only PostgreSQL's notification tells it.
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, gone.userId));
    // ended() fails when no line and no end comes within LINE_WAIT_MS.
    await Promise.all([first.ended(), second.ended()]);
    await bus.publish({ type: 'ideas', engine: 'layered', at: 30 });
    await other.until(isMarker(30));
    const again = await fetch(`${base}/api/live`, { headers: { authorization: gone.authorization } });
    expect(again.status).toBe(401);
    other.close();
  });

  it('ends the stream of a user who deactivates their own account', async () => {
    const user = await signedIn(t, 'deactivated-self');
    const stream = await openStream(base, user.authorization);
    const answer = await t.app.inject({ method: 'POST', url: '/api/deactivate_user', headers: { authorization: user.authorization } });
    expect(answer.statusCode, answer.body).toBe(200);
    await stream.ended();
  });

  it('ends the stream when its session ends (the access token expires)', async () => {
    const user = await signedIn(t, 'session-end');
    const expiresAt = Math.floor(Date.now() / 1000) + 2;
    const sid = sessionIdOf(user.authorization);
    const stream = await openStream(base, `Bearer ${signJwt({ sub: String(user.userId), sid, iat: expiresAt - 60, exp: expiresAt })}`);
    await stream.ended();
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt * 1000);
  });
});

describe('live updates: a session ended before its token expires', () => {
  let t: TestApp;
  let base: string;
  const bus = createInProcessBus();
  beforeAll(async () => {
    t = await createTestApp({}, { bus });
    base = await listen(t.app);
  });
  afterAll(async () => {
    await t.close();
    await bus.close();
  });

  it("ends the stream of a session its user ends from another device, within 5 s, and not the other session's", async () => {
    const user = await signedIn(t, 'ended-session');
    const phone = await login(t.app, user.email, 'pw');
    const ended = await openStream(base, user.authorization);
    const kept = await openStream(base, phone.authorization);
    const startedAt = Date.now();
    const answer = await t.app.inject({ method: 'POST', url: '/api/end_session', headers: phone, payload: { id: sessionIdOf(user.authorization) } });
    expect([answer.statusCode, answer.json()]).toEqual([200, { msg: 'Session ended.' }]);
    await ended.ended();
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect((await fetch(`${base}/api/live`, { headers: { authorization: user.authorization } })).status).toBe(401);
    // The other session's stream goes on (it gets the next line); its Sign Out ends it.
    await bus.publish({ type: 'ideas', engine: 'layered', at: 41 });
    await kept.until(isMarker(41));
    await t.app.inject({ method: 'POST', url: '/api/logout', headers: phone });
    await kept.ended();
  });

  it('ends the stream of a session ended by SQL from outside this app (an admin, the CLI)', async () => {
    const user = await signedIn(t, 'ended-outside');
    const stream = await openStream(base, user.authorization);
    await t.pool.query("update sessions set ended_at = now(), ended_reason = 'admin' where id = $1", [sessionIdOf(user.authorization)]);
    await stream.ended();
  });
});

describe('live updates: closing the app', () => {
  it('ends the open streams instead of waiting for them', async () => {
    const t = await createTestApp();
    try {
      const base = await listen(t.app);
      const user = await signedIn(t, 'closing');
      const stream = await openStream(base, user.authorization);
      const ended = stream.ended();
      await t.app.close();
      await ended;
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!testRedisUrl())('live updates across two app instances (Redis)', () => {
  const settings = testRedisUrl() ? testRedisSettings('live') : undefined;
  const board = quoteBoard();
  let a: TestApp;
  /** A second API process on the same database and Redis. */
  let b: FastifyInstance;
  let baseA: string;
  let baseB: string;
  let busA: ReturnType<typeof createRedisBus>;
  let busB: ReturnType<typeof createRedisBus>;

  beforeAll(async () => {
    const env = { REDIS_URL: settings!.url, REDIS_PREFIX: settings!.prefix };
    busA = createRedisBus(settings!);
    busB = createRedisBus(settings!);
    await Promise.all([busA.ready(), busB.ready()]);
    a = await createTestApp(env, { bus: busA });
    const config = loadConfig({ ...env, DATA_DIR: a.dataDir, LOG_LEVEL: 'silent', WEB_DIST: a.config.WEB_DIST! });
    b = await buildApp({ config, db: a.db, pool: a.pool, mailer: a.mailer, market: board.market(createMarket(config, a.clock)), marketClock: a.clock, jwtSecret: TEST_JWT_SECRET, clock: a.clock, logger: false, bus: busB });
    await b.ready();
    [baseA, baseB] = await Promise.all([listen(a.app), listen(b)]);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await busA?.close();
    await busB?.close();
    await settings?.clear();
  });

  it("a stream on app A receives the quote app B's publisher sends, after a symbols call taken by B", async () => {
    const email = uniqueEmail('redis');
    const userId = await createUser(a.db, email, 'pw');
    const headers = await login(a.app, email, 'pw');
    const stream = await openStream(baseA, headers.authorization);
    // The symbols call lands on B: it finds the stream's owner in Redis and tells A over the bus.
    const onB = await login(b, email, 'pw');
    const answer = await b.inject({ method: 'POST', url: '/api/live_symbols', headers: onB, payload: { connection_id: stream.hello.connection_id, symbols: ['NVDA'] } });
    expect(answer.statusCode, answer.body).toBe(200);
    board.set('NVDA', 140);
    expect(await b.liveQuotes.runOnce()).toEqual({ symbols: 1, published: 1, failed: [] });
    const lines = await stream.until((line) => line.type === 'quote');
    expect(lines.at(-1)).toMatchObject({ type: 'quote', symbol: 'NVDA', price: 140 });
    // An alert published by B for this user reaches A's stream too.
    await busB.publish({ type: 'alert', userId, alertType: 'PRICE_RISE', symbol: 'NVDA', message: 'NVDA rose', at: 9 });
    expect((await stream.until((line) => line.type === 'alert')).at(-1)).toMatchObject({ message: 'NVDA rose' });
    stream.close();
  });

  it('ends a stream on app A when the user deactivates the account through app B', async () => {
    const email = uniqueEmail('deactivate-across');
    await createUser(a.db, email, 'pw');
    const stream = await openStream(baseA, (await login(a.app, email, 'pw')).authorization);
    const answer = await b.inject({ method: 'POST', url: '/api/deactivate_user', headers: await login(b, email, 'pw') });
    expect(answer.statusCode, answer.body).toBe(200);
    await stream.ended();
  });

  it(`caps a user at ${LIVE_STREAMS_PER_USER} open streams on one app on Redis`, async () => {
    const email = uniqueEmail('cap-redis');
    await createUser(a.db, email, 'pw');
    await expectStreamCap(baseA, (await login(a.app, email, 'pw')).authorization);
  });

  it(`caps a user at ${LIVE_STREAMS_PER_USER} open streams over both apps together`, async () => {
    const email = uniqueEmail('cap-both');
    await createUser(a.db, email, 'pw');
    const onA = (await login(a.app, email, 'pw')).authorization;
    const onB = (await login(b, email, 'pw')).authorization;
    const streamsA = await Promise.all([1, 2, 3].map(() => openStream(baseA, onA)));
    const streamsB = await Promise.all([1, 2].map(() => openStream(baseB, onB)));
    // Each app holds fewer than the cap itself, but the user's sixth stream is refused on either.
    await expectRefused(baseA, onA);
    await expectRefused(baseB, onB);
    // A stream closed on A frees a place for one on B.
    streamsA[0]!.close();
    const more: OpenStream[] = [];
    await expect.poll(async () => {
      const stream = await openStream(baseB, onB).catch(() => undefined);
      if (stream) more.push(stream);
      return more.length;
    }).toBe(1);
    await expectRefused(baseA, onA);
    [...streamsA.slice(1), ...streamsB, ...more].forEach((stream) => stream.close());
  });
});
