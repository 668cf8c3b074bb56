import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { csvCell, parseCsv, type CryptoTrade } from '@signalboard/core';
import { chartCalls } from '../../test/chart-mock';
import { cryptoRow, scorecard, scorecardGroup, scoredBuyGroup } from '../../test/crypto-fixtures';
import { detail, replay } from '../../test/trade-fixtures';
import { captureDownloads, cardQueries, cleanUpAfterEach, failingUntilRecovered, heldAnswer, renderTradeScreen, retryListLoad } from '../../test/trade-screen';
import { filterCrypto, NO_CRYPTO_FILTER } from './crypto-filters';
import { SCORECARD_CSV, scorecardRows } from './crypto-scorecard-csv';
import { CryptoScreen, EMPTY_MESSAGE, LIST_LABEL, LOADING_MESSAGE, TITLE } from './crypto-screen';

vi.mock('lightweight-charts', () => import('../../test/chart-mock'));

// A warm coin, every field set: Buy / Sell / Hold, positive news, NEW, near its swing low.
const BTC = cryptoRow({
  Symbol: 'BTC',
  CurrentPrice: 97234.5678,
  RSIValue: 45.6,
  ATR_14_Day: 1234.56789,
  DropPercentage: 3.2,
  DropPercentage60: 12.345,
  VolumeLevel: 1.5,
  VolumeLabel: 'Elevated',
  OneMonthHigh: 100456.12345678,
  SixMonthHigh: 110922.5,
  SwingLevel: 96900.1234,
  SwingKind: 'low',
  IsSwingLevel: '1',
  Trend: 'Strong Uptrend',
  NewsSentiment: 'Positive',
  ShortTermSignal: 'Buy',
  MediumTermSignal: 'Sell',
  LongTermSignal: 'Hold',
  News: 'ETF inflows rose for a third week.',
  IsNew: true,
  Origin: 'replayed',
});
// A sub-cent coin: 8 decimals matter. Negative news, a downtrend, swing high, not NEW.
const DOGE = cryptoRow({
  Symbol: 'DOGE',
  CurrentPrice: 0.00001234,
  OneMonthHigh: 0.0000205,
  SixMonthHigh: 0.00003,
  SwingLevel: 0.00001,
  SwingKind: 'high',
  ATR_14_Day: 0.000001,
  RSIValue: 28.1,
  Trend: 'Downtrend',
  NewsSentiment: 'Negative',
  ShortTermSignal: 'Sell',
  MediumTermSignal: 'Sell',
  LongTermSignal: 'Sell',
});
// A coin still warming up: 45 candles; its defaults say why.
const NEWCOIN = cryptoRow({
  Symbol: 'ADA',
  CurrentPrice: 0.5,
  SixMonthHigh: null,
  DropPercentage60: null,
  SwingLevel: null,
  SwingKind: null,
  VolumeLevel: null,
  VolumeLabel: null,
  Trend: 'No Clear Trend',
  NewsSentiment: 'Insufficient',
  News: '',
  Candles: 45,
  Unavailable: [
    { field: 'SixMonthHigh', code: 'warm_up', reason: 'needs 180 candles, has 45' },
    { field: 'Trend', code: 'warm_up', reason: 'needs 60 candles, has 45' },
    { field: 'SwingLevel', code: 'no_swing_point', reason: 'no confirmed swing point within the last 90 candles' },
    { field: 'VolumeLevel', code: 'no_volume', reason: 'a candle it reads has no volume' },
  ],
});
const ALL = [DOGE, BTC, NEWCOIN];

const CARD = scorecard([scoredBuyGroup(), scorecardGroup({ horizon: 'Short', label: 'Sell', signals: 3 }), scorecardGroup({ horizon: 'Long', label: 'Hold', signals: 1 })]);

function setup(routes: Parameters<typeof renderTradeScreen>[1] = {}) {
  return renderTradeScreen(<CryptoScreen />, {
    'GET all_crypto_scanner': { body: ALL },
    'GET crypto_scorecard': { body: CARD },
    'GET trade_ideas/replay_status': { body: [replay({ engine: 'crypto' })] },
    ...routes,
  });
}

const { cardSymbols, card, field } = cardQueries(LIST_LABEL);
const badgeColor = (element: HTMLElement) => (element.closest('.mantine-Badge-root') as HTMLElement).style.getPropertyValue('--badge-color');
const search = () => screen.getByRole('textbox', { name: 'Search by Symbol' });

cleanUpAfterEach();

describe('Crypto Scanner screen', () => {
  it('shows its title, one h1, the loading message, then every coin by symbol', async () => {
    const list = heldAnswer();
    const api = setup({ 'GET all_crypto_scanner': list.route });
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1, name: TITLE })).toHaveTextContent('Crypto Scanner');
    expect(await screen.findByText(LOADING_MESSAGE)).toBeInTheDocument();
    list.answer({ body: ALL });
    await screen.findByRole('list', { name: LIST_LABEL });
    expect(cardSymbols()).toEqual(['ADA', 'BTC', 'DOGE']);
    expect(screen.getByText('3 coins')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('writes every field in the spec §9 format: price 8, RSI 2, ATR 4, drop % 2, volume 2, highs 8, swing 4', async () => {
    setup();
    await screen.findByRole('list', { name: LIST_LABEL });
    expect(field('BTC', 'Current price')).toHaveTextContent(/^97234\.56780000$/);
    expect(field('BTC', '1M high')).toHaveTextContent(/^100456\.12345678$/);
    expect(field('BTC', '6M high')).toHaveTextContent(/^110922\.50000000$/);
    expect(field('BTC', 'RSI (14)')).toHaveTextContent(/^45\.60$/);
    expect(field('BTC', 'ATR (14 days)')).toHaveTextContent(/^1234\.5679$/);
    expect(field('BTC', 'Drop % (1M)')).toHaveTextContent(/^3\.20%$/);
    expect(field('BTC', 'Drop % (6M)')).toHaveTextContent(/^12\.35%$/);
    expect(field('BTC', 'Volume level')).toHaveTextContent(/^1\.50 \(Elevated\)$/);
    expect(field('BTC', 'Swing level (low)')).toHaveTextContent(/^96900\.1234$/);
    expect(field('BTC', 'Trend')).toHaveTextContent('Strong Uptrend');
    expect(field('BTC', 'News sentiment')).toHaveTextContent('Positive');
    expect(within(card('BTC')).getByText('ETF inflows rose for a third week.')).toBeInTheDocument();
    expect(card('BTC')).toHaveTextContent(/Created Nov 1, 2026/);
    expect(card('BTC')).toHaveTextContent(/Updated Nov 20, 2026/);
    // Sub-cent prices keep their 8 decimals; the swing level its 4.
    expect(field('DOGE', 'Current price')).toHaveTextContent(/^0\.00001234$/);
    expect(field('DOGE', '1M high')).toHaveTextContent(/^0\.00002050$/);
    expect(field('DOGE', 'Swing level (high)')).toHaveTextContent(/^0\.0000$/);
    expect(field('DOGE', 'ATR (14 days)')).toHaveTextContent(/^0\.0000$/);
  });

  it('shows the defaults with the reason from the row: N/A highs, No Clear Trend, Hold, no news summary', async () => {
    setup();
    await screen.findByRole('list', { name: LIST_LABEL });
    expect(field('ADA', '6M high')).toHaveTextContent(/^N\/A$/);
    expect(field('ADA', '6M high').nextElementSibling).toHaveTextContent('Why: needs 180 candles, has 45');
    expect(field('ADA', 'Drop % (6M)')).toHaveTextContent(/^N\/A$/);
    expect(field('ADA', 'Drop % (6M)').nextElementSibling).toHaveTextContent('Why: needs 180 candles, has 45');
    expect(field('ADA', 'Trend')).toHaveTextContent(/^No Clear Trend$/);
    expect(field('ADA', 'Trend').nextElementSibling).toHaveTextContent('Why: needs 60 candles, has 45');
    expect(field('ADA', 'Swing level')).toHaveTextContent(/^N\/A$/);
    expect(field('ADA', 'Swing level').nextElementSibling).toHaveTextContent('Why: no confirmed swing point within the last 90 candles');
    expect(field('ADA', 'Volume level')).toHaveTextContent(/^N\/A$/);
    expect(field('ADA', 'Volume level').nextElementSibling).toHaveTextContent('Why: a candle it reads has no volume');
    for (const horizon of ['Short-term signal', 'Medium-term signal', 'Long-term signal']) expect(field('ADA', horizon)).toHaveTextContent(/^Hold$/);
    expect(within(card('ADA')).getByText('No recent news summary available.')).toBeInTheDocument();
    // A field with its value says nothing more.
    expect(field('BTC', '6M high').nextElementSibling).toBeNull();
    expect(field('BTC', 'Trend').nextElementSibling).toBeNull();
  });

  it('colours the signals (Buy green, Sell red, Hold grey), the news sentiment and the trend, always with the word', async () => {
    setup();
    await screen.findByRole('list', { name: LIST_LABEL });
    expect(badgeColor(within(field('BTC', 'Short-term signal')).getByText('Buy'))).toBe('var(--mantine-color-green-light-color)');
    expect(badgeColor(within(field('BTC', 'Medium-term signal')).getByText('Sell'))).toBe('var(--mantine-color-red-light-color)');
    expect(badgeColor(within(field('BTC', 'Long-term signal')).getByText('Hold'))).toBe('var(--mantine-color-gray-light-color)');
    expect(field('BTC', 'News sentiment')).toHaveStyle({ color: 'var(--mantine-color-green-text)' });
    expect(field('DOGE', 'News sentiment')).toHaveStyle({ color: 'var(--mantine-color-red-text)' });
    expect(field('ADA', 'News sentiment')).not.toHaveStyle({ color: 'var(--mantine-color-red-text)' });
    expect(field('ADA', 'News sentiment')).not.toHaveStyle({ color: 'var(--mantine-color-green-text)' });
    expect(field('BTC', 'Trend')).toHaveStyle({ color: 'var(--mantine-color-green-text)' });
    expect(field('DOGE', 'Trend')).toHaveStyle({ color: 'var(--mantine-color-red-text)' });
  });

  it('shows the NEW badge only on a coin whose signal changed in the last 24 h, and Near Level when the row says so', async () => {
    setup();
    await screen.findByRole('list', { name: LIST_LABEL });
    expect(within(card('BTC')).getByText('NEW')).toBeInTheDocument();
    expect(within(card('BTC')).getByText('Near Level')).toBeInTheDocument();
    expect(within(card('BTC')).getByText('Replayed')).toBeInTheDocument();
    for (const symbol of ['ADA', 'DOGE']) {
      expect(within(card(symbol)).queryByText('NEW')).toBeNull();
      expect(within(card(symbol)).queryByText('Near Level')).toBeNull();
    }
  });

  it('searches by symbol (contains, any case) and says "No crypto trades found." when nothing matches', async () => {
    setup();
    await screen.findByRole('list', { name: LIST_LABEL });
    await userEvent.type(search(), 'og');
    await waitFor(() => expect(cardSymbols()).toEqual(['DOGE']));
    expect(screen.getByText('1 coin')).toBeInTheDocument();
    await userEvent.clear(search());
    await userEvent.type(search(), 'XYZ');
    expect(await screen.findByText(EMPTY_MESSAGE)).toBeInTheDocument();
    expect(screen.getByText('Clear the search or choose All signals.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: LIST_LABEL })).toBeNull();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });

  it('filters by signal on any horizon or on one, the horizon only with a signal chosen', async () => {
    setup();
    await screen.findByRole('list', { name: LIST_LABEL });
    const horizon = screen.getByRole('combobox', { name: 'Horizon' });
    expect(horizon).toBeDisabled();
    fireEvent.change(screen.getByRole('combobox', { name: 'Signal' }), { target: { value: 'Sell' } });
    await waitFor(() => expect(cardSymbols()).toEqual(['BTC', 'DOGE']));
    expect(horizon).toBeEnabled();
    fireEvent.change(horizon, { target: { value: 'Long' } });
    await waitFor(() => expect(cardSymbols()).toEqual(['DOGE']));
    fireEvent.change(screen.getByRole('combobox', { name: 'Signal' }), { target: { value: 'Buy' } });
    expect(await screen.findByText(EMPTY_MESSAGE)).toBeInTheDocument();
    fireEvent.change(horizon, { target: { value: 'Short' } });
    await waitFor(() => expect(cardSymbols()).toEqual(['BTC']));
    fireEvent.change(screen.getByRole('combobox', { name: 'Signal' }), { target: { value: 'Hold' } });
    fireEvent.change(horizon, { target: { value: 'any' } });
    await waitFor(() => expect(cardSymbols()).toEqual(['ADA', 'BTC']));
  });

  it('filters rows as a pure function too: Hold on any horizon, and a search with spaces', () => {
    const rows: CryptoTrade[] = ALL;
    expect(filterCrypto(rows, NO_CRYPTO_FILTER).map((row) => row.Symbol)).toEqual(['ADA', 'BTC', 'DOGE']);
    expect(filterCrypto(rows, { signal: 'Hold', horizon: 'Medium', symbol: '' }).map((row) => row.Symbol)).toEqual(['ADA']);
    expect(filterCrypto(rows, { signal: 'all', horizon: 'Short', symbol: '  btc ' }).map((row) => row.Symbol)).toEqual(['BTC']);
  });

  it('says "No crypto trades found." when the scanner has no coin yet', async () => {
    setup({ 'GET all_crypto_scanner': { body: [] } });
    expect(await screen.findByText(EMPTY_MESSAGE)).toBeInTheDocument();
    expect(screen.getByText('A coin is listed once it has 30 daily candles.')).toBeInTheDocument();
  });

  it('reports a failed load with its reason and Retry, which loads the coins', async () => {
    const list = failingUntilRecovered({ status: 503, body: { msg: 'Market data is unavailable.' } }, () => ({ body: ALL }));
    setup({ 'GET all_crypto_scanner': list.route });
    expect(await screen.findByText('Market data is unavailable.')).toBeInTheDocument();
    list.recover();
    await retryListLoad();
    await screen.findByRole('list', { name: LIST_LABEL });
    expect(cardSymbols()).toEqual(['ADA', 'BTC', 'DOGE']);
  });

  it('shows the replay’s progress instead of an empty list while the crypto replay runs', async () => {
    setup({
      'GET all_crypto_scanner': { body: [] },
      'GET trade_ideas/replay_status': { body: [replay({ engine: 'crypto', state: 'running', sessionsDone: 30, sessionsTotal: 500, finishedAt: null })] },
    });
    expect(await screen.findByRole('region', { name: 'Replay progress' })).toHaveTextContent('Replaying history: 30 of 500 sessions');
    expect(screen.queryByText(EMPTY_MESSAGE)).toBeNull();
  });

  it('reads the coins and the scorecard again when the crypto replay ends', async () => {
    let running = true;
    const api = setup({
      'GET trade_ideas/replay_status': () => ({ body: [replay({ engine: 'crypto', ...(running ? { state: 'running' as const, sessionsDone: 30, sessionsTotal: 500, finishedAt: null } : {}) })] }),
      'GET all_crypto_scanner': () => ({ body: running ? [] : ALL }),
    });
    expect(await screen.findByRole('region', { name: 'Replay progress' })).toBeInTheDocument();
    const scorecardCalls = api.callsTo('crypto_scorecard').length;
    running = false;
    await screen.findByRole('list', { name: LIST_LABEL }, { timeout: 8_000 });
    expect(cardSymbols()).toEqual(['ADA', 'BTC', 'DOGE']);
    await waitFor(() => expect(api.callsTo('crypto_scorecard').length).toBeGreaterThan(scorecardCalls));
  }, 15_000);

  it('exports the shown coins as CSV: the spec fields in order, numbers as the screen writes them', async () => {
    const download = captureDownloads();
    setup();
    await screen.findByRole('list', { name: LIST_LABEL });
    await userEvent.type(search(), 'o');
    await waitFor(() => expect(cardSymbols()).toEqual(['DOGE']));
    await userEvent.clear(search());
    await waitFor(() => expect(cardSymbols()).toEqual(['ADA', 'BTC', 'DOGE']));
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(download.click).toHaveBeenCalledTimes(1);
    const lines = await download.lines();
    expect(lines[0]).toBe(
      'Symbol,CurrentPrice,RSIValue,ATR_14_Day,DropPercentage,DropPercentage60,VolumeLevel,OneMonthHigh,SixMonthHigh,SwingLevel,IsSwingLevel,Trend,NewsSentiment,ShortTermSignal,MediumTermSignal,LongTermSignal,News,DateCreated,DateUpdated',
    );
    expect(lines[1]).toBe(
      'ADA,0.50000000,50.00,2.0000,5.00,N/A,N/A,105.26315789,N/A,N/A,0,No Clear Trend,Insufficient,Hold,Hold,Hold,,2026-11-01T00:05:00.000Z,2026-11-20T00:05:00.000Z',
    );
    expect(lines[2]).toBe(
      'BTC,97234.56780000,45.60,1234.5679,3.20,12.35,1.50,100456.12345678,110922.50000000,96900.1234,1,Strong Uptrend,Positive,Buy,Sell,Hold,ETF inflows rose for a third week.,2026-11-01T00:05:00.000Z,2026-11-20T00:05:00.000Z',
    );
    expect(lines[3]!.startsWith('DOGE,0.00001234,28.10,0.0000,')).toBe(true);
    expect(lines).toHaveLength(5);
  });

  it('shows the scorecard per horizon and label with N, pending, intervals, baseline, excess and BTC, greyed and worded below N = 30', async () => {
    const api = setup();
    const panel = await screen.findByRole('region', { name: 'Signal scorecard' });
    const table = await within(panel).findByRole('table', { name: 'Short-term · Replayed · crypto@1.0.0 scorecard' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(6);
    const [week, month, quarter] = rows;
    expect(week).toHaveTextContent('Buy (40 changes)7 days364+1.23% (−0.40% to +2.81%)58.3% (42.2%–72.9%)+0.51%+0.72%+0.80%+0.43%');
    expect(week).not.toHaveAttribute('data-few');
    expect(month).toHaveTextContent('30 days12 · only 12: too few to tell28−2.00%41.7% (19.3%–68.1%)');
    expect(month).toHaveAttribute('data-few', 'true');
    expect(within(month!).getAllByRole('cell')[3]).toHaveStyle({ color: 'var(--mantine-color-dimmed)' });
    expect(quarter).toHaveTextContent('90 days0 · none matured yet40—');
    expect(rows[3]).toHaveTextContent('Sell (3 changes)');
    expect(panel).toHaveTextContent('Sell is scored with the sign flipped');
    await userEvent.click(within(panel).getByRole('tab', { name: 'Long-term' }));
    expect(await within(panel).findByRole('table', { name: 'Long-term · Replayed · crypto@1.0.0 scorecard' })).toHaveTextContent('Hold (1 change)');
    await userEvent.click(within(panel).getByRole('tab', { name: 'Medium-term' }));
    expect(await within(panel).findByText('No medium-term signal change yet.')).toBeInTheDocument();
    // The scorecard follows the symbol search.
    await userEvent.type(search(), 'eth');
    await waitFor(() => expect(api.callsTo('crypto_scorecard').at(-1)!.url.searchParams.get('symbol')).toBe('eth'));
  });

  it('downloads the scorecard as crypto-trades-track-record-<date>.csv, every row of its tables read back', async () => {
    const download = captureDownloads();
    download.click.mockClear();
    setup();
    const panel = await screen.findByRole('region', { name: 'Signal scorecard' });
    await userEvent.click(await within(panel).findByRole('button', { name: 'Export scorecard CSV' }));
    expect(download.click).toHaveBeenCalledTimes(1);
    expect((download.click.mock.contexts[0] as HTMLAnchorElement).download).toMatch(/^crypto-trades-track-record-\d{4}-\d{2}-\d{2}\.csv$/);
    expect([...new Uint8Array(await download.blob().arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = parseCsv(await download.blob().text()).map((record) => record.fields);
    expect(records.slice(1)).toEqual(scorecardRows(CARD).map((row) => SCORECARD_CSV.map((column) => csvCell(column.value(row)))));
    expect(records.slice(1).map((fields) => fields.slice(3, 6).join(' '))).toEqual(['Buy 40 7', 'Buy 40 30', 'Buy 40 90', 'Sell 3 7', 'Sell 3 30', 'Sell 3 90', 'Hold 1 7', 'Hold 1 30', 'Hold 1 90']);
  });

  it('opens a coin’s detail: its candles, swing level and highs as lines, label changes as markers, the log in 8 decimals', async () => {
    setup({
      'GET trade_ideas/crypto/*': {
        body: detail({
          engine: 'crypto',
          idea: DOGE,
          bars: [
            { date: '2026-11-18', open: 0.0000125, high: 0.000013, low: 0.000012, close: 0.0000128, volume: 1e6 },
            { date: '2026-11-19', open: 0.0000128, high: 0.0000129, low: 0.0000122, close: 0.00001234, volume: 2e6 },
          ],
          events: [
            { type: 'opened', level: '', barDate: '2026-11-18', price: 0.0000128, data: {}, ruleVersion: 'crypto@1.0.0', paramHash: '0123456789abcdef', origin: 'live', recordedAt: '2026-11-19T00:05:00.000Z' },
            { type: 'updated', level: '', barDate: '2026-11-19', price: 0.00001234, data: {}, ruleVersion: 'crypto@1.0.0', paramHash: '0123456789abcdef', origin: 'live', recordedAt: '2026-11-20T00:05:00.000Z' },
            {
              type: 'signal_changed',
              level: 'Short',
              barDate: '2026-11-19',
              price: 0.00001234,
              data: { horizon: 'Short', from: 'Hold', to: 'Sell' },
              ruleVersion: 'crypto@1.0.0',
              paramHash: '0123456789abcdef',
              origin: 'live',
              recordedAt: '2026-11-20T00:05:00.000Z',
            },
          ],
        }),
      },
    });
    await screen.findByRole('list', { name: LIST_LABEL });
    await userEvent.click(within(card('DOGE')).getByRole('button', { name: 'Details of DOGE' }));
    const dialog = await screen.findByRole('dialog', { name: 'DOGE · coin detail' });
    const levels = await within(dialog).findByRole('region', { name: 'Levels' });
    for (const part of ['Swing high: 0.0000', '1M high: 0.00002050', '6M high: 0.00003000']) expect(levels).toHaveTextContent(part);
    const log = within(dialog).getByRole('region', { name: 'Event log' });
    expect(log).toHaveTextContent('Signal changed: Short Hold → Sell');
    expect(log).toHaveTextContent('0.00001234');
    // The daily field updates are counted, not listed.
    expect(log).toHaveTextContent('1 daily update of the fields not listed.');
    expect(within(log).getAllByRole('row')).toHaveLength(3);
    await waitFor(() => expect(chartCalls.bars).toBe(2));
    expect(chartCalls.priceLines.map((line) => line.title)).toEqual(['Swing high', '1M high', '6M high']);
    expect(chartCalls.markers.at(-1)!.map((marker) => marker.text)).toEqual(['Signal', 'Short Sell']);
  });
});
