import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanChartResponse } from '@signalboard/core';
import { createTestApp, userWithFavorites, type TestApp } from '../../../test/helpers';

// GET api/scans/chart on the simulated market (docs/custom-scans.md, "Running a scan"): the bars of a
// result row's Details chart. The test app's clock is 2026-11-02 15:00 UTC, a Monday in session.

let t: TestApp;
let headers: { authorization: string };
beforeAll(async () => {
  t = await createTestApp();
  headers = await userWithFavorites(t, 'scan-chart', []);
});
afterAll(async () => t.close());

const chart = (query: string) => t.app.inject({ method: 'GET', url: `/api/scans/chart?${query}`, headers });

describe('GET api/scans/chart', () => {
  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/scans/chart?symbol=AAPL' })).statusCode).toBe(401);
  });

  it("answers the symbol's last 260 daily bars through the market's session, the same bars the market has", async () => {
    const response = await chart('symbol=aapl');
    expect(response.statusCode, response.body).toBe(200);
    const body = scanChartResponse.parse(response.json());
    expect(body).toMatchObject({ symbol: 'AAPL', source: 'simulated', as_of: '2026-11-02' });
    expect(body.bars).toHaveLength(260);
    const market = (await t.market.getRecentDailyBars('AAPL', 400)).value;
    const last = market.close.length - 1;
    expect(body.bars.at(-1)).toEqual({ date: '2026-11-02', open: market.open[last], high: market.high[last], low: market.low[last], close: market.close[last], volume: market.volume[last] });
    const dates = body.bars.map((bar) => bar.date);
    expect([...dates].sort()).toEqual(dates);
  });

  it('as of a past date answers the bars through that session and none after it', async () => {
    // 2026-10-31 is a Saturday: the last session on or before it is Friday the 30th.
    const body = scanChartResponse.parse((await chart('symbol=AAPL&as_of=2026-10-31')).json());
    expect(body.as_of).toBe('2026-10-30');
    expect(body.bars.every((bar) => bar.date <= '2026-10-30')).toBe(true);
    const now = scanChartResponse.parse((await chart('symbol=AAPL')).json());
    expect(body.bars.at(-1)).toEqual(now.bars.find((bar) => bar.date === '2026-10-30'));
  });

  it('answers 400 with a msg for a missing symbol or a date that cannot be, 404 for an unknown symbol', async () => {
    const cases: Array<[string, number, RegExp]> = [
      ['', 400, /symbol is required/],
      ['symbol=AAPL&as_of=2026-13-40', 400, /as_of/],
      ['symbol=AAPL&as_of=yesterday', 400, /as_of must be a date/],
      ['symbol=AAPL&as_of=2026-12-25', 400, /after the last session/],
      ['symbol=NOPE123', 404, /Unknown symbol: NOPE123/],
      ['symbol=AAPL&as_of=2000-01-03', 404, /^No daily bars of AAPL on or before 2000-01-03\.$/],
    ];
    for (const [query, status, msg] of cases) {
      const response = await chart(query);
      expect(response.statusCode, `${query}: ${response.body}`).toBe(status);
      expect(response.json().msg).toMatch(msg);
    }
  });
});
