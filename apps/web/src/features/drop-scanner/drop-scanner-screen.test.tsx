import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inTurn, mockApi, type MockAnswer } from '../../test/mock-api';
import { giveElementsABox, renderScreen } from '../../test/render';
import { DropScannerScreen, NO_RESULTS, SCANNING, skippedMessage } from './drop-scanner-screen';

const RESPONSE = {
  results: [
    { symbol: 'NVDA', currentPrice: 180, selectedHigh: 240, selectedLow: null, percentageChange: 25, calculationType: 'drop' },
    { symbol: 'AAPL', currentPrice: 175, selectedHigh: 200, selectedLow: null, percentageChange: 12.5, calculationType: 'drop' },
  ],
  scanned: 4,
  failed: [
    { symbol: 'SQ', msg: 'No price history for SQ.' },
    { symbol: 'XYZ', msg: 'Unknown symbol XYZ.' },
  ],
  stale: false,
  as_of: 1_795_190_400,
};

/** The scan answers its calls in turn (a call past the last is unhandled). */
const mockScan = (...answers: Array<MockAnswer | (() => Promise<MockAnswer>)>) => mockApi({ 'POST scan/drops': inTurn(...answers) });

function renderScanner() {
  const client = new QueryClient();
  return renderScreen(
    <QueryClientProvider client={client}>
      <DropScannerScreen />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  // A wide screen (the table), and boxes for the Select's dropdown (jsdom lays nothing out).
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({ matches: query.includes('min-width'), media: query, addEventListener: () => undefined, removeEventListener: () => undefined }) as unknown as MediaQueryList,
  );
  giveElementsABox();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Drop and Recovery Scanner screen', () => {
  it('has the threshold (default 10) and the Selection (default 30 Day High); Search sends one scan', async () => {
    const api = mockScan({ body: RESPONSE });
    renderScanner();
    expect(screen.getByLabelText('Drop Threshold (%)')).toHaveValue('10%');
    expect(screen.getByLabelText('Selection', { selector: 'input' })).toHaveValue('30 Day High');
    expect(screen.queryByText(NO_RESULTS)).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    const table = await screen.findByRole('table', { name: 'Flagged stocks' });
    expect(api.calls).toHaveLength(1);
    const [call] = api.calls;
    expect(call!.input).toBe('/api/scan/drops');
    expect(call!.method).toBe('POST');
    expect(call!.body).toEqual({ threshold: 10, selection: '30DayHigh' });
    expect(api.unhandled).toEqual([]);

    const cells = within(table)
      .getAllByRole('row')
      .map((row) => within(row).queryAllByRole('cell').map((cell) => cell.textContent));
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Symbol', 'Change', 'Current Price', '30 Day High']);
    expect(cells.slice(1)).toEqual([
      ['NVDA', 'Dropped 25.00%', '180.00', '240.00'],
      ['AAPL', 'Dropped 12.50%', '175.00', '200.00'],
    ]);
    expect(screen.getByText('2 of 4 favorites flagged · 30 Day High, threshold 10%')).toBeInTheDocument();
  });

  it('marks a flag whose figures come from an imported price file, and counts them beside the as-of time', async () => {
    const api = mockScan({ body: { ...RESPONSE, imported_symbols: 1, results: [{ ...RESPONSE.results[0]!, imported: true }, RESPONSE.results[1]!] } });
    renderScanner();
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    const table = await screen.findByRole('table', { name: 'Flagged stocks' });
    const [, nvda, aapl] = within(table).getAllByRole('row');
    expect(within(nvda!).getByRole('img', { name: 'NVDA: imported prices' })).toHaveTextContent('Imported');
    expect(within(aapl!).queryByRole('img')).toBeNull();
    expect(screen.getByText(/^as of .* · imported prices for 1 symbol$/)).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('names the symbols it could not scan on request', async () => {
    const api = mockScan({ body: RESPONSE });
    renderScanner();
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('2 symbols could not be scanned')).toBeInTheDocument();
    const toggle = screen.getByRole('button', { name: 'Show symbols' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    const list = screen.getByRole('list', { name: 'Symbols not scanned' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['SQ: No price history for SQ.', 'XYZ: Unknown symbol XYZ.']);
    expect(screen.getByRole('button', { name: 'Hide symbols' })).toHaveAttribute('aria-expanded', 'true');
    expect(skippedMessage(1)).toBe('1 symbol could not be scanned');
    expect(api.unhandled).toEqual([]);
  });

  it('labels increases green with the low, and shows the empty message only after a search', async () => {
    const api = mockScan(
      { body: { ...RESPONSE, failed: [], results: [{ symbol: 'AMZN', currentPrice: 220, selectedHigh: null, selectedLow: 200, percentageChange: 10, calculationType: 'increase' }] } },
      { body: { ...RESPONSE, results: [], failed: [] } },
    );
    renderScanner();
    await userEvent.click(screen.getByLabelText('Selection', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: '30 Day Low' }));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    const table = await screen.findByRole('table', { name: 'Flagged stocks' });
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Symbol', 'Change', 'Current Price', '30 Day Low']);
    expect(within(table).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['AMZN', 'Increased 10.00%', '220.00', '200.00']);
    expect(within(table).getByText('Increased 10.00%').closest('.mantine-Badge-root')).toHaveStyle({ '--badge-color': 'var(--mantine-color-green-light-color)' });

    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(NO_RESULTS)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('shows the analysing text while it scans', async () => {
    let release: (value: MockAnswer) => void = () => undefined;
    const api = mockScan(() => new Promise<MockAnswer>((resolve) => (release = resolve)));
    renderScanner();
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(SCANNING)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Search' })).toBeDisabled();
    release({ status: 200, body: RESPONSE });
    await waitFor(() => expect(screen.queryByText(SCANNING)).not.toBeInTheDocument());
    expect(api.unhandled).toEqual([]);
  });

  it('logs a failed scan, shows it, and Retry runs the same scan again', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = mockScan({ status: 502, body: { msg: 'The market data provider did not answer.' } }, { body: RESPONSE });
    renderScanner();
    const threshold = screen.getByLabelText('Drop Threshold (%)');
    await userEvent.clear(threshold);
    await userEvent.type(threshold, '5');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('The market data provider did not answer.')).toBeInTheDocument();
    expect(errors).toHaveBeenCalledWith('Error fetching drop scan results:', expect.objectContaining({ message: 'The market data provider did not answer.' }));
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByRole('table', { name: 'Flagged stocks' });
    expect(api.calls.map((call) => call.body)).toEqual([
      { threshold: 5, selection: '30DayHigh' },
      { threshold: 5, selection: '30DayHigh' },
    ]);
    expect(api.unhandled).toEqual([]);
  });

  it('refuses a threshold outside 0–100', async () => {
    const api = mockScan();
    renderScanner();
    const threshold = screen.getByLabelText('Drop Threshold (%)');
    await userEvent.clear(threshold);
    expect(screen.getByText('Enter a number from 0 to 100.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Search' })).toBeDisabled();
    await userEvent.type(threshold, '150');
    await userEvent.tab();
    expect(threshold).toHaveValue('15%');
    expect(api.calls).toHaveLength(0);
  });
});
