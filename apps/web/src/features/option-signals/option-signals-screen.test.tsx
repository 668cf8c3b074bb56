import type { OptionScanEvent } from '@signalboard/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inTurn, mockApi } from '../../test/mock-api';
import { renderScreen } from '../../test/render';
import { EMPTY_MESSAGE, OptionScannerScreen, RUNNING_MESSAGE } from './option-signals-screen';

const META = {
  symbol: 'META', currentPrice: 104.5, high: 105.02, low: 87.56, percentageChange: 19.346733668341706,
  calculationType: 'increase', tag: '6MonthLow', action: 'PUT', timeFrame: 'long term', supportTag: 'Near Support',
} as const;
const GOOGL = {
  symbol: 'GOOGL', currentPrice: 104, high: 120.6, low: 103.48, percentageChange: 13.764510779436149,
  calculationType: 'drop', tag: '1MonthHigh', action: 'CALL', timeFrame: 'short term', supportTag: 'Near Resistance',
} as const;

/** The scan's one call, answered with a stream whose lines the test pushes one at a time. */
function mockStream() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const api = mockApi({ 'POST scan/options': inTurn({ stream: body }) });
  return {
    api,
    send: (event: OptionScanEvent) => controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`)),
    close: () => controller.close(),
  };
}

/** The cards (a narrow screen in jsdom: matchMedia answers false), as text. */
const cards = () => screen.queryAllByRole('listitem').filter((item) => item.closest('[aria-label="Flagged stocks"]')).map((item) => item.textContent);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Options Scanner screen', () => {
  it('shows progress and rows as the stream arrives, largest change first', async () => {
    const stream = mockStream();
    renderScreen(<OptionScannerScreen />);
    await userEvent.click(screen.getByRole('button', { name: 'Start Scanning' }));
    expect(stream.api.calls.map((call) => [call.input, call.method, call.init?.body])).toEqual([['/api/scan/options', 'POST', '{}']]);

    stream.send({ type: 'start', total: 3 });
    await screen.findByText('0 of 3');
    expect(screen.getByText(RUNNING_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Scanning' })).toBeDisabled();

    stream.send({ type: 'flag', flag: GOOGL });
    stream.send({ type: 'progress', done: 1, total: 3, symbol: 'GOOGL' });
    await screen.findByText('1 of 3');
    expect(cards()).toHaveLength(1);

    stream.send({ type: 'flag', flag: META });
    stream.send({ type: 'progress', done: 2, total: 3, symbol: 'META' });
    await screen.findByText('2 of 3');
    const [first, second] = cards();
    expect(first).toContain('META');
    expect(first).toContain('Increased 19.35%');
    expect(first).toContain('PUT');
    expect(second).toContain('Dropped 13.76%');

    stream.send({ type: 'skip', symbol: 'ORCL', msg: 'No price history for ORCL' });
    stream.send({ type: 'progress', done: 3, total: 3, symbol: 'ORCL' });
    stream.send({ type: 'end', scanned: 2, failed: [{ symbol: 'ORCL', msg: 'No price history for ORCL' }], as_of: 1_795_190_400 });
    stream.close();
    await screen.findByText('Scan complete');
    expect(screen.getByText('3 of 3')).toBeInTheDocument();
    expect(screen.getByText('1 symbol could not be scanned')).toBeInTheDocument();
    expect(screen.queryByText(RUNNING_MESSAGE)).toBeNull();
    expect(screen.getByRole('button', { name: 'Start Scanning' })).toBeEnabled();
    expect(cards()).toHaveLength(2);
    expect(stream.api.unhandled).toEqual([]);
  });

  it('marks a flag whose figures come from an imported price file, and counts them beside the as-of time', async () => {
    const stream = mockStream();
    renderScreen(<OptionScannerScreen />);
    await userEvent.click(screen.getByRole('button', { name: 'Start Scanning' }));
    stream.send({ type: 'start', total: 2 });
    stream.send({ type: 'flag', flag: { ...GOOGL, imported: true } });
    stream.send({ type: 'progress', done: 1, total: 2, symbol: 'GOOGL' });
    stream.send({ type: 'flag', flag: META });
    stream.send({ type: 'progress', done: 2, total: 2, symbol: 'META' });
    stream.send({ type: 'end', scanned: 2, failed: [], as_of: 1_795_190_400, imported_symbols: 1 });
    stream.close();
    await screen.findByText('Scan complete');
    const items = screen.getAllByRole('listitem').filter((item) => item.closest('[aria-label="Flagged stocks"]'));
    expect(within(items.find((item) => item.textContent?.includes('GOOGL'))!).getByRole('img', { name: 'GOOGL: imported prices' })).toBeInTheDocument();
    expect(within(items.find((item) => item.textContent?.includes('META'))!).queryByRole('img')).toBeNull();
    expect(screen.getByText(/^Data as of .* · imported prices for 1 symbol$/)).toBeInTheDocument();
    expect(stream.api.unhandled).toEqual([]);
  });

  it('says no stock meets the criteria after a scan without flags', async () => {
    const stream = mockStream();
    renderScreen(<OptionScannerScreen />);
    await userEvent.click(screen.getByRole('button', { name: 'Start Scanning' }));
    stream.send({ type: 'start', total: 1 });
    stream.send({ type: 'progress', done: 1, total: 1, symbol: 'TSLA' });
    stream.send({ type: 'end', scanned: 1, failed: [], as_of: 1 });
    stream.close();
    await screen.findByText(EMPTY_MESSAGE);
    expect(screen.queryByRole('list', { name: 'Flagged stocks' })).toBeNull();
    expect(stream.api.unhandled).toEqual([]);
  });

  it('reports a stream that ends without its end event, with a retry', async () => {
    const stream = mockStream();
    renderScreen(<OptionScannerScreen />);
    await userEvent.click(screen.getByRole('button', { name: 'Start Scanning' }));
    stream.send({ type: 'start', total: 2 });
    stream.send({ type: 'flag', flag: GOOGL });
    stream.close();
    const alert = await screen.findByText('The scan could not finish');
    expect(screen.getByText('The scan was interrupted before it finished. Please try again.')).toBeInTheDocument();
    // What arrived stays visible.
    expect(cards()).toHaveLength(1);
    await waitFor(() => expect(within(alert.closest('[role="alert"]')!).getByRole('button', { name: 'Retry' })).toBeInTheDocument());
    expect(stream.api.unhandled).toEqual([]);
  });

  it('stops on request', async () => {
    const stream = mockStream();
    renderScreen(<OptionScannerScreen />);
    await userEvent.click(screen.getByRole('button', { name: 'Start Scanning' }));
    stream.send({ type: 'start', total: 4 });
    await screen.findByText('0 of 4');
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await screen.findByText('Scan stopped');
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    expect(stream.api.unhandled).toEqual([]);
  });
});
