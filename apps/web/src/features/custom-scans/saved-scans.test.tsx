import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_RENDER, LIST, NESTED_SAVED, RSI_GROUPS, SAVED, TEMPLATE, renderScans, screenWidth } from './__fixtures__/scans';
import { copyName } from './custom-scans-screen';
import { NESTED_MESSAGE } from './formula-model';

beforeEach(() => screenWidth(true));
afterEach(() => {
  // Notifications live in one store across renders: each test starts without the last one's.
  notifications.clean();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const savedList = () => screen.findByRole('list', { name: 'Saved scans' }, FIRST_RENDER);
const nameInput = () => screen.getByRole('textbox', { name: 'Name' });
const universe = () => screen.getByLabelText('Universe', { selector: 'input' });
const builderFormula = () => screen.getByTestId('builder-formula').textContent;

describe('Custom Scans: saved scans', () => {
  it('lists the saved scans against the limit; Open loads one and Save changes replaces it', async () => {
    const api = renderScans({ 'PUT scans/7': { body: { msg: 'Scan saved.', scan: { ...SAVED, version: 2 } } } });
    const list = await savedList();
    expect(within(list).getAllByRole('listitem').map((item) => item.getAttribute('aria-label'))).toEqual(['Oversold', 'Two lists']);
    expect(screen.getByText('2 of 50')).toBeInTheDocument();
    expect(screen.getByText('Not saved yet. 2 of 50 saved scans.')).toBeInTheDocument();

    await userEvent.click(within(list).getByRole('button', { name: 'Open Oversold' }));
    expect(nameInput()).toHaveValue('Oversold');
    expect(universe()).toHaveValue('All US stocks');
    expect(builderFormula()).toBe('rsi(14) < 25 and close > sma(200)');
    expect(screen.getByText(/^Editing your saved scan “Oversold”\./)).toBeInTheDocument();
    expect(within(within(list).getByRole('listitem', { name: 'Oversold' })).getByText('open')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Scan saved.')).toBeInTheDocument();
    const put = api.calls.find((call) => call.method === 'PUT')!;
    expect(put.path).toBe('scans/7');
    expect(put.body).toEqual({ name: 'Oversold', universe: 'us', conditions: SAVED.conditions });
    // The list is read again after a change.
    await waitFor(() => expect(api.calls.filter((call) => call.method === 'GET' && call.path === 'scans')).toHaveLength(2));
    expect(api.unhandled).toEqual([]);
  });

  it('opens a scan whose nesting the builder cannot show in formula mode, and saves it as its formula', async () => {
    const api = renderScans({ 'PUT scans/8': { body: { msg: 'Scan saved.', scan: NESTED_SAVED } } });
    await userEvent.click(within(await savedList()).getByRole('button', { name: 'Open Two lists' }));
    expect(screen.getByRole('textbox', { name: 'Formula' })).toHaveValue(NESTED_SAVED.formula);
    expect(screen.getByText(NESTED_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Builder' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Scan saved.');
    expect(api.calls.find((call) => call.method === 'PUT')!.body).toEqual({ name: 'Two lists', universe: 'us', formula: NESTED_SAVED.formula });
  });

  it('saves a new scan with its name, then offers Save changes and Save as new', async () => {
    const created = { ...SAVED, id: 9, name: 'My RSI dip', universe: 'sp500' as const, formula: 'rsi(14) < 30', conditions: structuredClone(RSI_GROUPS) };
    const api = renderScans({ 'POST scans': { body: { msg: 'Scan saved.', scan: created } } });
    await savedList();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.type(nameInput(), 'My RSI dip');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Scan saved.')).toBeInTheDocument();
    expect(api.calls.find((call) => call.method === 'POST' && call.path === 'scans')!.body).toEqual({ name: 'My RSI dip', universe: 'sp500', conditions: RSI_GROUPS });
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Save as new' })).toBeEnabled();
  });

  it("shows the server's msg when a save is refused", async () => {
    renderScans({ 'POST scans': { status: 400, body: { msg: 'You have 50 saved scans, the most one user may keep: delete one to save another' } } });
    await savedList();
    await userEvent.type(nameInput(), 'One too many');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('You have 50 saved scans, the most one user may keep: delete one to save another')).toBeInTheDocument();
    expect(screen.getByText('The scan could not be saved.')).toBeInTheDocument();
  });

  it('duplicates a scan as "<name> (copy)" and renames one with its formula kept', async () => {
    const api = renderScans({
      'POST scans': { body: { msg: 'Scan saved.', scan: { ...SAVED, id: 10, name: 'Oversold (copy)' } } },
      'PUT scans/7': { body: { msg: 'Scan saved.', scan: { ...SAVED, name: 'Deep oversold' } } },
    });
    const list = await savedList();
    await userEvent.click(within(list).getByRole('button', { name: 'Duplicate Oversold' }));
    await waitFor(() => expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(1));
    expect(api.calls.find((call) => call.method === 'POST')!.body).toEqual({ name: 'Oversold (copy)', universe: 'us', formula: SAVED.formula });

    await userEvent.click(within(list).getByRole('button', { name: 'Rename Oversold' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename the scan' });
    const newName = within(dialog).getByRole('textbox', { name: 'New name' });
    expect(newName).toHaveValue('Oversold');
    await userEvent.clear(newName);
    await userEvent.type(newName, 'Deep oversold');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls.find((call) => call.method === 'PUT')!.body).toEqual({ name: 'Deep oversold', universe: 'us', formula: SAVED.formula });
    expect(api.unhandled).toEqual([]);
  });

  it('names a duplicate after its scan, numbered when the name is taken, within the limit', () => {
    expect(copyName('Oversold', ['Oversold'])).toBe('Oversold (copy)');
    expect(copyName('Oversold', ['Oversold', 'OVERSOLD (copy)', 'Oversold (copy 2)'])).toBe('Oversold (copy 3)');
    const long = 'x'.repeat(80);
    expect(copyName(long)).toBe(`${'x'.repeat(73)} (copy)`);
    expect(copyName(long, [`${'x'.repeat(73)} (copy)`])).toHaveLength(80);
  });

  it('deletes a scan only once confirmed', async () => {
    const api = renderScans({ 'DELETE scans/7': { body: { msg: 'Scan deleted.' } } });
    const list = await savedList();
    await userEvent.click(within(list).getByRole('button', { name: 'Delete Oversold' }));
    let dialog = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(within(dialog).getByText('Delete the scan “Oversold”? This cannot be undone.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls.filter((call) => call.method === 'DELETE')).toHaveLength(0);

    await userEvent.click(within(list).getByRole('button', { name: 'Delete Oversold' }));
    dialog = await screen.findByRole('dialog', { name: 'Please confirm' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Scan deleted.')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual(['scans/7']);
  });

  it('puts a starter scan in the editor without saving it', async () => {
    const api = renderScans();
    await savedList();
    const starters = screen.getByRole('list', { name: 'Starter scans' });
    const item = within(starters).getByRole('listitem', { name: TEMPLATE.name });
    expect(within(item).getByText(TEMPLATE.formula)).toBeInTheDocument();
    await userEvent.click(within(item).getByRole('button', { name: `Use this scan: ${TEMPLATE.name}` }));
    expect(builderFormula()).toBe('gap_pct <= -2 and change_pct(1) > 0');
    expect(screen.getByRole('group', { name: 'All of (AND), condition 2' })).toBeInTheDocument();
    expect(nameInput()).toHaveValue(TEMPLATE.name);
    expect(universe()).toHaveValue('S&P 500');
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument();
    expect(api.calls.filter((call) => call.method !== 'GET')).toHaveLength(0);
  });

  it('says when the limit is reached and offers no new save', async () => {
    const full = { ...LIST, scans: Array.from({ length: 50 }, (_, i) => ({ ...SAVED, id: i + 1, name: `Scan ${i + 1}` })) };
    renderScans({ 'GET scans': { body: full } });
    await savedList();
    fireEvent.change(nameInput(), { target: { value: 'Fifty-one' } });
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.getByText(/You have 50 of 50 saved scans, the most you can keep: delete one to save a new one\./)).toBeInTheDocument();
  });

  it('says when the list cannot be loaded, and Retry reads it again', async () => {
    let calls = 0;
    renderScans({ 'GET scans': () => (++calls === 1 ? { status: 503, body: { msg: 'The database is not reachable. Try again in a few seconds.' } } : { body: LIST }) });
    expect(await screen.findByText('The database is not reachable. Try again in a few seconds.', {}, FIRST_RENDER)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await savedList()).toBeInTheDocument();
  });
});
