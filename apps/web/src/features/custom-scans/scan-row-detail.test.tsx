import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RunScanResponse } from '@signalboard/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chartCalls, resetChartCalls } from '../../test/chart-mock';
import { inTurn } from '../../test/mock-api';
import { FIRST_RENDER, RUN_ANSWER, renderScans, screenWidth } from './__fixtures__/scans';

vi.mock('lightweight-charts', () => import('../../test/chart-mock'));

// A result row's Details (docs/custom-scans.md, "Running a scan"): the chart of its bars through the
// run's session, the scan's levels drawn from the row's values, and the levels as text.

beforeEach(() => {
  screenWidth(true);
  resetChartCalls();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** 'close > sma(50) and pct_below_high(21) >= 5': MSFT at 400, its SMA(50) 380, 8 % below its high (so the high is 400 / 0.92). */
const ANSWER: RunScanResponse = {
  ...RUN_ANSWER,
  formula: 'close > sma(50) and pct_below_high(21) >= 5 and close > 150',
  conditions: null,
  columns: [
    { key: 'close', field: 'close', params: [], label: 'Price', unit: 'price' },
    { key: 'sma(50)', field: 'sma', params: [50], label: 'SMA(50)', unit: 'price' },
    { key: 'pct_below_high(21)', field: 'pct_below_high', params: [21], label: '% below high (21)', unit: 'percent' },
  ],
  rows: [{ symbol: 'MSFT', name: 'Microsoft Corporation', price: 400, change_pct: 0.5, values: [400, 380, 8] }],
  matches: 1,
};
const BARS = {
  symbol: 'MSFT',
  source: 'file',
  as_of: '2026-11-20',
  bars: [
    { date: '2026-11-19', open: 395, high: 402, low: 390, close: 398, volume: 1e6 },
    { date: '2026-11-20', open: 398, high: 405, low: 396, close: 400, volume: 1e6 },
  ],
};

describe('Custom Scans: a row\'s Details', () => {
  it("opens the row's chart as of the run's session with the scan's price levels, and lists them", async () => {
    const api = renderScans({ 'POST scans/run': { body: ANSWER }, 'GET scans/chart': { body: BARS } });
    await userEvent.click(await screen.findByRole('button', { name: 'Run scan' }, FIRST_RENDER));
    await userEvent.click(await screen.findByRole('button', { name: 'Details of MSFT' }));
    const dialog = await screen.findByRole('dialog', { name: 'MSFT · Details' });
    await within(dialog).findByRole('img', { name: "MSFT daily candles through Nov 20, 2026 with the scan's levels" });
    await waitFor(() => expect(chartCalls.bars).toBe(2));
    expect(chartCalls.priceLines).toEqual([
      { title: 'SMA(50)', price: 380 },
      { title: '21-session high', price: 400 / 0.92 },
      { title: 'close > 150', price: 150 },
    ]);
    expect(chartCalls.markers.at(-1)).toEqual([expect.objectContaining({ time: '2026-11-20', text: 'Matched' })]);
    const levels = within(dialog).getByRole('region', { name: 'Levels' });
    expect(levels).toHaveTextContent('SMA(50): 380.00');
    expect(levels).toHaveTextContent('21-session high: 434.78');
    expect(within(dialog).getByRole('region', { name: 'Values' })).toHaveTextContent('% below high (21)+8.00%');
    const [call] = api.callsTo('scans/chart');
    expect(Object.fromEntries(call!.url.searchParams)).toEqual({ symbol: 'MSFT', as_of: '2026-11-20' });
    expect(api.unhandled).toEqual([]);
  });

  it('says why the chart could not be loaded and tries again on Retry', async () => {
    renderScans({ 'POST scans/run': { body: ANSWER }, 'GET scans/chart': inTurn({ status: 404, body: { msg: 'No daily bars of MSFT on or before 2026-11-20.' } }, { body: BARS }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Run scan' }, FIRST_RENDER));
    await userEvent.click(await screen.findByRole('button', { name: 'Details of MSFT' }));
    const dialog = await screen.findByRole('dialog', { name: 'MSFT · Details' });
    expect(await within(dialog).findByText('No daily bars of MSFT on or before 2026-11-20.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Retry' }));
    await within(dialog).findByRole('img', { name: /MSFT daily candles/ });
  });

  it('has a Details button on each card on a phone', async () => {
    screenWidth(false);
    renderScans({ 'POST scans/run': { body: ANSWER }, 'GET scans/chart': { body: BARS } });
    await userEvent.click(await screen.findByRole('button', { name: 'Run scan' }, FIRST_RENDER));
    const card = await screen.findByRole('listitem', { name: 'MSFT' });
    await userEvent.click(within(card).getByRole('button', { name: 'Details of MSFT' }));
    await screen.findByRole('dialog', { name: 'MSFT · Details' });
  });
});
