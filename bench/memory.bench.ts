// Memory (issue 24, "light to host"), against the built server (apps/server/dist/server.js) on the
// embedded PostgreSQL of a temporary DATA_DIR, as `npm start` runs it:
//  (d) the authenticated reads a first screen makes (dashboard and WatchList calls), p95 while the
//      engines' first replay runs vs idle after it: budget ≤ 2×;
//  (a) proportional set size (PSS, /proc/<pid>/smaps_rollup) of the server process and of the whole
//      installation (server + the postmaster and every child of it) after the first replay: budgets
//      250 MB and 350 MB;
//  (b) the same after "an hour of use": the market clock (TEST_CONTROL_FILE marketNow, NODE_ENV=test)
//      moves 5 minutes through a session at each scheduler tick (once a minute of wall time) while
//      the demo account loads the main calls; the engines' marks run at every tick;
//  (c) the leak check: the heap used after a full GC (read through the inspector, --inspect) after
//      10,000 requests and 100 engine passes within 10 % of the heap after the first 1,000 requests.
// MEMORY_BENCH_TICKS (default 20: 20 ticks × 5 engines = 100 passes, about 20 minutes) shortens it.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { isTradingDayNumber, newYorkInstantMs } from '@signalboard/core';
import { ensureEmbeddedPostgres } from '../apps/server/src/db/embedded-postgres';

const BUDGET_SERVER_MB = 250;
const BUDGET_INSTALLATION_MB = 350;
const BUDGET_HEAP_GROWTH = 0.1;
const BUDGET_P95_RATIO = 2;
const TICKS = Number(process.env.MEMORY_BENCH_TICKS ?? 20);
const TOTAL_REQUESTS = 10_000;
const FIRST_REQUESTS = 1_000;
const REPLAY_WAIT_MS = 20 * 60_000;

/** What the dashboard and the WatchList ask for as they open. */
const FIRST_SCREEN = ['/api/get_favorite_stocks', '/api/quote?symbol=AAPL', '/api/quote?symbol=MSFT', '/api/fetch_metrics?symbol=NVDA', '/api/market-news', '/api/get_stock_scanner_data'];
/** The main calls of a signed-in user (an hour of use). */
const MAIN_CALLS = [...FIRST_SCREEN, '/api/all_stocks_scanner', '/api/get_swing_trade_entries', '/api/get_combined_options_data', '/api/all_crypto_scanner', '/api/getemail'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/** PSS of a process in MB (0 when it is gone). */
function pssMb(pid: number): number {
  try {
    const match = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+)/m);
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** The embedded server's postmaster and its children (backends, checkpointer, walwriter…). */
function postgresPids(dataDir: string): number[] {
  const postmaster = Number(fs.readFileSync(path.join(dataDir, 'pg/postmaster.pid'), 'utf8').split('\n')[0]);
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return [postmaster, ...children];
}

/** A minimal DevTools protocol client: the server's heap after a full GC. */
async function inspector(url: string) {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let id = 0;
  const pending = new Map<number, (message: { result?: { result?: { value?: unknown } } }) => void>();
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString()) as { id?: number; result?: { result?: { value?: unknown } } };
    if (message.id === undefined) return;
    pending.get(message.id)?.(message);
    pending.delete(message.id);
  });
  const call = (method: string, params: object = {}) =>
    new Promise<{ result?: { result?: { value?: unknown } } }>((resolve) => {
      id += 1;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return {
    async heapAfterGcMb(): Promise<number> {
      await call('HeapProfiler.collectGarbage');
      await call('HeapProfiler.collectGarbage');
      const answer = await call('Runtime.evaluate', { expression: 'process.memoryUsage().heapUsed', returnByValue: true });
      return Number(answer.result?.result?.value) / 1024 / 1024;
    },
    close: () => socket.close(),
  };
}

/** The first instant from `ms` on that is 09:35 New York on a trading day (the market clock's start). */
function nextSessionMorning(ms: number): number {
  let day = Math.floor(ms / 86_400_000) + 1;
  while (!isTradingDayNumber(day)) day += 1;
  return newYorkInstantMs(day, 9 * 60 + 35);
}

export async function run(): Promise<string[][]> {
  const root = process.cwd();
  const serverJs = path.join(root, 'apps/server/dist/server.js');
  if (!fs.existsSync(serverJs)) throw new Error('apps/server/dist/server.js is missing: npm run build first');
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-memory-bench-'));
  fs.chmodSync(base, 0o755);
  const dataDir = path.join(base, 'data');
  const controlFile = path.join(base, 'control.json');
  fs.writeFileSync(controlFile, '{}');
  const { default: net } = await import('node:net');
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'test', TEST_CONTROL_FILE: controlFile, JWT_SECRET: randomBytes(32).toString('hex'), LOGIN_MAX_PER_EMAIL: '1000' };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'METRICS_PORT', 'MARKET_NOW']) delete env[name];
  let output = '';
  let inspectorUrl: string | undefined;
  const server = spawn(process.execPath, ['--inspect=127.0.0.1:0', serverJs], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-10_000)));
  server.stderr!.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-10_000);
    inspectorUrl ??= /ws:\/\/\S+/.exec(chunk.toString())?.[0];
  });
  const exited = new Promise<void>((resolve) => server.on('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const rows: string[][] = [];
  let pool: pg.Pool | undefined;
  let heap: Awaited<ReturnType<typeof inspector>> | undefined;
  try {
    for (let i = 0; ; i += 1) {
      if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}: ${output.slice(-300)}`);
      if (await fetch(`${baseUrl}/api/health`).then((r) => r.ok, () => false)) break;
      if (i > 480) throw new Error('the server did not answer /api/health within 120 s');
      await sleep(250);
    }
    heap = await inspector(inspectorUrl!);
    pool = new pg.Pool({ connectionString: (await ensureEmbeddedPostgres(dataDir, { info: () => undefined, warn: () => undefined })).url, max: 1 });
    const login = (await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'demo@signalboard.local', password: 'demo' }) }).then((r) => r.json())) as { access_token?: string };
    if (!login.access_token) throw new Error('the demo account could not sign in');
    // Past the first login: until its password is changed, a first-login session may only change it.
    const changed = await fetch(`${baseUrl}/api/update-password`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${login.access_token}` }, body: JSON.stringify({ new_password: 'the memory bench password' }) });
    if (!changed.ok) throw new Error(`the demo account's password could not be changed: ${changed.status}`);
    const headers = { authorization: `Bearer ${login.access_token}` };
    let requests = 0;
    let failures = 0;
    const read = async (call: string): Promise<number> => {
      const started = performance.now();
      const answer = await fetch(`${baseUrl}${call}`, { headers });
      await answer.arrayBuffer();
      requests += 1;
      if (!answer.ok) failures += 1;
      return performance.now() - started;
    };
    const replaysDone = async () => {
      const { rows: done } = await pool!.query<{ n: number }>(`select count(*) filter (where replay_state = 'done')::int as n from trade_engine_versions`);
      return (done[0]?.n ?? 0) >= 5;
    };
    /** A user opening the first screen: its calls one after the other, then again after a second. */
    const firstScreens = async (until: () => Promise<boolean>): Promise<number[]> => {
      const latencies: number[] = [];
      while (!(await until())) {
        for (const call of FIRST_SCREEN) latencies.push(await read(call));
        await sleep(1000);
      }
      return latencies;
    };

    // (d) during the first replay, then idle.
    const started = Date.now();
    const during = await firstScreens(async () => {
      if (server.exitCode !== null) throw new Error(`the server exited: ${output.slice(-300)}`);
      if (Date.now() - started > REPLAY_WAIT_MS) throw new Error('the first replay did not finish within 20 min');
      return replaysDone();
    });
    const replaySeconds = (Date.now() - started) / 1000;
    const idleUntil = Date.now() + 30_000;
    const idle = await firstScreens(async () => Date.now() > idleUntil);
    const ratio = percentile(during, 95) / percentile(idle, 95);
    rows.push([`first-screen reads p95 during the first replay (${replaySeconds.toFixed(0)} s, ${during.length} reads)`, `${percentile(during, 95).toFixed(0)} ms vs ${percentile(idle, 95).toFixed(0)} ms idle`, `≤ ${BUDGET_P95_RATIO}× idle`, `${ratio.toFixed(2)}× ${ratio <= BUDGET_P95_RATIO ? 'ok' : 'OVER'}`]);

    // (a) PSS after the first replay.
    const pss = () => {
      const serverMb = pssMb(server.pid!);
      return { serverMb, installationMb: serverMb + postgresPids(dataDir).reduce((sum, pid) => sum + pssMb(pid), 0) };
    };
    const pssRows = (when: string) => {
      const { serverMb, installationMb } = pss();
      rows.push([`server PSS ${when}`, `${serverMb.toFixed(0)} MB`, `≤ ${BUDGET_SERVER_MB} MB`, serverMb <= BUDGET_SERVER_MB ? 'ok' : 'OVER']);
      rows.push([`installation PSS (server + PostgreSQL) ${when}`, `${installationMb.toFixed(0)} MB`, `≤ ${BUDGET_INSTALLATION_MB} MB`, installationMb <= BUDGET_INSTALLATION_MB ? 'ok' : 'OVER']);
    };
    pssRows('after the first replay');

    // (b, c) an hour of use: the first 1,000 requests, then the rest over TICKS scheduler ticks.
    const load = async (count: number) => {
      const target = requests + count;
      const user = async (offset: number) => {
        for (let call = offset; requests < target; call += 1) await read(MAIN_CALLS[call % MAIN_CALLS.length]!);
      };
      await Promise.all(Array.from({ length: 4 }, (_, offset) => user(offset)));
    };
    await load(FIRST_REQUESTS - requests > 0 ? FIRST_REQUESTS - requests : 0);
    const heapFirst = await heap.heapAfterGcMb();
    const passes = async () => {
      const { rows: done } = await pool!.query<{ n: number }>(`select count(*)::int as n from job_runs where job like 'trades-marks:%' and status = 'done'`);
      return done[0]?.n ?? 0;
    };
    const passesBefore = await passes();
    let marketNow = nextSessionMorning(Date.now());
    const perTick = Math.ceil((TOTAL_REQUESTS - requests) / Math.max(1, TICKS));
    for (let tick = 0; tick < TICKS; tick += 1) {
      fs.writeFileSync(controlFile, JSON.stringify({ marketNow: new Date(marketNow).toISOString() }));
      const minute = Math.floor(Date.now() / 60_000);
      await load(perTick);
      // The scheduler runs once a minute of wall time: the next minute's pass sees this market time.
      while (Math.floor(Date.now() / 60_000) === minute) await sleep(500);
      await sleep(5_000);
      marketNow += 5 * 60_000;
    }
    while (requests < TOTAL_REQUESTS) await load(TOTAL_REQUESTS - requests);
    const passCount = (await passes()) - passesBefore;
    const heapLast = await heap.heapAfterGcMb();
    pssRows(`after ${requests} requests and ${passCount} engine passes`);
    const growth = heapLast / heapFirst - 1;
    rows.push([`heap used after a full GC, ${FIRST_REQUESTS} → ${requests} requests + ${passCount} passes`, `${heapFirst.toFixed(1)} → ${heapLast.toFixed(1)} MB (${(growth * 100).toFixed(1)} %)`, '≤ +10 %', growth <= BUDGET_HEAP_GROWTH ? 'ok' : 'GROWS']);
    if (failures > 0) rows.push(['  non-2xx answers during the bench', String(failures), '0', 'CHECK']);
  } finally {
    heap?.close();
    await pool?.end().catch(() => undefined);
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
    await exited;
    fs.rmSync(base, { recursive: true, force: true });
  }
  return rows;
}
