/**
 * `npm run data -- import` end to end on a real series (issue 29, "Tests"): the command line (run from
 * the source with tsx, as the built bundle runs it) imports the repository's real GOOG history
 * (test/fixtures/real-series, Matplotlib's sample data under its licence) into a server's database;
 * the server then serves it, and the drop scanner's highs and lows (api/stock-high-low) and the RSI
 * (api/rsi) over it match an independent computation: plain loops over the CSV, and the
 * technicalindicators package's Wilder averages.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AverageGain, AverageLoss } from 'technicalindicators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../test/helpers';
import { spawnProcess } from '../../test/processes';

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../../test/fixtures/real-series/GOOG.csv', import.meta.url));
const NOW = '2008-10-15T15:00:00Z';

/** The fixture read back independently: one object per line. */
const rows = readFileSync(FIXTURE, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [date, open, high, low, close] = line.split(',');
    return { date: date!, open: Number(open), high: Number(high), low: Number(low), close: Number(close) };
  });

let t: TestApp;
let headers: { authorization: string };

async function cli(...args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawnProcess(process.execPath, ['--import', 'tsx', 'src/cli/data.ts', ...args], {
    cwd: SERVER_DIR,
    env: { ...process.env, DATABASE_URL: t.url, DATA_DIR: t.dataDir, MARKET_NOW: NOW, LOG_LEVEL: 'silent' },
  });
  const code = await child.exited;
  return { code, output: child.output() };
}

beforeAll(async () => {
  t = await createTestApp({ MARKET_NOW: NOW });
  const email = uniqueEmail('data-cli');
  await createUser(t.db, email, 'pw');
  headers = await login(t.app, email, 'pw');
}, 120_000);
afterAll(async () => t.close());

describe('npm run data', () => {
  it('imports the real GOOG history with no warning, twice without a change', async () => {
    const first = await cli('import', FIXTURE, '--description', 'Google Inc', '--exchange', 'NASDAQ');
    expect(first.output).toContain('GOOG.csv: imported');
    expect(first.output).toContain('GOOG Google Inc: 1,047 bars 2004-08-19 → 2008-10-14: 1,047 new, 0 changed, 0 unchanged');
    expect(first.output).not.toMatch(/warning|error/);
    expect(first.code).toBe(0);
    const second = await cli('import', FIXTURE);
    expect(second.output).toContain('0 new, 0 changed, 1,047 unchanged');
    const list = await cli('list');
    expect(list.output).toMatch(/^GOOG\tGoogle Inc\tNASDAQ\t2004-08-19 → 2008-10-14\t1,047 bars\tlast close 362.71\tGOOG.csv$/m);
  }, 120_000);

  it('answers usage errors with a message and exit code 2', async () => {
    expect(await cli('import')).toMatchObject({ code: 2 });
    const missing = await cli('import', '/nonexistent/prices');
    expect(missing.code).toBe(2);
    expect(missing.output).toContain('No such file or folder: /nonexistent/prices');
  }, 60_000);

  it('serves it: the drop scanner’s highs and the RSI match an independent computation', async () => {
    // The command ran in another process: this server forgets its kept list and cache of GOOG.
    await t.market.importChanged!(['GOOG']);
    for (const days of [30, 60]) {
      const response = await t.app.inject({ method: 'POST', url: '/api/stock-high-low', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, payload: `symbol=GOOG&days=${days}` });
      expect(response.statusCode).toBe(200);
      const window = rows.slice(-days);
      const high = window.reduce((best, row) => (row.high > best.high ? row : best));
      const low = window.reduce((best, row) => (row.low < best.low ? row : best));
      expect(response.json()).toMatchObject({ symbol: 'GOOG', days, high: high.high, high_date: high.date, low: low.low, low_date: low.date });
    }
    const rsi = await t.app.inject({ method: 'GET', url: '/api/rsi?symbol=GOOG&from=2004-08-19&to=2008-10-15', headers });
    expect(rsi.statusCode).toBe(200);
    const closes = rows.map((row) => row.close);
    const gain = AverageGain.calculate({ values: closes, period: 14 }).at(-1)!;
    const loss = AverageLoss.calculate({ values: closes, period: 14 }).at(-1)!;
    expect(rsi.json().latest_rsi).toBeCloseTo((100 * gain) / (gain + loss), 2);
  }, 60_000);
});
