import type { InjectOptions } from 'fastify';
import { FAVORITES_MAX } from '@signalboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';

type Headers = { authorization: string };
type Favorite = { symbol: string; description: string };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function newUser(label: string): Promise<Headers> {
  const email = uniqueEmail(label);
  await createUser(t.db, email, 'pw');
  return login(t.app, email, 'pw');
}
async function call(method: 'GET' | 'POST', url: string, headers: Partial<Headers>, payload?: InjectOptions['payload']) {
  const response = await t.app.inject({ method, url, headers, payload });
  expect(response.statusCode, `${method} ${url} answered 500: ${response.body}`).not.toBe(500);
  return response;
}
async function list(headers: Headers): Promise<Favorite[]> {
  const response = await call('GET', '/api/get_favorite_stocks', headers);
  expect(response.statusCode).toBe(200);
  return response.json();
}
const symbols = async (headers: Headers) => (await list(headers)).map((favorite) => favorite.symbol);
const save = (headers: Headers, stocks: unknown) => call('POST', '/api/batch_update_favorite_stocks', headers, { stocks } as object);
const remove = (headers: Headers, names: unknown) => call('POST', '/api/delete_favorite_stocks', headers, { symbols: names } as object);
async function expect400(response: Awaited<ReturnType<typeof call>>, msg: string) {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json()).toEqual({ msg });
}

describe('api/get_favorite_stocks and api/batch_update_favorite_stocks', () => {
  it('starts with an empty list', async () => {
    const answer = await call('GET', '/api/get_favorite_stocks', await newUser('empty'));
    expect([answer.statusCode, answer.json()]).toEqual([200, []]);
  });

  it('saves trimmed, upper-cased symbols and lists them oldest first, not alphabetically', async () => {
    const user = await newUser('order');
    const first = await save(user, [{ symbol: ' tsla ', description: ' Tesla, Inc. ' }, { symbol: 'aapl', description: 'Apple' }]);
    expect([first.statusCode, first.json()]).toEqual([200, { msg: 'Saved 2 favorite stocks.', saved: 2 }]);
    const second = await save(user, [{ symbol: 'brk.b', description: 'Berkshire Hathaway' }]);
    expect(second.json()).toEqual({ msg: 'Saved 1 favorite stock.', saved: 1 });
    expect(await list(user)).toEqual([
      { symbol: 'TSLA', description: 'Tesla, Inc.' },
      { symbol: 'AAPL', description: 'Apple' },
      { symbol: 'BRK.B', description: 'Berkshire Hathaway' },
    ]);
  });

  it('upserts by symbol: saving a symbol again updates its description and keeps its place', async () => {
    const user = await newUser('upsert');
    await save(user, [{ symbol: 'AAPL', description: 'Apple' }, { symbol: 'MSFT', description: 'Microsoft' }]);
    const again = await save(user, [{ symbol: 'aapl', description: 'Apple Inc.' }, { symbol: 'NVDA', description: 'NVIDIA' }]);
    expect(again.json()).toEqual({ msg: 'Saved 2 favorite stocks.', saved: 2 });
    expect(await list(user)).toEqual([
      { symbol: 'AAPL', description: 'Apple Inc.' },
      { symbol: 'MSFT', description: 'Microsoft' },
      { symbol: 'NVDA', description: 'NVIDIA' },
    ]);
  });

  it('takes one symbol named twice in one batch once, with the last description', async () => {
    const user = await newUser('duplicates');
    const answer = await save(user, [
      { symbol: 'ry.to', description: 'first' },
      { symbol: 'META', description: 'Meta' },
      { symbol: ' RY.TO', description: 'Royal Bank of Canada' },
    ]);
    expect([answer.statusCode, answer.json()]).toEqual([200, { msg: 'Saved 2 favorite stocks.', saved: 2 }]);
    expect(await list(user)).toEqual([
      { symbol: 'RY.TO', description: 'Royal Bank of Canada' },
      { symbol: 'META', description: 'Meta' },
    ]);
  });

  it('defaults a missing description to empty and accepts index and pair symbols', async () => {
    const user = await newUser('defaults');
    expect((await save(user, [{ symbol: '^GSPC' }, { symbol: 'EURUSD=X', description: '' }, { symbol: 'BTC-USD' }])).statusCode).toBe(200);
    expect(await list(user)).toEqual([
      { symbol: '^GSPC', description: '' },
      { symbol: 'EURUSD=X', description: '' },
      { symbol: 'BTC-USD', description: '' },
    ]);
  });
});

describe('the favourites limit', () => {
  it(`keeps at most ${FAVORITES_MAX} favourites, refusing a save that would pass it whole, even when saves race`, async () => {
    const user = await newUser('limit');
    const batch = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ symbol: `S${from + i}`, description: `Stock ${from + i}` }));
    expect((await save(user, batch(0, FAVORITES_MAX - 2))).statusCode).toBe(200);
    // Two saves of 2 racing: one fits, the other would pass the limit and saves nothing.
    const [a, b] = await Promise.all([save(user, batch(10_000, 2)), save(user, batch(20_000, 2))]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    expect([a, b].find((answer) => answer.statusCode === 400)!.json()).toEqual({
      msg: `You can keep at most ${FAVORITES_MAX} favorite stocks. Remove some before adding more.`,
    });
    expect(await symbols(user)).toHaveLength(FAVORITES_MAX);
    // Updating descriptions of symbols already kept is still fine.
    expect((await save(user, [{ symbol: 'S0', description: 'Renamed' }])).statusCode).toBe(200);
  });
});

describe('api/delete_favorite_stocks', () => {
  it('deletes only the named symbols, in any casing, and answers how many went', async () => {
    const user = await newUser('delete');
    await save(user, ['AAPL', 'MSFT', 'TSLA', 'NVDA'].map((symbol) => ({ symbol, description: symbol })));
    const answer = await remove(user, ['tsla', ' NVDA ', 'NOPE', 'TSLA']);
    expect([answer.statusCode, answer.json()]).toEqual([200, { msg: 'Removed 2 favorite stocks.', deleted: 2 }]);
    expect(await symbols(user)).toEqual(['AAPL', 'MSFT']);
    expect((await remove(user, ['AAPL'])).json()).toEqual({ msg: 'Removed 1 favorite stock.', deleted: 1 });
    expect((await remove(user, ['AAPL'])).json()).toEqual({ msg: 'Removed 0 favorite stocks.', deleted: 0 });
    expect(await symbols(user)).toEqual(['MSFT']);
  });
});

describe('validation and access', () => {
  it('answers 400 with a msg for a bad batch, saving nothing', async () => {
    const user = await newUser('invalid');
    const listMsg = 'stocks must be a list of {symbol, description}';
    await expect400(await call('POST', '/api/batch_update_favorite_stocks', user, {}), listMsg);
    await expect400(await save(user, 'AAPL'), listMsg);
    await expect400(await save(user, { symbol: 'AAPL' }), listMsg);
    await expect400(await save(user, []), 'stocks must hold at least one stock');
    await expect400(await save(user, [{ symbol: 'DROP TABLE' }]), 'Symbol may hold only letters, digits and . - ^ = :');
    await expect400(await save(user, [{ symbol: "AAPL'; --" }]), 'Symbol may hold only letters, digits and . - ^ = :');
    await expect400(await save(user, [{ symbol: '   ', description: 'blank' }]), 'Symbol is required');
    await expect400(await save(user, [{ symbol: 'X'.repeat(21) }]), 'Symbol must be at most 20 characters');
    await expect400(await save(user, [{ symbol: 42 }]), 'symbol must be text');
    await expect400(await save(user, [{ symbol: 'X', description: 7 }]), 'description must be text');
    await expect400(await save(user, [{ symbol: 'X', description: 'y'.repeat(201) }]), 'Description must be at most 200 characters');
    await expect400(await save(user, [{ symbol: 'X', description: 'Apple\u0000Inc.' }]), 'Description must not contain line breaks or other control characters');
    await expect400(await save(user, [{ symbol: 'X', description: 'Apple\nInc.' }]), 'Description must not contain line breaks or other control characters');
    await expect400(await save(user, [{ symbol: 'AA\u0000PL' }]), 'Symbol must not contain line breaks or other control characters');
    // One bad stock spoils the batch: the good ones before it are not saved either.
    await expect400(await save(user, [{ symbol: 'GOOD' }, { symbol: 'B@D' }]), 'Symbol may hold only letters, digits and . - ^ = :');
    const many = Array.from({ length: 501 }, (_, i) => ({ symbol: `S${i}`, description: '' }));
    await expect400(await save(user, many), 'stocks may hold at most 500 stocks');
    const nullItem = await save(user, [null]);
    expect(nullItem.statusCode).toBe(400);
    expect(typeof nullItem.json().msg).toBe('string');
    expect(await list(user)).toEqual([]);
    const fiveHundred = Array.from({ length: 500 }, (_, i) => ({ symbol: `S${i}`, description: '' }));
    expect((await save(user, fiveHundred)).json()).toEqual({ msg: 'Saved 500 favorite stocks.', saved: 500 });
  });

  it('answers 400 with a msg for a bad delete', async () => {
    const user = await newUser('invalid-delete');
    await expect400(await call('POST', '/api/delete_favorite_stocks', user, {}), 'symbols must be a list of stock symbols');
    await expect400(await remove(user, 'AAPL'), 'symbols must be a list of stock symbols');
    await expect400(await remove(user, []), 'symbols must name at least one symbol');
    await expect400(await remove(user, ['DROP TABLE']), 'Symbol may hold only letters, digits and . - ^ = :');
    await expect400(await remove(user, ['MSFT\u0000']), 'Symbol must not contain line breaks or other control characters');
    await expect400(await remove(user, Array.from({ length: 501 }, (_, i) => `S${i}`)), 'symbols may name at most 500 symbols');
    const notJson = await call('POST', '/api/delete_favorite_stocks', { ...user, 'content-type': 'application/json' } as Headers, '{"symbols":[');
    await expect400(notJson, 'The request body is not valid JSON.');
  });

  it('answers 401 "Auth token missing" without a token, for every call', async () => {
    for (const [method, url] of [
      ['GET', '/api/get_favorite_stocks'],
      ['POST', '/api/batch_update_favorite_stocks'],
      ['POST', '/api/delete_favorite_stocks'],
    ] as const) {
      const answer = await call(method, url, {}, method === 'POST' ? { stocks: [{ symbol: 'AAPL' }], symbols: ['AAPL'] } : undefined);
      expect([answer.statusCode, answer.json()], url).toEqual([401, { msg: 'Auth token missing' }]);
    }
  });

  it("keeps users apart: B never sees, changes or deletes A's favourites", async () => {
    const alice = await newUser('alice');
    const bob = await newUser('bob');
    await save(alice, [{ symbol: 'AAPL', description: 'Apple Inc.' }, { symbol: 'MSFT', description: 'Microsoft' }]);
    expect(await list(bob)).toEqual([]);
    await save(bob, [{ symbol: 'AAPL', description: "Bob's Apple" }]);
    expect(await list(bob)).toEqual([{ symbol: 'AAPL', description: "Bob's Apple" }]);
    expect(await list(alice)).toEqual([
      { symbol: 'AAPL', description: 'Apple Inc.' },
      { symbol: 'MSFT', description: 'Microsoft' },
    ]);
    expect((await remove(bob, ['MSFT'])).json()).toEqual({ msg: 'Removed 0 favorite stocks.', deleted: 0 });
    expect((await remove(bob, ['AAPL'])).json()).toEqual({ msg: 'Removed 1 favorite stock.', deleted: 1 });
    expect(await list(bob)).toEqual([]);
    expect(await symbols(alice)).toEqual(['AAPL', 'MSFT']);
  });
});
