/**
 * What the trade-idea specs share: reading idea cards as a person does (by the list's name and
 * each card's symbol heading), the screens' number formats, the Wilson interval recomputed here,
 * and waiting until the pinned market's replay and marks are in.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { inject } from 'vitest';
import { api, apiLogin, addUser, uniqueEmail } from './browser';
import { makeDataDir, runCli, startServer, type RunningServer } from './server-process';

/** The browser's zone in the trade-idea specs: UTC+9, where a 16:30 New York pass is the next morning. */
export const IDEAS_TIME_ZONE = 'Asia/Tokyo';

/** The pinned "now" of the market server (e2e/fixtures/market/dataset.ts MARKET_NOW). */
const MARKET_NOW = '2026-11-20T16:00:00.000Z';

export const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The symbols of the cards in a list, top to bottom ([] while the list is not shown). */
export async function cardSymbols(list: Locator): Promise<string[]> {
  if ((await list.count()) === 0) return [];
  return (await list.getByRole('heading', { level: 3 }).allInnerTexts()).map(normalise);
}

/** A card's text, white space collapsed. */
export async function cardText(list: Locator, symbol: string): Promise<string> {
  return normalise(await list.getByRole('article', { name: symbol, exact: true }).innerText());
}

/** The text colour a Mantine colour variable ('--mantine-color-red-text') resolves to on the page. */
export const resolvedColour = (page: Page, variable: string) =>
  page.evaluate((name) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${name})`;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, variable);

/** The colour of a card's figure: the text after its label. */
export const fieldColour = (card: Locator, label: string) => card.getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]').evaluate((element) => getComputedStyle(element).color);

const percent2 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' });

/** A return (a fraction) as the screens show it: "+10.30%", "−14.19%", "0.00%". */
export const percent = (fraction: number) => `${percent2.format(fraction * 100).replace('-', '\u2212')}%`;

/** A share as the track record shows it: "52.0%". */
export const share = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;

/** The 95% Wilson interval (docs/rules/track-record.md §6.3), recomputed here, formatted as the record shows it. */
export function wilson(wins: number, n: number): { rate: string; low: string; high: string } {
  const z = 1.96;
  const p = wins / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  return { rate: share(p), low: share(Math.max(0, centre - half)), high: share(Math.min(1, centre + half)) };
}

let reader: Promise<string> | undefined;
/** A token of an account of its own on the market server, for reading what the API answers. */
function readerToken(): Promise<string> {
  reader ??= (async () => {
    const email = uniqueEmail('ideas-reader');
    const password = 'correct horse battery staple';
    addUser(email, password, 'market');
    const first = await apiLogin(email, password, 'market');
    await api('update-password', { token: first.access_token, json: { new_password: password }, server: 'market' });
    return (await apiLogin(email, password, 'market')).access_token;
  })();
  return reader;
}

/** GET api/<path> on the market server, answering the body (the call must answer 200). */
export async function apiGet<T>(path: string): Promise<T> {
  const { status, body } = await api<T>(path, { token: await readerToken(), server: 'market' });
  if (status !== 200) throw new Error(`GET api/${path} answered ${status}: ${JSON.stringify(body)}`);
  return body;
}

/**
 * Waits until the engine's install replay is done and its active ideas carry the marks of the
 * pinned "now" (the marks job runs on the scheduler's first tick after the replay).
 */
export async function waitForMarkedIdeas(call: 'all_stocks_scanner' | 'get_swing_trade_entries'): Promise<void> {
  const updated = (row: Record<string, unknown>) => (call === 'all_stocks_scanner' ? row.UpdatedAt : row.DateUpdated);
  const deadline = Date.now() + 150_000;
  let last = 'no answer yet';
  for (;;) {
    const rows = await apiGet<Array<Record<string, unknown>>>(`${call}?status=active`);
    if (rows.length > 0 && rows.every((row) => updated(row) === MARKET_NOW)) return;
    last = `${rows.length} active, updated ${[...new Set(rows.map(updated))].join(', ')}`;
    if (Date.now() > deadline) throw new Error(`api/${call}: the active ideas were not marked at ${MARKET_NOW} within 150 s (${last})`);
    // Polls the server's state (the replay and the marks job), not a fixed pause before a check.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** Waits until the engine's install replay on the market server is done. */
export async function waitForReplay(engine: string): Promise<void> {
  const deadline = Date.now() + 150_000;
  for (;;) {
    const status = await apiGet<Array<{ engine: string; state: string }>>('trade_ideas/replay_status');
    if (status.some((entry) => entry.engine === engine && entry.state === 'done')) return;
    if (Date.now() > deadline) throw new Error(`the ${engine} replay was not done within 150 s: ${JSON.stringify(status)}`);
    // Polls the server's state, not a fixed pause before a check.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/**
 * A file-market server of a spec's own (its own DATA_DIR) on the pinned dataset, with "now" at `now`:
 * for a story that needs the clock to move, `moveTo` stops it and starts it again on the same data
 * at a later "now" (its daily pass then catches up the sessions in between). `signIn` makes an
 * account past its first login; `context` a browser context on it whose clock says its "now".
 */
export async function ownMarketServer(label: string, now: string) {
  const dataDir = await makeDataDir(label);
  const datasetDir = path.join(path.dirname(inject('marketDataDir')), 'dataset');
  const start = (at: string) => startServer(dataDir, { env: { MARKET_DATA: 'file', DATASET_DIR: datasetDir, MARKET_NOW: at } });
  let server: RunningServer = await start(now);
  let current = now;
  const call = async <T>(route: string, token: string, json?: unknown): Promise<T> => {
    const response = await fetch(`${server.baseUrl}/api/${route}`, {
      method: json === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    if (!response.ok) throw new Error(`${route} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  };
  const login = async (email: string, password: string) => {
    const response = await fetch(`${server.baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    if (!response.ok) throw new Error(`login answered ${response.status}`);
    return ((await response.json()) as { access_token: string }).access_token;
  };
  return {
    get: <T>(route: string, token: string) => call<T>(route, token),
    async signIn(): Promise<string> {
      const email = uniqueEmail(label);
      const password = 'correct horse battery staple';
      const added = runCli(dataDir, ['add', email, '--password', password]);
      if (added.status !== 0) throw new Error(`npm run user -- add failed: ${added.stderr}${added.stdout}`);
      await call('update-password', await login(email, password), { new_password: password });
      return login(email, password);
    },
    /** Polls GET api/<route> until `done` holds of its answer (the replay, a catch-up pass), within 150 s. */
    async until<T>(route: string, token: string, done: (body: T) => boolean, what: string): Promise<T> {
      const deadline = Date.now() + 150_000;
      for (;;) {
        const body = await call<T>(route, token);
        if (done(body)) return body;
        if (Date.now() > deadline) throw new Error(`${what}: not within 150 s (api/${route} answered ${JSON.stringify(body).slice(0, 500)}); the server said:\n${server.output().slice(-4000)}`);
        // Polls the server's state, not a fixed pause before a check.
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    },
    async context(browser: Browser, token: string): Promise<BrowserContext> {
      const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1366, height: 860 }, timezoneId: IDEAS_TIME_ZONE });
      context.setDefaultTimeout(15_000);
      await context.clock.setFixedTime(new Date(current));
      await context.addInitScript((value) => window.localStorage.setItem('access_token', value), token);
      return context;
    },
    async moveTo(later: string): Promise<void> {
      const code = await server.stop();
      if (code !== 0) throw new Error(`the ${label} server exited with ${code}:\n${server.output()}`);
      server = await start(later);
      current = later;
    },
    async close(): Promise<void> {
      await server.stop();
      await fs.rm(path.dirname(dataDir), { recursive: true, force: true });
    },
  };
}
