import type { Resolver } from '../src/lib/outbound/url-guard';
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { CustomFetch } from 'openid-client';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { createDatabase, createPool, type Database } from '../src/db/client';
import { createUsersRepo } from '../src/features/auth/users.repo';
import { outboxEmails } from '../src/db/schema';
import { desc, eq } from 'drizzle-orm';
import type { CacheStore } from '../src/lib/cache-store';
import { createRedisStore } from '../src/lib/cache-store.redis';
import type { Clock } from '../src/lib/clock';
import type { RedisSettings } from '../src/lib/redis';
import type { LiveBus } from '../src/lib/live-bus';
import { hashPassword } from '../src/lib/password';
import type { Analyst } from '../src/providers/ai';
import { createMailer, type Mailer } from '../src/providers/mail';
import type { Sms } from '../src/providers/sms';
import { createMarket, marketClock } from '../src/providers/market';
import { createImportedPricesRepo } from '../src/features/data-import/imported-prices.repo';
import type { CachedMarket } from '../src/providers/market/cached-market';
import type { AnyEngine } from '../src/features/trades/trades.types';
import type { ReadinessCheck } from '../src/features/health/readiness';
import type { EngineId, UniverseMember } from '@signalboard/core';
import { testRedisSettings, useRedisForApps } from './redis';
import type { QueuedWork } from '../src/jobs/tasks';

export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123';

/**
 * The timeout of a test that replays engines' history in its own body (not in a beforeAll, which has
 * the hook timeout): a replay of the test universe took up to ~35 s on 2 shared cores beside a second
 * test worker, over vitest's 30 s for the server suite. A hang guard only: the tests wait for states.
 */
export const REPLAY_TIMEOUT_MS = 300_000;

/** A clock the test moves by hand. */
export class FakeClock implements Clock {
  constructor(private ms = Date.UTC(2026, 10, 2, 15, 0, 0)) {}
  nowMs() {
    return this.ms;
  }
  advance(ms: number) {
    this.ms += ms;
  }
}

/** A fresh database copied from the migrated template. */
export async function createTestDatabase(): Promise<{ url: string; pool: pg.Pool; db: Database; drop(): Promise<void> }> {
  const adminUrl = inject('adminUrl');
  const name = `${inject('databasePrefix')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${inject('templateDatabase')}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = createPool(url.toString(), 5);
  return {
    url: url.toString(),
    pool,
    db: createDatabase(pool),
    async drop() {
      await pool.end();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  /** The test database's connection string (another process's pool connects with it). */
  url: string;
  db: Database;
  pool: pg.Pool;
  config: Config;
  clock: FakeClock;
  mailer: Mailer;
  /** The app's market (createMarket on the test's clock or MARKET_NOW, unless the test gave one). */
  market: CachedMarket;
  /** The app's shared-state store: on Redis with `redis` or in the SB_TEST_REDIS=external leg, else none (the app's memory store). */
  store: CacheStore | undefined;
  dataDir: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  mailer?: Mailer;
  /** Wraps the mailer (the given one, or the outbox of the test's database), e.g. to make it fail on demand. */
  wrapMailer?: (mailer: Mailer) => Mailer;
  analyst?: Analyst;
  /** The SMS provider (default: the one the test's config names, on the test's clock). */
  sms?: Sms;
  /** The market (default: createMarket on the test's config, market clock and store). */
  market?: (config: Config, marketClock: Clock, store: CacheStore | undefined) => CachedMarket;
  /** pino options (e.g. a `stream` that collects the log); default: no log. */
  logger?: Record<string, unknown>;
  /** The trade engines (default: the server's) and their universe (default: the source's S&P 500). */
  tradeEngines?: readonly AnyEngine[];
  tradeUniverse?: (survivorshipBiased: boolean, engine: EngineId) => Promise<UniverseMember[]>;
  /** Readiness checks besides (or replacing) the defaults. */
  readinessChecks?: readonly ReadinessCheck[];
  /**
   * Builds the app on Redis with these settings (the test clears them): two apps given the same
   * settings are two API processes of one installation. Without it the app is on Redis only in the
   * SB_TEST_REDIS=external leg, under a prefix of its own cleared on close.
   */
  redis?: RedisSettings;
  /** Work handed to the job queue instead of run in-process (the REDIS_URL wiring; jobs/tasks.ts). */
  queued?: QueuedWork;
  /** The live-update bus (default: the app's in-process one); the caller closes it. */
  bus?: LiveBus;
  /** DNS for the URLs users give (webhooks): e.g. a name that resolves to loopback. */
  outboundResolver?: Resolver;
  /** Single sign-on's requests to the provider (a proxy that forges answers: oidc.routes.test.ts). */
  oidcFetch?: CustomFetch;
}

/** buildApp on a fresh database, with the outbox mailer in a temporary DATA_DIR and a fake clock. */
export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-app-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST: path.join(dataDir, 'no-web'), ...env });
  const clock = new FakeClock();
  const baseMailer = options.mailer ?? createMailer(config, database.db, clock);
  const mailer = options.wrapMailer ? options.wrapMailer(baseMailer) : baseMailer;
  // The market runs on MARKET_NOW when a test pins it, else on the fake clock.
  const clockForMarket = marketClock(config, clock);
  const ownRedis = !options.redis && useRedisForApps() ? testRedisSettings('app') : undefined;
  const redisSettings = options.redis ?? ownRedis;
  const store = redisSettings ? createRedisStore(redisSettings, { connectionName: 'test-app' }) : undefined;
  const market = options.market ? options.market(config, clockForMarket, store) : createMarket(config, clockForMarket, store, createImportedPricesRepo(database.db));
  const app = await buildApp({
    config,
    db: database.db,
    pool: database.pool,
    mailer,
    market,
    marketClock: clockForMarket,
    ...(store ? { store } : {}),
    ...(options.analyst ? { analyst: options.analyst } : {}),
    ...(options.sms ? { sms: options.sms } : {}),
    ...(options.tradeEngines ? { tradeEngines: options.tradeEngines } : {}),
    ...(options.tradeUniverse ? { tradeUniverse: options.tradeUniverse } : {}),
    ...(options.readinessChecks ? { readinessChecks: options.readinessChecks } : {}),
    ...(options.queued ? { queued: options.queued } : {}),
    ...(options.bus ? { bus: options.bus } : {}),
    ...(options.outboundResolver ? { outboundResolver: options.outboundResolver } : {}),
    ...(options.oidcFetch ? { oidcFetch: options.oidcFetch } : {}),
    jwtSecret: TEST_JWT_SECRET,
    clock,
    logger: options.logger ?? false,
  });
  await app.ready();
  return {
    app,
    url: database.url,
    db: database.db,
    pool: database.pool,
    config,
    clock,
    mailer,
    market,
    store,
    dataDir,
    async close() {
      await app.close();
      await store?.close();
      await ownRedis?.clear();
      mailer.close();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates an account directly (as the admin CLI does). */
export async function createUser(
  db: Database,
  email: string,
  password: string,
  options: { firstLogin?: boolean } = {},
): Promise<number> {
  const user = await createUsersRepo(db).create({
    email,
    passwordHash: await hashPassword(password),
    firstLogin: options.firstLogin ?? false,
  });
  return user.id;
}

/** Signs in through the API and answers the bearer header. */
export async function login(app: FastifyInstance, email: string, password: string): Promise<{ authorization: string }> {
  const response = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return { authorization: `Bearer ${response.json<{ access_token: string }>().access_token}` };
}

/**
 * The newest mail to `email` once the work after the answers has run: its subject, its delivered
 * .eml decoded (quoted-printable undone; the outbox row keeps secrets masked) and the row's text.
 */
export async function lastMailTo(t: Pick<TestApp, 'app' | 'db'>, email: string): Promise<{ subject: string; text: string; row: string }> {
  await t.app.drainBackgroundWork();
  const [last] = await t.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, email)).orderBy(desc(outboxEmails.id)).limit(1);
  if (!last) throw new Error(`no mail to ${email}`);
  const text = (await fs.readFile(last.emlPath, 'utf8'))
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_all, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return { subject: last.subject, text, row: last.textBody };
}

/** The token of the newest invitation link mailed to `email` (`…/invite#<token>`). */
export async function invitationTokenOf(t: Pick<TestApp, 'app' | 'db'>, email: string): Promise<string> {
  const { text } = await lastMailTo(t, email);
  const token = /\/invite#([\w-]+)/.exec(text)?.[1];
  if (!token) throw new Error(`no invitation link in the mail to ${email}`);
  return token;
}

/** An HS256 JWT signed by hand, for expired and foreign-secret tokens. */
export function signJwt(payload: Record<string, unknown>, secret = TEST_JWT_SECRET): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

let counter = 0;
/** A distinct e-mail per call, so tests in one file never collide. */
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  return `${label}-${counter}-${randomBytes(3).toString('hex')}@example.com`;
}

/**
 * A new signed-in user whose favourites are `symbols` (a bare symbol's description is '{symbol} Corp.');
 * answers its headers.
 */
export async function userWithFavorites(
  t: { app: FastifyInstance; db: Database },
  label: string,
  symbols: ReadonlyArray<string | { symbol: string; description: string }>,
): Promise<{ authorization: string }> {
  const email = uniqueEmail(label);
  await createUser(t.db, email, 'pw');
  const headers = await login(t.app, email, 'pw');
  if (symbols.length > 0) {
    const stocks = symbols.map((entry) => (typeof entry === 'string' ? { symbol: entry, description: `${entry} Corp.` } : entry));
    const saved = await t.app.inject({ method: 'POST', url: '/api/batch_update_favorite_stocks', headers, payload: { stocks } });
    if (saved.statusCode !== 200) throw new Error(`batch_update_favorite_stocks answered ${saved.statusCode}: ${saved.body}`);
  }
  return headers;
}
