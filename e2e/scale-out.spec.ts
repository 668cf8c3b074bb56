/**
 * The scale-out topology (issue 16) as processes: 2 API servers and 2 workers (the built bundles) on
 * one PostgreSQL database (DATABASE_URL's server) and one Redis (REDIS_URL), the pinned dataset with
 * MARKET_NOW inside a session and a TEST_CONTROL_FILE of this spec's own that moves quotes; and, for
 * the upstream count, 2 more API servers on the live market against a local fake Finnhub. Runs when
 * both DATABASE_URL and REDIS_URL are set (CI sets them when the servers answer); skipped otherwise.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import type { Browser } from 'playwright-core';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from './support/browser';
import { clusterEnv, createClusterDatabase, startApi, startWorker, type ApiProcess, type ClusterDatabase, type ClusterProcess } from './support/cluster';
import { REPO_ROOT } from './support/server-process';
import { dropRedisKeys } from '../apps/server/test/redis';
import { ENGINE_IDS } from '@signalboard/core';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const PASSWORD = 'correct horse battery staple';
const WORKER_READY = /Signalboard worker is running/;
/** The periodic tasks every process upserts (apps/server/src/jobs/tasks.ts). */
const PERIODIC_TASKS = ['alert-delivery', 'alert-idea-events', 'alert-news', 'alert-poll', 'alert-webhooks', 'jobs-tick', 'live-quotes'];

interface FakeFinnhub {
  baseUrl: string;
  quoteCalls(symbol: string): number;
  close(): Promise<void>;
}

/** A local Finnhub answering /quote for any symbol (after 50 ms, like a real round trip) and counting the calls. */
async function startFakeFinnhub(): Promise<FakeFinnhub> {
  const calls = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/quote') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not in this fake"}');
      return;
    }
    const symbol = url.searchParams.get('symbol') ?? '';
    calls.set(symbol, (calls.get(symbol) ?? 0) + 1);
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ c: 187.5, d: 2.5, dp: 1.3514, h: 188, l: 184, o: 185, pc: 185, t: Math.floor(Date.now() / 1000) }));
    }, 50);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    quoteCalls: (symbol) => calls.get(symbol) ?? 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function call<T>(baseUrl: string, pathAndQuery: string, options: { token?: string; json?: unknown } = {}): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}/api/${pathAndQuery}`, {
    method: options.json === undefined ? 'GET' : 'POST',
    headers,
    ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** An account made with the admin CLI on the cluster's database, past its first login; answers a token from `baseUrl`. */
async function account(env: NodeJS.ProcessEnv, baseUrl: string, label: string): Promise<{ email: string; token: string }> {
  const email = `${label}-${randomBytes(3).toString('hex')}@example.com`;
  const added = spawnSync(process.execPath, [path.join(REPO_ROOT, 'apps/server/dist/cli.js'), 'add', email, '--password', PASSWORD], { env, encoding: 'utf8', timeout: 60_000 });
  if (added.status !== 0) throw new Error(`user add failed: ${added.stderr}${added.stdout}`);
  const first = await call<{ access_token: string }>(baseUrl, 'login', { json: { email, password: PASSWORD } });
  await call(baseUrl, 'update-password', { token: first.body.access_token, json: { new_password: PASSWORD } });
  const login = await call<{ access_token: string }>(baseUrl, 'login', { json: { email, password: PASSWORD } });
  if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
  return { email, token: login.body.access_token };
}

async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs / 1000} s`);
    // Polls the cluster's state (database rows, queue, health), not a pause before a check.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(!DATABASE_URL || !REDIS_URL)('scale-out: 2 API processes and 2 workers on one PostgreSQL and one Redis', () => {
  let database: ClusterDatabase;
  let dataDir: string;
  let controlFile: string;
  let env: NodeJS.ProcessEnv;
  let prefix: string;
  const apis: ApiProcess[] = [];
  let workers: ClusterProcess[] = [];
  let liveApis: ApiProcess[] = [];
  let finnhub: FakeFinnhub;
  let redis: Redis;
  let queue: Queue;
  let longQueue: Queue;
  let browser: Browser | undefined;

  const setControl = async (values: Record<string, unknown>) => {
    const temporary = `${controlFile}.${randomBytes(3).toString('hex')}.tmp`;
    await fs.writeFile(temporary, JSON.stringify(values));
    await fs.rename(temporary, controlFile);
  };
  const setQuotes = (quotes: Record<string, { price: number; previousClose: number }>) => setControl({ quotes });
  const output = () => [...apis, ...workers, ...liveApis].map((p) => p.output()).join('\n').slice(-20_000);
  /** Two live workers again: each one an earlier test killed (or that died) is replaced by a new one. */
  let workerCount = 2;
  const replaceDeadWorkers = async () => {
    workers = await Promise.all(
      workers.map((worker) => (worker.process.exitCode === null && worker.process.signalCode === null ? worker : startWorker(`worker-${(workerCount += 1)}`, env, WORKER_READY))),
    );
  };

  beforeAll(async () => {
    database = await createClusterDatabase(DATABASE_URL!);
    const base = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-cluster-'));
    dataDir = path.join(base, 'data');
    controlFile = path.join(base, 'test-control.json');
    await fs.writeFile(controlFile, '{}');
    prefix = `sb-cluster-${randomBytes(3).toString('hex')}`;
    const datasetDir = path.join(path.dirname(inject('marketDataDir')), 'dataset');
    env = clusterEnv(database.url, REDIS_URL!, prefix, dataDir, {
      MARKET_DATA: 'file',
      DATASET_DIR: datasetDir,
      MARKET_NOW: inject('marketNow'),
      NODE_ENV: 'test',
      TEST_CONTROL_FILE: controlFile,
      ALERT_POLL_SECONDS: '1',
      LOGIN_MAX_PER_EMAIL: '5',
      LOGIN_MAX_PER_ADDRESS: '100000',
      DEMO_ACCOUNT: 'false',
    });
    // The first API migrates the database; then the second.
    apis.push(await startApi('api-1', env));
    apis.push(await startApi('api-2', env));

    finnhub = await startFakeFinnhub();
    const liveEnv = clusterEnv(database.url, REDIS_URL!, `${prefix}-live`, path.join(base, 'live-data'), {
      MARKET_DATA: 'live',
      FINNHUB_API_KEY: 'cluster-test',
      FINNHUB_BASE_URL: finnhub.baseUrl,
      YAHOO_ENABLED: 'false',
      DEMO_ACCOUNT: 'false',
      LOGIN_MAX_PER_ADDRESS: '100000',
    });
    liveApis = await Promise.all([startApi('live-api-1', liveEnv), startApi('live-api-2', liveEnv)]);

    redis = new Redis(REDIS_URL!, { maxRetriesPerRequest: 3 });
    queue = new Queue('jobs', { connection: redis, prefix });
    longQueue = new Queue('long-jobs', { connection: redis, prefix });
    // The workers last: their first tick queues the engines' replays, which the first test catches under way.
    workers = await Promise.all([startWorker('worker-1', env, WORKER_READY), startWorker('worker-2', env, WORKER_READY)]);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await queue?.close();
    await longQueue?.close();
    redis?.disconnect();
    const codes = await Promise.all([...apis, ...workers, ...liveApis].map(async (p) => [p.name, await p.stop()] as const));
    for (const [name, code] of codes) if (code !== 0 && code !== -1) console.error(`${name} exited with ${code}`);
    await finnhub?.close();
    // This run's Redis keys, then its database.
    for (const pattern of [`${prefix}:*`, `${prefix}-live:*`]) await dropRedisKeys(REDIS_URL!, pattern);
    await database?.drop();
    if (dataDir) await fs.rm(path.dirname(dataDir), { recursive: true, force: true });
  }, 120_000);

  it('a worker killed mid-replay: another worker takes the engine replay over at once and finishes it', async () => {
    const [worker1, worker2] = workers as [ClusterProcess, ClusterProcess];
    const name1 = `${os.hostname()}:${worker1.process.pid}`;
    type VersionRow = { rule_version: string; replay_state: string; sessions_done: number; sessions_total: number };
    const versions = async () =>
      (await database.pool.query<VersionRow>('select rule_version, replay_state, sessions_done, sessions_total from trade_engine_versions order by rule_version')).rows;
    // A replay job in worker 1's hands with some sessions stored and most still to go (progress is written every 10 sessions).
    let caught: VersionRow | undefined;
    const deadline = Date.now() + 120_000;
    while (!caught) {
      if (Date.now() > deadline) throw new Error(`no replay seen under way on worker 1 in 120 s: ${JSON.stringify(await versions())}\n${output()}`);
      const held = new Set((await longQueue.getActive()).filter((job) => job.name === 'trades-replay' && job.processedBy === name1).map((job) => String(job.data.ruleVersion)));
      if (held.size === 0) continue;
      caught = (await versions()).find((row) => held.has(row.rule_version) && row.replay_state === 'running' && row.sessions_done > 0 && row.sessions_done * 2 < row.sessions_total);
    }
    worker1.process.kill('SIGKILL');
    const killedAt = Date.now();
    await worker1.stop();
    // Within about half a minute (BullMQ's lock and stalled check), not the claim's 15 minutes: worker 2 takes the job,
    // and its claim, over and goes on from the last stored session.
    const finished = await waitFor(`the ${caught.rule_version} replay`, versions, (rows) => rows.find((row) => row.rule_version === caught!.rule_version)?.replay_state === 'done', 120_000);
    const takenOverInMs = Date.now() - killedAt;
    const row = finished.find((each) => each.rule_version === caught!.rule_version)!;
    expect(row.sessions_done).toBe(row.sessions_total);
    const claim = (await database.pool.query<{ status: string; attempts: number }>('select status, attempts from job_runs where job = $1', [`trades-replay:${caught.rule_version}`])).rows;
    expect(claim).toEqual([{ status: 'done', attempts: 2 }]);
    expect(takenOverInMs).toBeLessThan(90_000);
    expect(worker2.process.exitCode).toBeNull();
    // A worker started again in its place: the rest of the spec runs on two workers.
    await replaceDeadWorkers();
    console.info(`scale-out: ${caught.rule_version} replay killed at ${caught.sessions_done}/${caught.sessions_total} sessions, done ${takenOverInMs} ms later`);
  }, 240_000);

  it('four processes upserting the schedule make one scheduler per periodic task', async () => {
    const schedulers = await queue.getJobSchedulers(0, -1, true);
    const names = schedulers.map((scheduler) => scheduler.key).sort();
    expect(names).toEqual(expect.arrayContaining(PERIODIC_TASKS));
    expect(new Set(names).size).toBe(names.length);
  });

  it('each scheduled slot runs once: every job claim is done at its first attempt', async () => {
    // The dashboard's jobs of the pinned session (MARKET_NOW: one slot each), run by whichever worker
    // took each minute's tick (the engines' replays are long and have their own progress).
    const rows = await waitFor(
      'the dashboard jobs',
      async () => (await database.pool.query<{ job: string; status: string; attempts: number }>(`select job, status, attempts from job_runs where job not like 'trades-%' order by job`)).rows,
      (found) => found.length > 0 && found.every((row) => row.status === 'done'),
      120_000,
    );
    for (const row of rows) expect(row, row.job).toMatchObject({ status: 'done', attempts: 1 });
    // More ticks ran since (every minute, on either worker): none ran a done slot again.
    // Every completed job the queue keeps (its retention, 5,000): with ALERT_POLL_SECONDS=1 the alert
    // tasks complete several jobs a second, so the newest 200 hold less than a minute, often no tick.
    const ticks = await waitFor('a second minute tick', () => queue.getJobs(['completed'], 0, 4_999), (jobs) => jobs.filter((job) => job.name === 'jobs-tick').length >= 2, 150_000);
    expect(new Set(ticks.filter((job) => job.name === 'jobs-tick').map((job) => job.processedBy)).size).toBeGreaterThanOrEqual(1);
    const again = (await database.pool.query<{ job: string; attempts: number }>(`select job, attempts from job_runs where job not like 'trades-%'`)).rows;
    for (const row of again) expect(row.attempts, row.job).toBe(1);
  }, 300_000);

  it('a worker killed during the dashboard jobs and the marks: the other worker takes their claims over within about 30 s', async () => {
    // New slots for every dashboard job and the engines' marks: the market clock 2 hours on (13:00 New York, the
    // session still open, no daily pass due). Each job claimed there is held (TEST_CONTROL_FILE holdJobs) until
    // the worker running it is killed.
    const slot = new Date(Date.parse(inject('marketNow')) + 2 * 60 * 60_000).toISOString();
    await replaceDeadWorkers();
    // The engines' marks run once their replays are done: every engine's (drop's is queued only after swing's is done).
    const versions = async () => (await database.pool.query<{ replay_state: string }>('select replay_state from trade_engine_versions')).rows;
    await waitFor("the engines' replays", versions, (rows) => rows.length === ENGINE_IDS.length && rows.every((row) => row.replay_state === 'done'), 180_000);
    type Claim = { job: string; status: string; attempts: number; holder: string | null };
    const claims = async () => (await database.pool.query<Claim>('select job, status, attempts, holder from job_runs where slot = $1 order by job', [slot])).rows;
    try {
      await setControl({ marketNow: slot, holdJobs: ['overall-sentiment', 'sector-sentiment', 'economic-indicators', 'trades-marks:'] });
      // A registry pass now rather than at the next minute (a minute tick on the other worker may take some of the claims).
      await queue.add('jobs-tick', {}, { jobId: `jobs-tick-kill-${randomBytes(3).toString('hex')}` });
      const held = await waitFor('the jobs held on the workers', claims, (rows) => rows.length === 3 + ENGINE_IDS.length && rows.every((row) => row.status === 'running'), 90_000);
      expect(held.map((row) => row.job)).toEqual([...ENGINE_IDS.map((id) => `trades-marks:${id}`), 'economic-indicators', 'overall-sentiment', 'sector-sentiment'].sort());
      // The worker holding the most claims is killed; the claims it held are the ones to be taken over.
      const holders = [...new Set(held.map((row) => row.holder ?? ''))].map((name) => ({ name, claims: held.filter((row) => (row.holder ?? '') === name) }));
      const { name: victimName, claims: victimClaims } = holders.sort((a, b) => b.claims.length - a.claims.length)[0]!;
      const victim = workers.find((worker) => `${os.hostname()}:${worker.process.pid}` === victimName);
      expect(victim, `${victimName} is none of the workers`).toBeDefined();
      victim!.process.kill('SIGKILL');
      const killedAt = Date.now();
      await victim!.stop();
      await setControl({ marketNow: slot });
      // BullMQ starts the killed pass again on the other worker (its lock and stalled check: about 30 s); that pass
      // takes every claim the dead one left over at once, instead of the 15 minutes a claim takes to go stale.
      const finished = await waitFor('the held jobs', claims, (rows) => rows.every((row) => row.status === 'done'), 90_000);
      const takenOverInMs = Date.now() - killedAt;
      expect(finished.map((row) => row.job)).toEqual(held.map((row) => row.job));
      const taken = new Set(victimClaims.map((row) => row.job));
      for (const row of finished) expect(row.attempts, `${row.job}: ${JSON.stringify(finished)}`).toBe(taken.has(row.job) ? 2 : 1);
      expect(takenOverInMs).toBeLessThan(60_000);
      const filled = async (table: string) => (await database.pool.query<{ n: number }>(`select count(*)::int as n from ${table} where slot = $1`, [slot])).rows[0]!.n;
      expect(await filled('overall_sentiment')).toBe(1);
      expect(await filled('sector_sentiment')).toBeGreaterThan(0);
      expect(await filled('economic_indicators')).toBeGreaterThan(0);
      console.info(`scale-out: ${victimName} killed holding ${[...taken].join(', ')}; all done ${takenOverInMs} ms later: ${JSON.stringify(finished)}`);
    } finally {
      // The market clock back where the rest of the spec expects it, and a worker in the killed one's place.
      await setControl({});
      await replaceDeadWorkers();
    }
  }, 240_000);

  it('1,000 concurrent identical quote requests spread over both APIs make one upstream call', async () => {
    const { token } = await account(env, liveApis[0]!.baseUrl, 'quotes');
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => call<{ c?: number; msg?: string }>(liveApis[i % 2]!.baseUrl, 'quote?symbol=IBM', { token })),
    );
    const statuses = new Set(answers.map((answer) => answer.status));
    expect([...statuses]).toEqual([200]);
    expect(new Set(answers.map((answer) => JSON.stringify(answer.body))).size).toBe(1);
    expect(finnhub.quoteCalls('IBM')).toBe(1);
  });

  it('the sign-in limit holds across both APIs', async () => {
    const { email } = await account(env, apis[0]!.baseUrl, 'limit');
    // LOGIN_MAX_PER_EMAIL=5 for the whole installation (account()'s successful sign-ins reset the count):
    // 5 wrong passwords alternating between the APIs, then even the right one answers 429 on either.
    const wrong = { email, password: 'not the password' };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await call(apis[i % 2]!.baseUrl, 'login', { json: wrong })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect((await call(apis[1]!.baseUrl, 'login', { json: { email, password: PASSWORD } })).status).toBe(429);
    expect((await call(apis[0]!.baseUrl, 'login', { json: { email, password: PASSWORD } })).status).toBe(429);
  });

  it('one alert crossing produces one delivery per channel', async () => {
    const [api1, api2] = apis as [ApiProcess, ApiProcess];
    await setQuotes({ SBUX: { price: 61.5, previousClose: 62 } });
    const { email, token } = await account(env, api1.baseUrl, 'alert');
    const userId = (await database.pool.query<{ id: number }>('select id from users where email = $1', [email])).rows[0]!.id;
    expect((await call(api2.baseUrl, 'batch_update_favorite_stocks', { token, json: { stocks: [{ symbol: 'SBUX', description: 'Starbucks Corporation' }] } })).status).toBe(200);
    const phone = `+1555${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
    expect((await call(api1.baseUrl, 'send_verification_code', { token, json: { phone_number: phone } })).status).toBe(200);
    const smsTo = async () => {
      const dir = path.join(dataDir, 'sms-outbox');
      const files = (await fs.readdir(dir).catch(() => [] as string[])).filter((file) => file.endsWith('.txt')).sort();
      return (await Promise.all(files.map((file) => fs.readFile(path.join(dir, file), 'utf8')))).filter((text) => text.startsWith(`To: ${phone}\n`));
    };
    const code = (await smsTo()).at(-1)?.match(/code is (\d{6})\./)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect((await call(api2.baseUrl, 'verify_code', { token, json: { verification_code: code, phone_number: phone } })).status).toBe(200);
    const off = { enabled: false, start: '21:00', end: '08:00' };
    expect((await call(api1.baseUrl, 'save_alert_delivery_settings', { token, json: { time_zone: 'UTC', sms_quiet_hours: off, email_quiet_hours: off, paused: false } })).status).toBe(200);
    const saved = await call<{ msg: string }>(api2.baseUrl, 'save_alert_preferences', {
      token,
      json: { alert_type: 'PERCENT_DROP', stock_symbols: ['SBUX'], threshold_value: 5, enable_sms: true, enable_email: true, is_active: true },
    });
    expect(saved.body.msg).toBe('Percent Drop alert preferences saved successfully!');

    const deliveries = async () =>
      (await database.pool.query<{ channel: string; n: number }>('select channel, count(*)::int as n from alert_deliveries where user_id = $1 group by channel order by channel', [userId])).rows;
    // 62 → 58.50 is −5.6 %: the workers' evaluation fires once, the deliveries go out once per channel.
    await setQuotes({ SBUX: { price: 58.5, previousClose: 62 } });
    await waitFor('the deliveries', deliveries, (rows) => rows.length === 2, 60_000);
    await waitFor('the alert SMS', async () => (await smsTo()).filter((text) => text.includes('SBUX')).length, (n) => n >= 1, 30_000);
    // Many more evaluation passes on both workers (one a second) around the level: nothing more.
    const evaluatedAt = async () => (await call<{ alerts_evaluated_at: number | null }>(api1.baseUrl, 'health')).body.alerts_evaluated_at;
    for (const price of [59.0, 58.8, 59.1, 58.7]) {
      await setQuotes({ SBUX: { price, previousClose: 62 } });
      const before = await evaluatedAt();
      await waitFor('an evaluation after the move', evaluatedAt, (at) => at !== null && at !== before, 30_000);
    }
    expect(await deliveries()).toEqual([
      { channel: 'email', n: 1 },
      { channel: 'sms', n: 1 },
    ]);
    expect((await smsTo()).filter((text) => text.includes('SBUX'))).toHaveLength(1);
  }, 240_000);

  it('a browser connected to API 1 receives a tick published by a worker', async () => {
    const api1 = apis[0]!;
    await setQuotes({ DPZ: { price: 400, previousClose: 400 } });
    const { token } = await account(env, api1.baseUrl, 'live');
    expect((await call(api1.baseUrl, 'batch_update_favorite_stocks', { token, json: { stocks: [{ symbol: 'DPZ', description: "Domino's Pizza Inc." }] } })).status).toBe(200);
    browser = await launchBrowser();
    const context = await browser.newContext({ baseURL: api1.baseUrl, viewport: { width: 1366, height: 860 } });
    context.setDefaultTimeout(15_000);
    await context.clock.setFixedTime(new Date(inject('marketNow')));
    await context.addInitScript((value) => window.localStorage.setItem('access_token', value), token);
    const page = await context.newPage();
    const quotePolls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/favorites/quotes') quotePolls.push(request.url());
    });
    await page.goto('/dashboard/symbollookup');
    const row = page.getByRole('list', { name: 'Your Favorites' }).getByRole('listitem').filter({ hasText: 'DPZ' });
    await expect.poll(() => row.textContent(), { timeout: 20_000 }).toContain('400.00');
    const live = page.locator('[role="status"][data-live-status]');
    await expect.poll(() => live.getAttribute('data-live-status'), { timeout: 20_000 }).toBe('live');

    // API 1 runs no job: the quote is read by a worker's live-quotes job and published on Redis.
    const pollsBefore = quotePolls.length;
    await setQuotes({ DPZ: { price: 412.5, previousClose: 400 } });
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toContain('412.50');
    expect(await row.textContent()).toContain('+12.50 (+3.13%)');
    expect(quotePolls.length).toBe(pollsBefore);
    const published = await queue.getJobs(['completed'], 0, 500);
    expect(published.some((job) => job.name === 'live-quotes' && typeof job.processedBy === 'string' && job.processedBy.length > 0)).toBe(true);
    await screenshot(page, 'scale-out-watchlist-live');
    await context.close();
  }, 120_000);

  it('a worker killed mid-job loses no job: the other worker finishes it and the schedule goes on', async () => {
    await replaceDeadWorkers();
    const [worker1, worker2] = workers as [ClusterProcess, ClusterProcess];
    const name1 = `${os.hostname()}:${worker1.process.pid}`;
    // Catch worker 1 with a job in hand (the alert polls and evaluations run every second), then kill it.
    // Jobs last milliseconds: the queue is read back to back (no pause) until one is seen in worker 1's hands.
    let caught: Awaited<ReturnType<Queue['getActive']>>[number] | undefined;
    const deadline = Date.now() + 120_000;
    while (!caught) {
      if (Date.now() > deadline) throw new Error(`no job seen active on worker 1 in 120 s:\n${output()}`);
      caught = (await queue.getActive()).find((job) => job.processedBy === name1);
    }
    worker1.process.kill('SIGKILL');
    const killedAt = Date.now();
    await worker1.stop();
    // BullMQ's stalled check gives the job to worker 2 (or it had just finished): it ends completed, not lost.
    const state = await waitFor('the caught job', () => queue.getJobState(caught!.id!), (s) => s === 'completed' || s === 'failed', 90_000);
    expect(state, output()).toBe('completed');
    // The schedule runs on worker 2 alone: alert evaluations go on after the kill.
    const evaluatedAt = async () => (await call<{ alerts_evaluated_at: number | null }>(apis[0]!.baseUrl, 'health')).body.alerts_evaluated_at ?? 0;
    await waitFor('an evaluation after the kill', evaluatedAt, (at) => at > killedAt + 1000, 60_000);
    expect(worker2.process.exitCode).toBeNull();
  }, 240_000);
});
