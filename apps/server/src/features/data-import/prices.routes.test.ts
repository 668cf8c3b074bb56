/**
 * Administration → Data over HTTP (prices.routes.ts): admins only; the file as a text/csv body with
 * the preview's choices in the query; a dry run, an import, a custom mapping, clear refusals with a
 * msg; the list and removal.
 */
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { PRICE_IMPORT_MAX_BYTES } from '@signalboard/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { HttpError } from '../../lib/errors';
import { marketClock } from '../../providers/market';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';
import { ADMINS_ONLY_MSG } from '../admin/admin.routes';
import { createAuditRepo } from '../admin/audit.repo';
import { createImportedPricesRepo } from './imported-prices.repo';
import { createPriceImportService } from './price-import.service';
import { limited, PRICE_FILE_TOO_LARGE_MSG } from './prices.routes';

let t: TestApp;
let admin: { authorization: string };
let member: { authorization: string };
const GOOG = readFileSync(new URL('../../../test/fixtures/real-series/GOOG.csv', import.meta.url), 'utf8');

async function account(label: string, role: 'admin' | 'member') {
  const email = uniqueEmail(label);
  const id = await createUser(t.db, email, 'the password');
  if (role === 'admin') await t.db.update(users).set({ role: 'admin' }).where(eq(users.id, id));
  return login(t.app, email, 'the password');
}

const upload = (headers: { authorization: string }, query: Record<string, string>, body: string, contentType = 'text/csv') =>
  t.app.inject({ method: 'POST', url: `/api/admin/prices/import?${new URLSearchParams(query)}`, headers: { ...headers, 'content-type': contentType }, payload: body });

beforeAll(async () => {
  t = await createTestApp({ MARKET_NOW: '2008-10-15T15:00:00Z' });
  admin = await account('prices-admin', 'admin');
  member = await account('prices-member', 'member');
});
afterAll(async () => t.close());

describe('api/admin/prices', () => {
  it('is for admins only', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/prices', headers: member })).json()).toEqual({ msg: ADMINS_ONLY_MSG });
    const refused = await upload(member, { name: 'GOOG.csv' }, GOOG);
    expect(refused.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/prices', headers: admin })).json()).toEqual({ symbols: [] });
  });

  it('previews, then imports a file; lists and removes it', async () => {
    const preview = await upload(admin, { name: 'GOOG.csv', dry_run: 'true' }, GOOG);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({ file: 'GOOG.csv', stored: false, error_count: 0, warning_count: 0, headers: ['Date', 'Open', 'High', 'Low', 'Close', 'Adj Close', 'Volume'] });
    expect(preview.json().format).toMatchObject({ layout: 'yahoo', separator: ',', decimal_comma: false, date_format: 'YYYY-MM-DD', mapping: { date: 0, adj_close: 5, volume: 6, symbol: null } });
    expect(preview.json().series[0]).toMatchObject({ symbol: 'GOOG', rows: 1047, counts: null, usable_by_trade_engines: true });

    const imported = await upload(admin, { name: 'GOOG.csv', description: 'Google Inc', exchange: 'NASDAQ' }, GOOG);
    expect(imported.json()).toMatchObject({ stored: true, series: [{ symbol: 'GOOG', description: 'Google Inc', exchange: 'NASDAQ', counts: { inserted: 1047, updated: 0, unchanged: 0 } }] });
    const listed = (await t.app.inject({ method: 'GET', url: '/api/admin/prices', headers: admin })).json();
    expect(listed.symbols).toEqual([
      expect.objectContaining({ symbol: 'GOOG', description: 'Google Inc', market: 'US', exchange: 'NASDAQ', source_file: 'GOOG.csv', rows: 1047, first_day: '2004-08-19', last_day: '2008-10-14', last_close: 362.71 }),
    ]);

    const removed = await t.app.inject({ method: 'POST', url: '/api/admin/prices/remove', headers: admin, payload: { symbol: 'goog' } });
    expect(removed.json()).toEqual({ msg: "Removed GOOG's imported prices." });
    const again = await t.app.inject({ method: 'POST', url: '/api/admin/prices/remove', headers: admin, payload: { symbol: 'GOOG' } });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ msg: 'GOOG has no imported prices.' });
  });

  it('reads any layout through the mapping chosen in the preview (decimal comma, day-first dates)', async () => {
    const text = 'Datum;Schluss;Hoch;Tief;Eröffnung\n14.10.2008;10,5;11,25;9,75;10\n13.10.2008;10;10,5;9,5;9,75\n';
    const format = { layout: 'custom', separator: ';', decimal_comma: true, date_format: 'DD.MM.YYYY', header: true, mapping: { date: 0, open: 4, high: 2, low: 3, close: 1, adj_close: null, volume: null, symbol: null } };
    const response = await upload(admin, { name: 'prices.csv', symbol: 'ZZEU', format: JSON.stringify(format) }, text);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ stored: true, error_count: 0, series: [{ symbol: 'ZZEU', rows: 2, first: '2008-10-13', last: '2008-10-14' }] });
    await t.market.importChanged!(['ZZEU']);
    const bars = (await t.market.getDailyBars('ZZEU', 0, Date.parse('2008-10-15') / 1000)).value;
    expect(Array.from(bars.close)).toEqual([10, 10.5]);
    expect(Array.from(bars.high)).toEqual([10.5, 11.25]);
    // The simulated market does not quote ZZEU: its price is the imported file's last close, marked so.
    const quote = await t.app.inject({ method: 'GET', url: '/api/quote?symbol=ZZEU', headers: admin });
    expect(quote.json()).toMatchObject({ symbol: 'ZZEU', current_price: 10.5, previous_close: 10, last_bar: true, timestamp: Date.parse('2008-10-14T21:00:00Z') / 1000 });
    const known = await t.app.inject({ method: 'GET', url: '/api/quote?symbol=AAPL', headers: admin });
    expect(known.json().last_bar).toBeUndefined();
  });

  it('answers bad input with a msg, never a 500', async () => {
    const badFormat = await upload(admin, { name: 'x.csv', format: '{"layout":"custom"' }, GOOG);
    expect(badFormat.statusCode).toBe(400);
    expect(badFormat.json().msg).toMatch(/format must be JSON/);
    const mapping = { date: 0, open: 1, high: 2, low: 3, close: 4, adj_close: null, volume: null, symbol: null };
    const sameColumn = await upload(admin, { name: 'x.csv', format: JSON.stringify({ layout: 'custom', separator: ',', decimal_comma: false, date_format: 'YYYY-MM-DD', header: true, mapping: { ...mapping, close: 1 } }) }, GOOG);
    expect(sameColumn.statusCode).toBe(400);
    expect(sameColumn.json().msg).toMatch(/Two roles are mapped to the same column/);
    const comma = await upload(admin, { name: 'x.csv', format: JSON.stringify({ layout: 'custom', separator: ',', decimal_comma: true, date_format: 'YYYY-MM-DD', header: true, mapping }) }, GOOG);
    expect(comma.statusCode).toBe(400);
    expect(comma.json().msg).toMatch(/A decimal comma needs another separator/);
    const badSplits = await upload(admin, { name: 'x.csv', adjust_splits: 'yesterday' }, GOOG);
    expect(badSplits.statusCode).toBe(400);
    expect(badSplits.json().msg).toMatch(/adjust_splits must be all or dates/);
    const badListings = await upload(admin, { name: 'x.csv', listings: '{"GOOG":' }, GOOG);
    expect(badListings.json()).toEqual({ msg: 'listings must be JSON' });
    const lowerCase = await upload(admin, { name: 'x.csv', listings: JSON.stringify({ goog: { description: 'Google' } }) }, GOOG);
    expect(lowerCase.statusCode).toBe(400);
    expect(lowerCase.json()).toEqual({ msg: 'listings: "goog" is not a symbol (upper case, at most 20 letters, digits or . - ^ =)' });
    const unknownField = await upload(admin, { name: 'x.csv', listings: JSON.stringify({ GOOG: { name: 'Google' } }) }, GOOG);
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json().msg).toMatch(/^listings: /);
    const tooMany = await upload(admin, { name: 'x.csv', listings: JSON.stringify(Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`ZZ${index}`, {}]))) }, GOOG);
    expect(tooMany.json()).toEqual({ msg: 'listings: at most 50 symbols' });
    const noName = await upload(admin, {}, GOOG);
    expect(noName.json()).toEqual({ msg: 'File name is required' });
    const json = await t.app.inject({ method: 'POST', url: '/api/admin/prices/import?name=x.csv', headers: admin, payload: { rows: [] } });
    expect(json.statusCode).toBe(415);
    expect(json.json().msg).toMatch(/Content-Type: text\/csv/);
    const garbage = await upload(admin, { name: 'ZZG.csv' }, '\u0000\u0001 not a price file at all');
    expect(garbage.statusCode).toBe(200);
    expect(garbage.json()).toMatchObject({ stored: false, format: null });
    expect(garbage.json().format_problem).toBeTruthy();
  });
});

/** `total` bytes of `fill` in 1 MiB chunks (one buffer reused): a body that is never held whole. */
async function* bytesOf(total: number, fill = 'x'): AsyncGenerator<Buffer> {
  const chunk = Buffer.alloc(1024 * 1024, fill);
  for (let sent = 0; sent < total; sent += chunk.byteLength) yield total - sent >= chunk.byteLength ? chunk : chunk.subarray(0, total - sent);
}

describe('a price file over the 100 MB limit', () => {
  const priceImports = async () => (await createAuditRepo(t.db).newest(100)).filter((row) => row.action === 'price-import');

  it('is refused with 413 and a msg once its 100 MB + 1st byte arrives, stores nothing, and the next import runs', async () => {
    expect(PRICE_IMPORT_MAX_BYTES).toBe(100 * 1024 * 1024);
    const listedBefore = (await t.app.inject({ method: 'GET', url: '/api/admin/prices', headers: admin })).json();
    const auditBefore = (await priceImports()).length;
    // Bytes in no price layout: the service reads past the head without parsing (hash and size only),
    // so the stream reaches the route's limit in about a second.
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/admin/prices/import?name=ZZBIG.csv',
      headers: { ...admin, 'content-type': 'text/csv' },
      payload: Readable.from(bytesOf(PRICE_IMPORT_MAX_BYTES + 1)),
    });
    expect([refused.statusCode, refused.json()]).toEqual([413, { msg: PRICE_FILE_TOO_LARGE_MSG }]);
    expect(PRICE_FILE_TOO_LARGE_MSG).toBe('A price file may have at most 100 MB: split it into smaller files.');
    expect(refused.headers.connection).toBe('close');
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/prices', headers: admin })).json()).toEqual(listedBefore);
    expect(await priceImports()).toHaveLength(auditBefore);

    // The refusal ended the import under way: another one is not answered 409.
    const next = await upload(admin, { name: 'ZZNEXT.csv', dry_run: 'true' }, GOOG);
    expect([next.statusCode, next.json().stored]).toEqual([200, false]);
  });

  it('a file that would be stored is refused before its end and none of it is stored; one of exactly the limit is (the same limiter, a smaller limit)', async () => {
    // The route's limiter around the real service, with 32 KiB instead of 100 MB: the refusal comes
    // while the file is being read, and the service stores only after the whole file is read.
    const repo = createImportedPricesRepo(t.db);
    const service = createPriceImportService({ repo, market: t.market, audit: createAuditRepo(t.db), now: () => new Date('2008-10-15T15:00:00Z'), marketClock: marketClock(t.config, t.clock) });
    const file = async function* () {
      for (let at = 0; at < GOOG.length; at += 4_096) yield Buffer.from(GOOG.slice(at, at + 4_096));
    };
    expect(Buffer.byteLength(GOOG)).toBeGreaterThan(32 * 1024);
    const refused = service.importFile(limited(file(), 32 * 1024), { name: 'ZZPART.csv' }, { name: 'command line' });
    await expect(refused).rejects.toMatchObject({ statusCode: 413, message: PRICE_FILE_TOO_LARGE_MSG });
    await expect(refused).rejects.toBeInstanceOf(HttpError);
    expect((await repo.listings()).map((row) => row.symbol)).not.toContain('ZZPART');
    // The whole file, exactly at the limit, is stored: the refusal above was the limit's.
    const stored = await service.importFile(limited(file(), Buffer.byteLength(GOOG)), { name: 'ZZPART.csv' }, { name: 'command line' });
    expect(stored).toMatchObject({ stored: true, series: [{ symbol: 'ZZPART', storedRows: 1047 }] });
  });
});
