/**
 * The Options Scanner over a real socket: lines leave the server while later symbols are still being
 * read, a client that leaves stops the scan, and a failure before the first line is plain JSON. The
 * market is the file dataset with its quotes held behind a gate the test opens.
 */
import { once } from 'node:events';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { optionScanEvent, type OptionScanEvent } from '@signalboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, FakeClock, TEST_JWT_SECRET, userWithFavorites } from '../../../test/helpers';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { createMailer } from '../../providers/mail';
import { createMarket, marketClock } from '../../providers/market';
import type { CachedMarket } from '../../providers/market/cached-market';
import { SCAN_NOW, writeScanDataset } from '../../../test/scan-fixtures';
import { SCAN_CONCURRENCY } from '../../lib/favorites-scan';

const LINE_WAIT_MS = 5_000;

/** Holds getQuote for the symbols it is told to, until released. */
class QuoteGate {
  readonly calls: string[] = [];
  settled = 0;
  private held = new Set<string>();
  private waiters = new Map<string, Array<() => void>>();

  hold(...symbols: string[]) {
    symbols.forEach((symbol) => this.held.add(symbol));
  }
  release(...symbols: string[]) {
    for (const symbol of symbols) {
      this.held.delete(symbol);
      this.waiters.get(symbol)?.forEach((resume) => resume());
      this.waiters.delete(symbol);
    }
  }
  async pass(symbol: string): Promise<void> {
    this.calls.push(symbol);
    if (this.held.has(symbol)) await new Promise<void>((resume) => this.waiters.set(symbol, [...(this.waiters.get(symbol) ?? []), resume]));
  }
}

let app: FastifyInstance;
let port: number;
let dropDatabase: () => Promise<void>;
let pool: Awaited<ReturnType<typeof createTestDatabase>>['pool'];
let db: Awaited<ReturnType<typeof createTestDatabase>>['db'];
let dataDir: string;
let closeMailer: () => void;
const gate = new QuoteGate();
const serverSockets: Socket[] = [];

beforeAll(async () => {
  const database = await createTestDatabase();
  ({ pool, db } = database);
  dropDatabase = database.drop;
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-scans-stream-'));
  await writeScanDataset(path.join(dataDir, 'dataset'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST: path.join(dataDir, 'no-web'), MARKET_DATA: 'file', DATASET_DIR: path.join(dataDir, 'dataset'), MARKET_NOW: SCAN_NOW });
  const clock = new FakeClock();
  const clockForMarket = marketClock(config, clock);
  const inner = createMarket(config, clockForMarket);
  const market: CachedMarket = {
    ...inner,
    getQuote: async (symbol) => {
      await gate.pass(symbol);
      try {
        return await inner.getQuote(symbol);
      } finally {
        gate.settled += 1;
      }
    },
  };
  const mailer = createMailer(config, db, clock);
  closeMailer = () => mailer.close();
  app = await buildApp({ config, db, pool, mailer, market, marketClock: clockForMarket, jwtSecret: TEST_JWT_SECRET, clock, logger: false });
  app.server.on('connection', (socket: Socket) => serverSockets.push(socket));
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await app?.close();
  closeMailer?.();
  await dropDatabase?.();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const newUser = (label: string, favorites: string[]) => userWithFavorites({ app, db }, label, favorites);

/** POST api/scan/options over a new connection, read line by line as the bytes arrive. */
async function openScan(headers: Record<string, string>) {
  const request = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/scan/options', headers, agent: false });
  request.end();
  // Headers go out with the first line; a server that buffered the whole answer would hold them back.
  const timer = setTimeout(() => request.destroy(new Error('no answer arrived in time')), LINE_WAIT_MS);
  const [response] = (await once(request, 'response')) as [http.IncomingMessage];
  clearTimeout(timer);
  response.setEncoding('utf8');
  const lines: string[] = [];
  let partial = '';
  let wake: (() => void) | undefined;
  response.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
    wake?.();
  });
  response.on('error', () => undefined);
  const ended = once(response, 'end');
  ended.catch(() => undefined); // a client that leaves on purpose aborts its own answer
  return {
    response,
    request,
    /** Resolves when the server has ended the answer. */
    ended,
    /** The next event; fails when none arrives in time (a buffered answer would never send it early). */
    async next(): Promise<OptionScanEvent> {
      const deadline = Date.now() + LINE_WAIT_MS;
      while (lines.length === 0) {
        if (Date.now() > deadline) throw new Error('no line arrived in time');
        await new Promise<void>((resume) => {
          wake = resume;
          setTimeout(resume, 50);
        });
      }
      return optionScanEvent.parse(JSON.parse(lines.shift()!));
    },
  };
}

const waitFor = async (condition: () => boolean, what: string) => {
  const deadline = Date.now() + LINE_WAIT_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resume) => setTimeout(resume, 10));
  }
};

describe('POST api/scan/options over a socket', () => {
  it('sends each symbol as soon as it is scanned, before the last one finishes', async () => {
    const headers = await newUser('stream', ['CALLX', 'PUTX']);
    gate.hold('PUTX');
    // As a browser asks: answers may be compressed, but these lines must still leave one by one.
    const scan = await openScan({ ...headers, 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(scan.response.statusCode).toBe(200);
    expect(scan.response.headers['content-encoding']).toBeUndefined();
    expect(scan.response.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(scan.response.headers['x-accel-buffering']).toBe('no');
    expect(scan.response.headers['content-security-policy']).toBeDefined();
    expect(await scan.next()).toEqual({ type: 'start', total: 2 });
    expect((await scan.next()).type).toBe('flag');
    expect((await scan.next()).type).toBe('flag');
    expect(await scan.next()).toEqual({ type: 'progress', done: 1, total: 2, symbol: 'CALLX' });
    // PUTX's quote was asked for and is still held: the lines above left before the scan finished.
    expect(gate.calls).toContain('PUTX');
    gate.release('PUTX');
    expect(await scan.next()).toMatchObject({ type: 'flag', flag: { symbol: 'PUTX', action: 'PUT' } });
    expect(await scan.next()).toMatchObject({ type: 'flag', flag: { symbol: 'PUTX', tag: '6MonthLow' } });
    expect(await scan.next()).toEqual({ type: 'progress', done: 2, total: 2, symbol: 'PUTX' });
    expect(await scan.next()).toMatchObject({ type: 'end', scanned: 2, failed: [] });
    await scan.ended;
  });

  it('stops reading further symbols when the client goes away', async () => {
    const favorites = ['DROP', 'SMALL', 'UP', 'F1', 'F2', 'F3', 'F4', 'CALLX'];
    expect(favorites.length).toBeGreaterThan(SCAN_CONCURRENCY);
    const headers = await newUser('leaver', favorites);
    gate.hold(...favorites);
    const before = gate.calls.length;
    const settledBefore = gate.settled;
    const scan = await openScan(headers);
    expect(await scan.next()).toEqual({ type: 'start', total: favorites.length });
    await waitFor(() => gate.calls.length - before === SCAN_CONCURRENCY, 'the first symbols to be read');
    const socket = serverSockets.at(-1)!;
    scan.request.destroy();
    await once(socket, 'close');
    gate.release(...favorites);
    await waitFor(() => gate.settled - settledBefore >= SCAN_CONCURRENCY, 'the running reads to settle');
    await new Promise((resume) => setTimeout(resume, 100));
    // Only the reads already running when the client left ever started.
    expect(gate.calls.slice(before)).toEqual(favorites.slice(0, SCAN_CONCURRENCY));
  });

  it('answers a failure before the first line as an ordinary JSON error', async () => {
    const headers = await newUser('broken', ['CALLX']);
    await pool.query('alter table favorite_stocks rename to favorite_stocks_away');
    try {
      const response = await app.inject({ method: 'POST', url: '/api/scan/options', headers });
      expect(response.statusCode).toBe(500);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual({ msg: 'Something went wrong on our side. Please try again.' });
    } finally {
      await pool.query('alter table favorite_stocks_away rename to favorite_stocks');
    }
  });
});
