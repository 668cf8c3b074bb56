import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';

let t: TestApp;
let alice: { authorization: string };
let bob: { authorization: string };

beforeAll(async () => {
  t = await createTestApp();
  const a = uniqueEmail('alice');
  const b = uniqueEmail('bob');
  await createUser(t.db, a, 'pw');
  await createUser(t.db, b, 'pw');
  alice = await login(t.app, a, 'pw');
  bob = await login(t.app, b, 'pw');
});
afterAll(async () => t.close());

const list = async (headers: { authorization: string }) => (await t.app.inject({ method: 'GET', url: '/api/get_favorite_stocks', headers })).json();
const save = (headers: { authorization: string }, stocks: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/batch_update_favorite_stocks', headers, payload: { stocks } as object });
const remove = (headers: { authorization: string }, symbols: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/delete_favorite_stocks', headers, payload: { symbols } as object });

describe('favourites', () => {
  it('starts empty, saves trimmed upper-cased symbols oldest first, and upserts by symbol', async () => {
    expect(await list(alice)).toEqual([]);
    const saved = await save(alice, [{ symbol: ' aapl ', description: 'Apple' }, { symbol: 'msft', description: 'Microsoft Corporation' }]);
    expect(saved.json()).toEqual({ msg: 'Saved 2 favorite stocks.', saved: 2 });
    await save(alice, [{ symbol: 'AAPL', description: 'Apple Inc.' }, { symbol: 'ry.to', description: 'Royal Bank of Canada' }, { symbol: 'RY.TO', description: 'Royal Bank of Canada' }]);
    expect(await list(alice)).toEqual([
      { symbol: 'AAPL', description: 'Apple Inc.' },
      { symbol: 'MSFT', description: 'Microsoft Corporation' },
      { symbol: 'RY.TO', description: 'Royal Bank of Canada' },
    ]);
  });

  it('deletes only the named symbols and counts them', async () => {
    await save(alice, [{ symbol: 'TSLA', description: 'Tesla, Inc.' }]);
    const answer = await remove(alice, ['tsla', 'NOPE']);
    expect(answer.json()).toEqual({ msg: 'Removed 1 favorite stock.', deleted: 1 });
    expect((await list(alice)).map((s: { symbol: string }) => s.symbol)).not.toContain('TSLA');
  });

  it("keeps users apart: B never sees, changes or deletes A's favourites", async () => {
    expect(await list(bob)).toEqual([]);
    await save(bob, [{ symbol: 'AAPL', description: "Bob's Apple" }]);
    await remove(bob, ['MSFT']);
    const alices = await list(alice);
    expect(alices.find((s: { symbol: string }) => s.symbol === 'AAPL').description).toBe('Apple Inc.');
    expect(alices.map((s: { symbol: string }) => s.symbol)).toContain('MSFT');
    await remove(bob, ['AAPL']);
    expect((await list(alice)).map((s: { symbol: string }) => s.symbol)).toContain('AAPL');
    expect(await list(bob)).toEqual([]);
  });

  it('answers 400 with a msg for bad input and 401 without a token', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/batch_update_favorite_stocks', headers: alice, payload: {} })).json()).toEqual({
      msg: 'stocks must be a list of {symbol, description}',
    });
    expect((await save(alice, [])).json()).toEqual({ msg: 'stocks must hold at least one stock' });
    expect((await save(alice, 'AAPL')).json()).toEqual({ msg: 'stocks must be a list of {symbol, description}' });
    expect((await save(alice, [{ symbol: 'DROP TABLE' }])).json()).toEqual({ msg: 'Symbol may hold only letters, digits and . - ^ = :' });
    expect((await save(alice, [{ symbol: 'X', description: 'y'.repeat(201) }])).json()).toEqual({ msg: 'Description must be at most 200 characters' });
    const many = Array.from({ length: 501 }, (_, i) => ({ symbol: `S${i}`, description: '' }));
    expect((await save(alice, many)).json()).toEqual({ msg: 'stocks may hold at most 500 stocks' });
    expect((await remove(alice, [])).json()).toEqual({ msg: 'symbols must name at least one symbol' });
    expect((await remove(alice, 'AAPL')).statusCode).toBe(400);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/get_favorite_stocks' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ msg: 'Auth token missing' });
  });
});
