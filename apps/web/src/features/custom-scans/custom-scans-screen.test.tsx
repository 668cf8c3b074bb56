import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inTurn } from '../../test/mock-api';
import { FIRST_RENDER, RSI_GROUPS, RUN_ANSWER, renderScans, screenWidth } from './__fixtures__/scans';
import { NESTED_MESSAGE } from './formula-model';

beforeEach(() => screenWidth(true));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const group = (name: string) => screen.getByRole('group', { name });
const builderFormula = () => screen.getByTestId('builder-formula').textContent;
const formulaBox = () => screen.getByRole('textbox', { name: 'Formula' });
const runButton = () => screen.getByRole('button', { name: 'Run scan' });

async function choose(container: HTMLElement, label: string, option: string) {
  await userEvent.click(within(container).getByLabelText(label, { selector: 'input' }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

/** Types a whole formula at once (paste: the parser runs on each change either way). */
async function typeFormula(text: string) {
  await userEvent.clear(formulaBox());
  fireEvent.change(formulaBox(), { target: { value: text } });
}

describe('Custom Scans: builder and formula', () => {
  it('starts with one row and its formula; editing rows changes the formula', async () => {
    const api = renderScans();
    const first = await screen.findByRole('group', { name: 'All of (AND), condition 1' }, FIRST_RENDER);
    expect(within(first).getByLabelText('Field', { selector: 'input' })).toHaveValue('RSI');
    expect(within(first).getByRole('textbox', { name: 'Period' })).toHaveValue('14');
    expect(within(first).getByLabelText('Operator', { selector: 'input' })).toHaveValue('< less than');
    expect(builderFormula()).toBe('rsi(14) < 30');

    const value = within(first).getByRole('textbox', { name: 'Value' });
    await userEvent.clear(value);
    await userEvent.type(value, '25');
    expect(builderFormula()).toBe('rsi(14) < 25');

    expect(api.unhandled).toEqual([]);
  });

  it("builds a cross in the Any of group against another field, with its sessions", async () => {
    renderScans();
    await screen.findByRole('group', { name: 'All of (AND), condition 1' }, FIRST_RENDER);
    await userEvent.click(screen.getByRole('button', { name: 'Add condition to Any of (OR)' }));
    const any = group('Any of (OR), condition 1');
    await choose(any, 'Field', 'Price');
    await choose(any, 'Operator', 'crosses above');
    await choose(any, 'Compare with', 'another field');
    await choose(any, 'Other field', 'SMA');
    fireEvent.change(within(any).getByRole('textbox', { name: 'Within (sessions)' }), { target: { value: '3' } });
    expect(builderFormula()).toBe('rsi(14) < 30 and close crosses above sma(50) within 3');
  });

  it('builds a text list in the None of group, and a removed row leaves the formula', async () => {
    renderScans();
    await screen.findByRole('group', { name: 'All of (AND), condition 1' }, FIRST_RENDER);
    await userEvent.click(screen.getByRole('button', { name: 'Add condition to None of (NOT)' }));
    const none = group('None of (NOT), condition 1');
    await choose(none, 'Field', 'Sector');
    await choose(none, 'Operator', 'in list');
    fireEvent.change(within(none).getByRole('textbox', { name: 'Values (separated by commas)' }), { target: { value: 'Utilities, Energy' } });
    expect(builderFormula()).toBe('rsi(14) < 30 and not sector in ("Utilities", "Energy")');
    await userEvent.click(within(none).getByRole('button', { name: 'Remove None of (NOT), condition 1' }));
    expect(builderFormula()).toBe('rsi(14) < 30');
  });

  it('formula mode re-parses as the user types: the rows follow, a mistake shows where it is, a nesting the groups cannot show stays text', async () => {
    renderScans();
    await screen.findByRole('group', { name: 'All of (AND), condition 1' }, FIRST_RENDER);
    await userEvent.click(screen.getByRole('tab', { name: 'Formula' }));
    expect(formulaBox()).toHaveValue('rsi(14) < 30');

    await typeFormula('rsi < 30 and (close > sma(200) or rvol >= 2) and not sector = "Utilities"');
    expect(screen.getByText('Shown as 4 conditions in the builder.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Builder' }));
    expect(within(group('Any of (OR), condition 2')).getByLabelText('Field', { selector: 'input' })).toHaveValue('Relative volume');
    expect(within(group('Any of (OR), condition 1')).getByLabelText('Other field', { selector: 'input' })).toHaveValue('SMA');
    expect(within(group('Any of (OR), condition 1')).getByRole('textbox', { name: "Other field's period" })).toHaveValue('200');
    expect(within(group('None of (NOT), condition 1')).getByRole('textbox', { name: 'Value' })).toHaveValue('Utilities');
    expect(builderFormula()).toBe('rsi(14) < 30 and (close > sma(200) or rvol >= 2) and not sector = "Utilities"');

    await userEvent.click(screen.getByRole('tab', { name: 'Formula' }));
    await typeFormula('rsi(14) < 30 and rsx > 2');
    expect(formulaBox()).toHaveAccessibleDescription(expect.stringContaining('Unknown field "rsx" at position 17 (did you mean rsi?)'));
    expect(formulaBox()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('tab', { name: 'Builder' })).toBeDisabled();

    await typeFormula('(rsi(14) < 30 or rvol >= 2) and (close > 5 or gap_pct < -2)');
    expect(screen.getByText(NESTED_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Builder' })).toBeDisabled();
    expect(screen.getByRole('tab', { name: 'Formula' })).toHaveAttribute('aria-selected', 'true');
  });
});

describe('Custom Scans: runs', () => {
  it('sends the builder groups with the universe and the as-of date, and shows the answer sortable', async () => {
    const api = renderScans({ 'POST scans/run': { body: RUN_ANSWER } });
    await screen.findByRole('group', { name: 'All of (AND), condition 1' }, FIRST_RENDER);
    await choose(document.body, 'Universe', 'All US stocks');
    fireEvent.change(screen.getByLabelText('Run as of (optional)'), { target: { value: '2026-06-01' } });
    await userEvent.click(runButton());

    const table = await screen.findByRole('table', { name: 'Matching symbols' });
    expect(api.callsTo('scans/run').map((call) => [call.method, call.body])).toEqual([['POST', { universe: 'us', conditions: RSI_GROUPS, as_of: '2026-06-01' }]]);
    expect(screen.getByText('3 matches of 5 symbols')).toBeInTheDocument();
    expect(screen.getByText('as of Nov 20, 2026 · source Dataset')).toBeInTheDocument();
    expect(screen.getByText('1 symbol has no daily bars and was not scanned')).toBeInTheDocument();
    const rows = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Symbol', 'Name', 'Price', 'Change %', 'RSI(14)', 'Chart']);
    expect(rows()).toEqual([
      ['MSFT', 'Microsoft Corporation', '400.00', '+0.50%', '25.10', 'Details'],
      ['AAPL', 'Apple Inc.', '175.00', '−1.25%', '28.44', 'Details'],
      ['NVDA', 'NVIDIA Corporation', '180.00', 'N/A', 'N/A', 'Details'],
    ]);

    const priceHeader = within(table).getByRole('columnheader', { name: 'Price' });
    expect(priceHeader).toHaveAttribute('aria-sort', 'none');
    await userEvent.click(within(priceHeader).getByRole('button', { name: 'Price' }));
    expect(priceHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(rows().map((row) => row[0])).toEqual(['AAPL', 'NVDA', 'MSFT']);
    await userEvent.click(within(priceHeader).getByRole('button', { name: 'Price' }));
    expect(priceHeader).toHaveAttribute('aria-sort', 'descending');
    expect(rows().map((row) => row[0])).toEqual(['MSFT', 'NVDA', 'AAPL']);
    const rsiHeader = within(table).getByRole('columnheader', { name: 'RSI(14)' });
    await userEvent.click(within(rsiHeader).getByRole('button', { name: 'RSI(14)' }));
    expect(rsiHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(priceHeader).toHaveAttribute('aria-sort', 'none');
    // Missing values last.
    expect(rows().map((row) => row[0])).toEqual(['MSFT', 'AAPL', 'NVDA']);

    await userEvent.click(screen.getByRole('button', { name: 'Show symbols' }));
    expect(screen.getByText('SQ')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('exports exactly the table, in its order, as CSV', async () => {
    const created: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn((blob: Blob) => (created.push(blob), 'blob:csv')), revokeObjectURL: vi.fn() }));
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderScans({ 'POST scans/run': { body: RUN_ANSWER } });
    await userEvent.click(await screen.findByRole('button', { name: 'Run scan' }, FIRST_RENDER));
    const table = await screen.findByRole('table', { name: 'Matching symbols' });
    await userEvent.click(within(within(table).getByRole('columnheader', { name: 'Change %' })).getByRole('button'));
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(created).toHaveLength(1);
    const text = await created[0]!.text();
    expect(text).toBe(
      ['Symbol,Name,Price,Change %,RSI(14),Imported prices', 'AAPL,Apple Inc.,175,-1.25,28.44,no', 'MSFT,Microsoft Corporation,400,0.5,25.1,no', 'NVDA,NVIDIA Corporation,180,,,no', ''].join('\r\n'),
    );
  });

  it('marks the rows whose figures come from imported price files, in the header, the table, the details and the CSV', async () => {
    const created: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn((blob: Blob) => (created.push(blob), 'blob:csv')), revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const answer = { ...RUN_ANSWER, source: 'simulated', imported_symbols: 2, rows: RUN_ANSWER.rows.map((row) => (row.symbol === 'NVDA' ? row : { ...row, imported: true as const })) };
    const chart = { symbol: 'AAPL', source: 'simulated', imported: true, as_of: '2026-11-20', bars: [{ date: '2026-11-20', open: 174, high: 176, low: 173, close: 175, volume: 1000 }] };
    renderScans({ 'POST scans/run': { body: answer }, 'GET scans/chart': { body: chart } });
    await userEvent.click(await screen.findByRole('button', { name: 'Run scan' }, FIRST_RENDER));
    const table = await screen.findByRole('table', { name: 'Matching symbols' });
    expect(screen.getByText('as of Nov 20, 2026 · source Simulated market, imported prices for 2 symbols')).toBeInTheDocument();
    const rowOf = (symbol: string) => within(table).getAllByRole('row').find((row) => within(row).queryAllByRole('cell')[0]?.textContent?.startsWith(symbol))!;
    expect(within(rowOf('MSFT')).getByRole('img', { name: 'MSFT: imported prices' })).toHaveTextContent('Imported');
    expect(within(rowOf('AAPL')).getByRole('img', { name: 'AAPL: imported prices' })).toBeInTheDocument();
    expect(within(rowOf('NVDA')).queryByRole('img', { name: /imported prices/ })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect((await created[0]!.text()).split('\r\n').map((line) => line.split(',').at(-1))).toEqual(['Imported prices', 'yes', 'yes', 'no', '']);

    await userEvent.click(within(rowOf('AAPL')).getByRole('button', { name: 'Details of AAPL' }));
    expect(await screen.findByText('Apple Inc. · as of Nov 20, 2026 · source Simulated market, imported prices')).toBeInTheDocument();
  });

  it('sends the formula as typed in formula mode', async () => {
    const api = renderScans({ 'POST scans/run': { body: RUN_ANSWER } });
    await screen.findByRole('group', { name: 'All of (AND), condition 1' }, FIRST_RENDER);
    await userEvent.click(screen.getByRole('tab', { name: 'Formula' }));
    await typeFormula('(rsi < 30 or rvol >= 2) and (close > 5 or gap_pct < -2)');
    await userEvent.click(runButton());
    await screen.findByRole('table', { name: 'Matching symbols' });
    expect(api.callsTo('scans/run')[0]!.body).toEqual({ universe: 'sp500', formula: '(rsi < 30 or rvol >= 2) and (close > 5 or gap_pct < -2)' });
  });

  it('sends nothing while a row is incomplete or the formula has a mistake, and says why', async () => {
    const api = renderScans();
    await screen.findByRole('group', { name: 'All of (AND), condition 1' }, FIRST_RENDER);
    await userEvent.click(screen.getByRole('button', { name: 'Add condition to All of (AND)' }));
    await userEvent.click(runButton());
    expect(screen.getByRole('alert')).toHaveTextContent('1 condition is not complete: see the rows marked in red.');
    expect(group('All of (AND), condition 2')).toHaveAccessibleDescription('Enter a value.');
    await userEvent.click(screen.getByRole('tab', { name: 'Formula' }));
    await typeFormula('rsi(14) <');
    await userEvent.click(runButton());
    expect(screen.getByRole('alert')).toHaveTextContent('The formula has a mistake: Expected a number or a field');
    expect(api.callsTo('scans/run')).toHaveLength(0);
  });

  it("shows the server's msg when the run fails, and Retry sends the same run", async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = renderScans({
      'POST scans/run': inTurn({ status: 400, body: { msg: 'as_of must be a session of the source (no bars before 2024-11-20)' } }, { body: { ...RUN_ANSWER, rows: [], matches: 0, missing: [] } }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Run scan' }, FIRST_RENDER));
    expect(await screen.findByText('as_of must be a session of the source (no bars before 2024-11-20)')).toBeInTheDocument();
    expect(screen.getByText('The scan could not be run.')).toBeInTheDocument();
    expect(errors).toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No symbol matches these conditions as of Nov 20, 2026.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    const bodies = api.callsTo('scans/run').map((call) => call.body);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]);
  });

  it('sends the chosen universe, and points at the WatchList when the favourites are empty', async () => {
    const api = renderScans({ 'POST scans/run': { body: { ...RUN_ANSWER, universe: 'favorites', as_of: null, universe_size: 0, evaluated: 0, missing: [], matches: 0, rows: [] } } });
    await screen.findByRole('group', { name: 'All of (AND), condition 1' }, FIRST_RENDER);
    await choose(document.body, 'Universe', 'My favorites');
    await userEvent.click(runButton());
    expect(await screen.findByText('No symbol of this universe had daily bars to scan.')).toBeInTheDocument();
    expect(screen.getByText('0 matches of 0 symbols')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'WatchList' })).toHaveAttribute('href', '/dashboard/symbollookup');
    expect(api.callsTo('scans/run')[0]!.body).toMatchObject({ universe: 'favorites' });
  });

  it('shows the running state and keeps Run busy meanwhile', async () => {
    let release: () => void = () => undefined;
    renderScans({ 'POST scans/run': () => new Promise((resolve) => (release = () => resolve({ body: RUN_ANSWER }))) });
    await userEvent.click(await screen.findByRole('button', { name: 'Run scan' }, FIRST_RENDER));
    expect(await screen.findByText('Running the scan...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Running...' })).toBeDisabled();
    release();
    await waitFor(() => expect(screen.queryByText('Running the scan...')).not.toBeInTheDocument());
  });

  it('lists the matches as cards on a phone, sorted with a Sort by choice', async () => {
    vi.restoreAllMocks();
    screenWidth(false);
    renderScans({ 'POST scans/run': { body: RUN_ANSWER } });
    await userEvent.click(await screen.findByRole('button', { name: 'Run scan' }, FIRST_RENDER));
    const list = await screen.findByRole('list', { name: 'Matching symbols' });
    expect(within(list).getAllByRole('listitem').map((item) => item.getAttribute('aria-label'))).toEqual(['MSFT', 'AAPL', 'NVDA']);
    await choose(document.body, 'Sort by', 'Change %, highest first');
    expect(within(list).getAllByRole('listitem').map((item) => item.getAttribute('aria-label'))).toEqual(['MSFT', 'AAPL', 'NVDA']);
    await choose(document.body, 'Sort by', 'Price, lowest first');
    expect(within(list).getAllByRole('listitem').map((item) => item.getAttribute('aria-label'))).toEqual(['AAPL', 'NVDA', 'MSFT']);
    expect(within(within(list).getByRole('listitem', { name: 'AAPL' })).getByText('−1.25%')).toBeInTheDocument();
  });
});
