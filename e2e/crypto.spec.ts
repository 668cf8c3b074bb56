import fs from 'node:fs/promises';
import path from 'node:path';
import { CSV_BOM, type CryptoTrade } from '@signalboard/core';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CRYPTO_BARS, CRYPTO_LAST_CANDLE, CRYPTO_QUOTES } from './fixtures/market/crypto';
import { INDEX_QUOTES } from './fixtures/market/dashboard';
import { newContext, screenshot, signedInUser, useBrowserPage } from './support/browser';
import { addDays, coinFields, fixed, labelChanges, recomputeScorecard, type CoinFields, type Horizon } from './support/crypto-math';
import { apiGet, cardSymbols, IDEAS_TIME_ZONE, normalise, percent, resolvedColour, waitForReplay, wilson } from './support/trade-ideas';

// The pinned crypto market (e2e/fixtures/market/crypto.ts): seven coins of UTC daily candles through
// 2026-11-19, replayed by the crypto engine at the server's first start; "now" is 2026-11-20 16:00
// UTC (the pass deciding 2026-11-19 ran at 00:05 UTC). Every figure below is recomputed here from
// the fixture's candles and quotes (e2e/support/crypto-math.ts), not read from the app. The browser
// runs in Tokyo (UTC+9): the 00:05 UTC pass is 9:05 AM there.

/** The intraday price of each coin at "now": BTC's is the dashboard part's quote. */
const QUOTES: Record<string, number> = { BTC: INDEX_QUOTES.find((row) => row.symbol === 'BTC')!.price, ...CRYPTO_QUOTES };
const COINS = Object.keys(CRYPTO_BARS).sort();
const FIELDS: Record<string, CoinFields> = Object.fromEntries(COINS.map((symbol) => [symbol, coinFields(CRYPTO_BARS[symbol]!, QUOTES[symbol]!)]));
const MARKET_NOW_ISO = '2026-11-20T16:00:00.000Z';
const NOW_MS = Date.parse(MARKET_NOW_ISO);
/** The instant of the pass deciding a UTC day: the next day, 00:05 UTC. */
const passOf = (day: string) => Date.parse(`${addDays(day, 1)}T00:05:00Z`);
const SHOTS = '/tmp/i13-shots';

/**
 * Where each coin's signal log starts (docs/rules/data-needs.md §7: 200 warm-up candles, then the replay; docs/rules/crypto.md §3.1:
 * a coin is shown once it has 30 candles): the first replayed session is the 201st UTC day with a
 * candle; a coin opens on that session, or on its 30th candle if later, with the labels of that
 * candle; the changes after it are its signals.
 */
const WARM_UP_CANDLES = 200;
const FIRST_SESSION = [...new Set(Object.values(CRYPTO_BARS).flatMap((bars) => bars.map((bar) => bar.date)))].sort()[WARM_UP_CANDLES]!;
const OPENED_AT: Record<string, number> = Object.fromEntries(
  COINS.map((symbol) => {
    const bars = CRYPTO_BARS[symbol]!;
    return [symbol, Math.max(bars.findIndex((bar) => bar.date >= FIRST_SESSION), 29)];
  }),
);

let page: Page;
const session = useBrowserPage(
  async (context) => {
    await signedInUser(context, 'crypto', { server: 'market' });
  },
  { server: 'market', timezoneId: IDEAS_TIME_ZONE },
);
beforeEach(() => {
  page = session.page;
});

const coins = (view: Page = page) => view.getByRole('list', { name: 'Crypto trades' });
const card = (symbol: string, view: Page = page) => coins(view).getByRole('article', { name: symbol, exact: true });
const searchBox = (view: Page = page) => view.getByRole('textbox', { name: 'Search by Symbol' });
async function open(view: Page = page): Promise<void> {
  await view.goto('/dashboard/cryptoscanner');
  await view.getByRole('heading', { name: 'Crypto Scanner', level: 1 }).waitFor();
  await expect.poll(() => cardSymbols(coins(view))).toEqual(COINS);
}
/** The figure after a card's label (its value element). */
const figure = (symbol: string, label: string) => card(symbol).getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]');
const colourOf = (element: Locator) => element.evaluate((node) => getComputedStyle(node).color);

describe('Crypto Scanner', () => {
  beforeAll(async () => {
    await waitForReplay('crypto');
    // The marks job prices every row at "now" (the quotes) after the replay: wait for it.
    const deadline = Date.now() + 150_000;
    for (;;) {
      const rows = await apiGet<CryptoTrade[]>('all_crypto_scanner');
      if (rows.length === COINS.length && rows.every((row) => row.DateUpdated === MARKET_NOW_ISO)) break;
      if (Date.now() > deadline) throw new Error(`the crypto rows were not marked at ${MARKET_NOW_ISO} within 150 s: ${rows.map((row) => `${row.Symbol} ${row.DateUpdated}`).join(', ')}`);
      // Polls the server's state, not a fixed pause before a check.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }, 180_000);

  it('shows every coin with the metrics, formats and defaults its candles give', async () => {
    await open();
    expect(await page.title()).toBe('Crypto Scanner · Signalboard');
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    await page.getByText(`${COINS.length} coins`, { exact: true }).waitFor();
    for (const symbol of COINS) {
      const f = FIELDS[symbol]!;
      const text = normalise(await card(symbol).innerText());
      const expected = [
        `Current price ${fixed(f.currentPrice, 8)}`,
        `1M high ${fixed(f.oneMonthHigh, 8)}`,
        `6M high ${fixed(f.sixMonthHigh, 8)}`,
        `RSI (14) ${fixed(f.rsi, 2)}`,
        `Drop % (1M) ${fixed(f.drop1m, 2)}%`,
        `Drop % (6M) ${f.drop6m === null ? 'N/A' : `${fixed(f.drop6m, 2)}%`}`,
        `ATR (14 days) ${fixed(f.atr, 4)}`,
        `Volume level ${fixed(f.rvol, 2)} (${f.volumeLabel})`,
        f.swing ? `Swing level (${f.swing.kind}) ${fixed(f.swing.level, 4)}` : 'Swing level N/A',
        `Trend ${f.trend}`,
        `Short-term signal ${f.signals.Short.toUpperCase()}`,
        `Medium-term signal ${f.signals.Medium.toUpperCase()}`,
        `Long-term signal ${f.signals.Long.toUpperCase()}`,
      ];
      for (const part of expected) expect(text, symbol).toContain(part);
    }
  });

  it('shows the defaults of a coin not yet warm, each with its reason', async () => {
    await open();
    // PEPE: 45 candles: no 6-month high (180 candles), no trend (60 candles), no SMA200 for the long signal.
    expect(CRYPTO_BARS.PEPE!.length).toBeLessThan(60);
    const pepe = normalise(await card('PEPE').innerText());
    expect(pepe).toContain(`6M high N/A Why: needs 180 candles, has ${CRYPTO_BARS.PEPE!.length}`);
    expect(pepe).toContain(`Drop % (6M) N/A Why: needs 180 candles, has ${CRYPTO_BARS.PEPE!.length}`);
    expect(pepe).toContain(`Trend No Clear Trend Why: needs 60 candles, has ${CRYPTO_BARS.PEPE!.length}`);
    expect(pepe).toContain('Long-term signal HOLD');
    // A coin without headlines in the last 72 h: the default summary.
    expect(pepe).toContain('News summary No recent news summary available.');
  });

  it('colours the signals, the news sentiment and the trend from the theme, and badges NEW and Near Level as the candles say', async () => {
    await open();
    const green = await resolvedColour(page, '--mantine-color-green-light-color');
    const red = await resolvedColour(page, '--mantine-color-red-light-color');
    const grey = await resolvedColour(page, '--mantine-color-gray-light-color');
    const signalColour = { Buy: green, Sell: red, Hold: grey };
    const horizons: [Horizon, string][] = [
      ['Short', 'Short-term signal'],
      ['Medium', 'Medium-term signal'],
      ['Long', 'Long-term signal'],
    ];
    for (const symbol of COINS) {
      const f = FIELDS[symbol]!;
      for (const [horizon, label] of horizons) {
        const badge = figure(symbol, label).locator('.mantine-Badge-root');
        expect(normalise(await badge.innerText()), `${symbol} ${horizon}`).toBe(f.signals[horizon].toUpperCase());
        expect(await colourOf(badge), `${symbol} ${horizon}`).toBe(signalColour[f.signals[horizon]]);
      }
      // NEW: a signal changed at a pass within 24 h of now.
      const isNew = f.lastChange !== null && NOW_MS - passOf(f.lastChange) < 86_400_000;
      expect(await card(symbol).getByText('NEW', { exact: true }).count(), `${symbol} NEW`).toBe(isNew ? 1 : 0);
      expect(await card(symbol).getByText('Near Level', { exact: true }).count(), `${symbol} Near Level`).toBe(f.nearLevel ? 1 : 0);
    }
    // The stories of the fixture, so a change to it that loses one fails here.
    expect(COINS.filter((symbol) => FIELDS[symbol]!.lastChange !== null && NOW_MS - passOf(FIELDS[symbol]!.lastChange!) < 86_400_000)).toEqual(['SOL']);
    expect(FIELDS.ADA!.nearLevel).toBe(true);
    expect(FIELDS.SOL!.volumeLabel).toBe('High');
    // News sentiment: three positive headlines for ETH, three negative for DOGE; one for BTC is too few.
    expect(normalise(await figure('ETH', 'News sentiment').innerText())).toBe('Positive');
    expect(await colourOf(figure('ETH', 'News sentiment'))).toBe(await resolvedColour(page, '--mantine-color-green-text'));
    expect(normalise(await figure('DOGE', 'News sentiment').innerText())).toBe('Negative');
    expect(await colourOf(figure('DOGE', 'News sentiment'))).toBe(await resolvedColour(page, '--mantine-color-red-text'));
    expect(normalise(await figure('BTC', 'News sentiment').innerText())).toBe('Insufficient');
    expect(await colourOf(figure('BTC', 'News sentiment'))).toBe(await resolvedColour(page, '--mantine-color-text'));
    await screenshot(page, 'crypto-scanner');
  });

  it('dates each coin by the pass of its last signal change, in the browser’s zone', async () => {
    await open();
    const tokyo = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: IDEAS_TIME_ZONE });
    for (const symbol of ['SOL', 'ADA', 'DOGE']) {
      const created = tokyo.format(new Date(passOf(FIELDS[symbol]!.lastChange!)));
      expect(normalise(await card(symbol).innerText()), symbol).toContain(`Created ${created}`);
    }
    expect(FIELDS.SOL!.lastChange).toBe(CRYPTO_LAST_CANDLE);
  });

  it('filters by signal and horizon, searches by symbol, and says "No crypto trades found." when nothing matches', async () => {
    await open();
    const signal = page.getByRole('combobox', { name: 'Signal' });
    const horizon = page.getByRole('combobox', { name: 'Horizon' });
    const having = (wanted: string, on: Horizon[]) => COINS.filter((symbol) => on.some((one) => FIELDS[symbol]!.signals[one] === wanted));
    await signal.selectOption('Sell');
    await expect.poll(() => cardSymbols(coins())).toEqual(having('Sell', ['Short', 'Medium', 'Long']));
    await horizon.selectOption('Long');
    await expect.poll(() => cardSymbols(coins())).toEqual(having('Sell', ['Long']));
    await signal.selectOption('Buy');
    await horizon.selectOption('Short');
    await expect.poll(() => cardSymbols(coins())).toEqual(having('Buy', ['Short']));
    await signal.selectOption('all');
    await expect.poll(() => cardSymbols(coins())).toEqual(COINS);

    await searchBox().fill('o');
    await expect.poll(() => cardSymbols(coins())).toEqual(COINS.filter((symbol) => symbol.includes('O')));
    await searchBox().fill('zzz');
    await page.getByText('No crypto trades found.', { exact: true }).waitFor();
    expect(await coins().count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Export CSV' }).isDisabled()).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, 'crypto-empty.png'), fullPage: true });
  });

  it('exports the shown coins as CSV with the spec fields in order and the spec formats', async () => {
    await open();
    await searchBox().fill('doge');
    await expect.poll(() => cardSymbols(coins())).toEqual(['DOGE']);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const file = await fs.readFile((await download.path())!, 'utf8');
    // Every export starts with a byte-order mark for Excel (docs/data-in-and-out.md "Exports").
    expect(file.startsWith(CSV_BOM)).toBe(true);
    const [header, row, end] = file.slice(CSV_BOM.length).split('\r\n');
    expect(header).toBe(
      'Symbol,CurrentPrice,RSIValue,ATR_14_Day,DropPercentage,DropPercentage60,VolumeLevel,OneMonthHigh,SixMonthHigh,SwingLevel,IsSwingLevel,Trend,NewsSentiment,ShortTermSignal,MediumTermSignal,LongTermSignal,News,DateCreated,DateUpdated',
    );
    const f = FIELDS.DOGE!;
    expect(row!.startsWith(
      [
        'DOGE',
        fixed(f.currentPrice, 8),
        fixed(f.rsi, 2),
        fixed(f.atr, 4),
        fixed(f.drop1m, 2),
        fixed(f.drop6m, 2),
        fixed(f.rvol, 2),
        fixed(f.oneMonthHigh, 8),
        fixed(f.sixMonthHigh, 8),
        fixed(f.swing!.level, 4),
        f.nearLevel ? '1' : '0',
        f.trend,
        'Negative',
        f.signals.Short,
        f.signals.Medium,
        f.signals.Long,
      ].join(','),
    )).toBe(true);
    expect(end).toBe('');
  });

  it('opens a coin’s detail: its candles, the swing level and highs, and each label change in the log', async () => {
    await open();
    await card('SOL').getByRole('button', { name: 'Details of SOL' }).click();
    const dialog = page.getByRole('dialog', { name: 'SOL · coin detail' });
    const f = FIELDS.SOL!;
    const levels = dialog.getByRole('region', { name: 'Levels', exact: true });
    await levels.waitFor();
    const levelText = normalise(await levels.innerText());
    expect(levelText).toContain(`Swing ${f.swing!.kind}: ${fixed(f.swing!.level, 4)}`);
    expect(levelText).toContain(`1M high: ${fixed(f.oneMonthHigh, 8)}`);
    await dialog.getByRole('img', { name: /^SOL daily \(UTC\) candles/ }).locator('canvas').first().waitFor();
    // The label change of the last candle: Short to Sell, at its close.
    const log = normalise(await dialog.getByRole('region', { name: 'Event log', exact: true }).innerText());
    const last = labelChanges('SOL', CRYPTO_BARS.SOL!, 1).filter((change) => change.date === CRYPTO_LAST_CANDLE);
    expect(last.map((change) => `${change.horizon} ${change.to}`)).toEqual(['Short Sell']);
    expect(log).toContain(`${CRYPTO_LAST_CANDLE} Signal changed: Short ${last[0]!.from} → Sell Short ${fixed(last[0]!.close, 8)}`);
    await page.screenshot({ path: path.join(SHOTS, 'crypto-detail.png') });
  });

  it('reads well in light, dark and on a phone', async () => {
    await fs.mkdir(SHOTS, { recursive: true });
    for (const [name, options] of [
      ['light', { colorScheme: 'light', width: 1366, height: 860 }],
      ['dark', { colorScheme: 'dark', width: 1366, height: 860 }],
      ['phone', { colorScheme: 'light', width: 390, height: 844 }],
    ] as const) {
      const context = await newContext(session.browser, { server: 'market', timezoneId: IDEAS_TIME_ZONE, ...options });
      try {
        await signedInUser(context, `crypto-${name}`, { server: 'market' });
        const view = await context.newPage();
        await open(view);
        // Nothing wider than the screen, and no figure running out of its cell.
        expect(await view.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(options.width);
        const box = (await card('DOGE', view).boundingBox())!;
        expect(box.x + box.width, name).toBeLessThanOrEqual(options.width);
        expect(await coins(view).locator('.mantine-Text-root').evaluateAll((texts) => texts.filter((text) => text.scrollWidth > text.clientWidth + 1).map((text) => text.textContent)), name).toEqual([]);
        expect(await coins(view).locator('.mantine-Text-root').count(), name).toBeGreaterThan(COINS.length * 30);
        await view.screenshot({ path: path.join(SHOTS, `crypto-${name}.png`), fullPage: true });
        await card('SOL', view).screenshot({ path: path.join(SHOTS, `crypto-card-${name}.png`) });
      } finally {
        await context.close();
      }
    }
  });

  it('recomputes the signal scorecard from the candles: N, pending, mean, share positive, baseline, excess and BTC', async () => {
    await open();
    // The signal log: every change of a displayed label from the first replayed candle on.
    const changes = COINS.flatMap((symbol) => labelChanges(symbol, CRYPTO_BARS[symbol]!, OPENED_AT[symbol]! + 1));
    const card = recomputeScorecard(changes, CRYPTO_BARS, CRYPTO_LAST_CANDLE, [7, 30, 90]);
    const panel = page.getByRole('region', { name: 'Signal scorecard' });
    await panel.getByText(`Signals from ${card.windowFrom} to ${CRYPTO_LAST_CANDLE} (UTC days)`).waitFor();
    const labelsSeen: string[] = [];
    for (const horizon of ['Short', 'Medium', 'Long'] as const) {
      const title = `${horizon}-term · Replayed · crypto@1.0.0`;
      await panel.getByRole('tab', { name: `${horizon}-term` }).click();
      const table = panel.getByRole('table', { name: `${title} scorecard` });
      await table.waitFor();
      const rows = (await table.locator('tbody tr').allInnerTexts()).map(normalise);
      const expected = [...card.groups.values()].filter((group) => group.horizon === horizon);
      expect(rows.length, horizon).toBe(expected.length * 3);
      for (const group of expected) {
        labelsSeen.push(`${horizon} ${group.label}`);
        for (const cell of group.cells) {
          const row = rows.find((text) => text.startsWith(`${group.label} (${group.signals} change${group.signals === 1 ? '' : 's'}) ${cell.days} days `));
          expect(row, `${horizon} ${group.label} ${cell.days}`).toBeDefined();
          const note = cell.n === 0 ? ' · none matured yet' : cell.n < 30 ? ` · only ${cell.n}: too few to tell` : '';
          const share = cell.n === 0 ? '—' : (({ rate, low, high }) => `${rate} (${low}–${high})`)(wilson(cell.wins, cell.n));
          const pct = (value: number | null) => (value === null ? '—' : percent(value));
          // The mean's bootstrap interval (seeded resampling) is checked for order, not recomputed.
          const pattern = new RegExp(
            `^${escape(`${group.label} (${group.signals} change${group.signals === 1 ? '' : 's'}) ${cell.days} days ${cell.n}${note} ${cell.pending} ${pct(cell.mean)}`)}(?: \\((\\S+) to (\\S+)\\))? ${escape(
              `${share} ${pct(cell.baseline)} ${pct(cell.excess)} ${pct(cell.btcMean)}${cell.btcN !== cell.n ? ` (N ${cell.btcN})` : ''} ${pct(cell.btcExcess)}`,
            )}$`,
          );
          expect(row, `${horizon} ${group.label} ${cell.days}`).toMatch(pattern);
          const interval = pattern.exec(row!)!;
          if (cell.n > 1 && cell.mean !== null) {
            const [low, high] = [interval[1], interval[2]].map((text) => Number(text!.replace('\u2212', '-').replace('%', '').replace('+', '')) / 100);
            expect(low! - 0.00005, `${horizon} ${group.label} ${cell.days}`).toBeLessThanOrEqual(cell.mean);
            expect(high! + 0.00005, `${horizon} ${group.label} ${cell.days}`).toBeGreaterThanOrEqual(cell.mean);
          }
        }
      }
    }
    expect(labelsSeen.length).toBeGreaterThan(3);
  });
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
