/**
 * Provider text with control characters (a news feed's stray escape, a lookup description's line
 * break) must not make the web app's own round trips fail: what it reads from the market calls, it
 * sends back to api/news-analysis and api/batch_update_favorite_stocks, which refuse them.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasControlCharacter, newsAnalysisText, type NewsArticleBody, type SymbolLookupResponse } from '@signalboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from './helpers';

const EXAMPLE = fileURLToPath(new URL('../../../datasets/example', import.meta.url));
const MARKET_NOW = '2026-11-13T18:00:00Z';

let t: TestApp;
let dir: string;
let headers: { authorization: string };

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-provider-text-'));
  await fs.cp(EXAMPLE, dir, { recursive: true });
  const news = JSON.parse(await fs.readFile(path.join(dir, 'news', 'market.json'), 'utf8')) as Array<Record<string, string>>;
  news[0]!.headline = 'Fed holds\u0000 rates\u001b[1m steady';
  news[0]!.summary = 'Line one.\nLine\ttwo.\u0007';
  news[0]!.source = 'Wire\r\nX-Injected: yes';
  await fs.writeFile(path.join(dir, 'news', 'market.json'), JSON.stringify(news));
  const symbols = JSON.parse(await fs.readFile(path.join(dir, 'symbols.json'), 'utf8')) as Array<Record<string, string>>;
  symbols[0]!.description = 'Apple\nInc.\u0000';
  await fs.writeFile(path.join(dir, 'symbols.json'), JSON.stringify(symbols));
  t = await createTestApp({ MARKET_DATA: 'file', DATASET_DIR: dir, MARKET_NOW });
  const email = uniqueEmail('provider-text');
  await createUser(t.db, email, 'pw');
  headers = await login(t.app, email, 'pw');
});
afterAll(async () => {
  await t?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('provider text the web app sends back', () => {
  it('reaches the browser without the control characters the calls refuse, and analyses', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/market-news', headers });
    expect(answer.statusCode).toBe(200);
    const articles = answer.json<NewsArticleBody[]>();
    const first = articles.find((article) => article.headline.startsWith('Fed holds'))!;
    expect(first).toMatchObject({ headline: 'Fed holds  rates [1m steady', summary: 'Line one.\nLine\ttwo. ', source: 'Wire  X-Injected: yes' });
    for (const article of articles) {
      for (const field of ['headline', 'summary'] as const) expect(hasControlCharacter(article[field], 'multi'), `${article.id} ${field}`).toBe(false);
      for (const field of ['source', 'category', 'related'] as const) expect(hasControlCharacter(article[field], 'single'), `${article.id} ${field}`).toBe(false);
    }
    // What the Geo-Political News screen sends.
    const analysis = await t.app.inject({ method: 'POST', url: '/api/news-analysis', headers, payload: { event_string: newsAnalysisText(articles) } });
    expect(analysis.statusCode, analysis.body).toBe(200);
  });

  it("gives a lookup's description as one line, which the favourites accept", async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/symbol_lookup?q=AAPL', headers });
    const row = answer.json<SymbolLookupResponse>().result.find((result) => result.symbol === 'AAPL')!;
    expect(row.description).toBe('Apple Inc. ');
    const saved = await t.app.inject({ method: 'POST', url: '/api/batch_update_favorite_stocks', headers, payload: { stocks: [{ symbol: row.symbol, description: row.description }] } });
    expect([saved.statusCode, saved.json()]).toEqual([200, { msg: 'Saved 1 favorite stock.', saved: 1 }]);
  });
});
