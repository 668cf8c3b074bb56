import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AlertRule } from '@signalboard/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mock-api';
import { renderScreen } from '../../test/render';
import { AlertPreferencesCard, CUSTOM_SCAN_TIMING } from './alert-preferences-card';

afterEach(() => {
  vi.unstubAllGlobals();
});

const FAVORITES = [
  { symbol: 'AAPL', description: 'Apple Inc.' },
  { symbol: 'MSFT', description: 'Microsoft Corporation' },
];
const rule = (fields: Partial<AlertRule>): AlertRule => ({
  alert_type: 'PERCENT_DROP',
  stock_symbols: [],
  threshold_value: null,
  is_active: true,
  enable_email: false,
  enable_sms: false,
  targets: [],
  unavailable_symbols: [],
  updated_at: '2026-11-24T10:00:00.000Z',
  ...fields,
});

type Routes = Parameters<typeof mockApi>[0];
function setup(routes: Routes = {}, rules: Partial<Record<string, AlertRule>> = {}) {
  const saved: Record<string, unknown>[] = [];
  const api = mockApi({
    'GET get_user_phone_number': { body: { phoneNumber: '+12223334444', smsEnabled: true } },
    'POST get_user_alert_rules': (_url, init) => ({ body: { data: rules[(JSON.parse(String(init?.body)) as { alert_type: string }).alert_type] ?? null } }),
    'GET get_favorite_stocks': { body: FAVORITES },
    'GET alert_channels/webhooks': { body: { webhooks: [], max: 5 } },
    'POST save_alert_preferences': (_url, init) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      saved.push(body);
      return { body: { msg: 'ok', data: rule({ ...(body as Partial<AlertRule>), targets: (body.targets as AlertRule['targets']) ?? [], updated_at: '2026-11-24T11:00:00.000Z' }) } };
    },
    ...routes,
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderScreen(
    <QueryClientProvider client={client}>
      <AlertPreferencesCard />
    </QueryClientProvider>,
  );
  return { ...api, saved };
}

const status = () => screen.getByRole('status', { name: 'Alert preferences status' });
async function statusIs(text: string, tone: 'success' | 'danger' | 'info') {
  await waitFor(() => expect(status()).toHaveTextContent(text));
  expect(status().textContent).toBe(text);
  expect(status()).toHaveAttribute('data-tone', tone);
}
const typeSelect = () => screen.getByRole('combobox', { name: 'Alert type' });
const choose = (type: string) => fireEvent.change(typeSelect(), { target: { value: type } });
const symbolBox = (name: string) => screen.findByRole('checkbox', { name });
const save = () => userEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('Alert Preferences card', () => {
  it('has a toggle per connected channel for the chosen type, and saves a changed one to that channel', async () => {
    const endpoint = (id: number, kind: 'telegram' | 'push', name: string, types: string[]) => ({
      id, kind, name, url: 'https://t.me/SignalboardBot', topic: null, has_token: false, alert_types: types, enabled: true, state: 'active', disabled_reason: null,
      failing_since: null, last_success_at: null, last_answer: null, also_quiet_hours: false, device_key: null, created_at: '2026-11-01T10:00:00.000Z',
    });
    const chat = endpoint(7, 'telegram', '@jane', ['BITCOIN']);
    const phone = endpoint(8, 'push', 'Chrome on Linux', ['PERCENT_DROP', 'BITCOIN']);
    const api = setup({ 'GET alert_channels/webhooks': { body: { webhooks: [chat, phone], max: 5 } }, 'PUT alert_channels/webhooks/7': { body: { msg: 'saved', webhook: chat } } }, {
      PERCENT_DROP: rule({ stock_symbols: ['AAPL'], threshold_value: 5 }),
    });
    const channels = within(await screen.findByRole('group', { name: 'Channels for this alert type' }));
    expect(channels.getByRole('switch', { name: 'Telegram · @jane' })).not.toBeChecked();
    expect(channels.getByRole('switch', { name: 'Browser push · Chrome on Linux' })).toBeChecked();
    await userEvent.click(channels.getByRole('switch', { name: 'Telegram · @jane' }));
    await save();
    await statusIs('Percent Drop alert preferences saved successfully!', 'success');
    const puts = api.calls.filter((call) => call.method === 'PUT');
    expect(puts.map((call) => [call.path, call.body])).toEqual([['alert_channels/webhooks/7', { alert_types: ['PERCENT_DROP', 'BITCOIN'] }]]);
  });

  it('says when a rule was paused for firing too often, and not otherwise', async () => {
    setup({}, { PERCENT_DROP: rule({ is_active: false, stock_symbols: ['AAPL'], threshold_value: 5, auto_paused_at: '2026-11-24T10:05:00.000Z' }) });
    expect(await screen.findByTestId('alert-auto-paused')).toHaveTextContent('This rule was paused: it fired more than 15 times in 3 minutes. Save it to turn it on again.');
    choose('LEVEL_SYSTEM');
    await symbolBox('AAPL');
    expect(screen.queryByTestId('alert-auto-paused')).toBeNull();
  });


  it('offers the spec’s ten types by name, then Custom Scan, and each type’s symbols', async () => {
    setup();
    const options = within(typeSelect()).getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual([
      'Percent Drop', 'Current Price', 'Cryptocurrency', 'Alert New Options', 'General Market News',
      'TRUMP & MAGNIFICENT 7 BY ALPHA NEWS', 'TRUMP & MAGNIFICENT 7 BY GNEWS', 'Level System',
      'Stock Drop Best of S&P 500', 'Stock Drop Alerts Swing Trade Scanner', 'Custom Scan',
    ]);
    await symbolBox('AAPL');
    expect(screen.getByRole('checkbox', { name: 'MSFT' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Drop Percentage' })).toHaveValue('5%');
    expect(screen.getByRole('switch', { name: 'Enabled' })).not.toBeChecked();
    expect(screen.getByTestId('alert-symbol-list')).toHaveStyle({ maxHeight: '200px', overflowY: 'auto' });

    choose('BITCOIN');
    for (const coin of ['BTC', 'ETH', 'XRP', 'SOL', 'ADA', 'DOGE']) expect(await symbolBox(coin)).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Drop Percentage' })).toBeNull();
    choose('OPTION_ALERT');
    expect(await symbolBox('SPY')).toBeInTheDocument();
    choose('GENERAL_NEWS');
    expect(await symbolBox('Economy Monetary')).toBeInTheDocument();
    choose('NEWS+TRUMP+MAG7+GNEWS');
    expect(await symbolBox('TRUMP')).toBeInTheDocument();
    choose('STOCK_DROP_ALERTS');
    expect(await screen.findByText(/there are no symbols to choose/)).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('checks symbols and the drop percentage before saving, then saves with the spec’s messages', async () => {
    const api = setup();
    await symbolBox('AAPL');
    await save();
    await statusIs('Please select at least one symbol for alerts.', 'danger');
    await userEvent.click(screen.getByRole('checkbox', { name: 'AAPL' }));
    const threshold = screen.getByRole('textbox', { name: 'Drop Percentage' });
    await userEvent.clear(threshold);
    await userEvent.type(threshold, '150');
    await save();
    await statusIs('Please enter a valid Drop Percentage (1-100).', 'danger');
    await userEvent.clear(threshold);
    await userEvent.type(threshold, '7');
    await userEvent.click(screen.getByRole('switch', { name: 'E-mail alerts' }));
    await userEvent.click(screen.getByRole('switch', { name: 'Enabled' }));
    expect(api.saved).toHaveLength(0);
    await save();
    await statusIs('Percent Drop alert preferences saved successfully!', 'success');
    expect(api.saved).toEqual([
      { alert_type: 'PERCENT_DROP', stock_symbols: ['AAPL'], threshold_value: 7, enable_sms: false, enable_email: true, is_active: true },
    ]);
  });

  it('says "You can select up to 10 symbols for alerts." past ten', async () => {
    const api = setup();
    choose('OPTION_ALERT');
    await symbolBox('SPY');
    // fireEvent, not userEvent: eleven simulated pointer sequences take seconds on a busy machine.
    for (const symbol of ['SPY', 'NVDA', 'TSLA', 'QQQ', 'AAPL', 'AMZN', 'META', 'MSFT', 'GOOGL', 'AMD', 'NFLX']) {
      fireEvent.click(screen.getByRole('checkbox', { name: symbol }));
    }
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'NFLX' })).toBeChecked());
    await save();
    await statusIs('You can select up to 10 symbols for alerts.', 'danger');
    expect(api.saved).toHaveLength(0);
  });

  it('says which symbols were already past their threshold at the save: those wait for a new crossing', async () => {
    const notice = 'AAPL is already 6.2% below the previous close: the alert fires on the next drop';
    setup({
      'POST save_alert_preferences': (_url, init) => {
        const body = JSON.parse(String(init?.body)) as Partial<AlertRule>;
        return { body: { msg: 'ok', data: rule({ ...body, targets: [], updated_at: '2026-11-24T11:00:00.000Z' }), notices: [notice] } };
      },
    });
    fireEvent.click(await symbolBox('AAPL'));
    await save();
    await statusIs('Percent Drop alert preferences saved successfully!', 'success');
    expect(await screen.findByText(notice)).toBeInTheDocument();
    // Another type: the notice was about the rule just saved.
    choose('CURRENT_PRICE');
    await waitFor(() => expect(screen.queryByText(notice)).not.toBeInTheDocument());
  });

  it('asks a target price per chosen coin and saves it with its direction', async () => {
    const api = setup();
    choose('BITCOIN');
    await userEvent.click(await symbolBox('ETH'));
    await save();
    await statusIs('Please enter a target price for ETH.', 'danger');
    await userEvent.type(screen.getByRole('textbox', { name: 'Target price for ETH' }), '4200.5');
    fireEvent.change(screen.getByRole('combobox', { name: 'Direction for ETH' }), { target: { value: 'below' } });
    await save();
    await statusIs('Cryptocurrency alert preferences saved successfully!', 'success');
    expect(api.saved[0]).toMatchObject({ alert_type: 'BITCOIN', stock_symbols: ['ETH'], threshold_value: null, targets: [{ symbol: 'ETH', price: 4200.5, direction: 'below' }] });
  });

  it('loads the saved rule of the chosen type', async () => {
    setup({}, { CURRENT_PRICE: rule({ alert_type: 'CURRENT_PRICE', stock_symbols: ['MSFT'], enable_sms: true, is_active: true, targets: [{ symbol: 'MSFT', price: 500, direction: 'above' }] }) });
    await symbolBox('AAPL');
    choose('CURRENT_PRICE');
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'MSFT' })).toBeChecked());
    expect(screen.getByRole('checkbox', { name: 'AAPL' })).not.toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Target price for MSFT' })).toHaveValue('500');
    expect(screen.getByRole('switch', { name: 'SMS alerts' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Enabled' })).toBeChecked();
  });

  it('shows "Error: " plus the server’s msg, and the load failures', async () => {
    setup({
      'POST save_alert_preferences': { status: 400, body: { msg: 'Please verify a phone number to receive SMS alerts.' } },
      'GET get_favorite_stocks': { status: 500, body: { msg: 'down' } },
    });
    await statusIs('Could not load favorite stocks for alert selection.', 'danger');
    choose('BITCOIN');
    await userEvent.click(await symbolBox('BTC'));
    await userEvent.type(screen.getByRole('textbox', { name: 'Target price for BTC' }), '90000');
    await save();
    await statusIs('Error: Please verify a phone number to receive SMS alerts.', 'danger');
  });

  it('says when a type’s settings cannot be loaded', async () => {
    setup({ 'POST get_user_alert_rules': { status: 500, body: { msg: 'down' } } });
    choose('LEVEL_SYSTEM');
    await statusIs('Could not load Level System alert settings.', 'danger');
  });

  it('shows "Saving alert preferences..." while saving and "Failed to save alert preferences." without a msg', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    setup({ 'POST save_alert_preferences': async () => (await gate, { status: 500 }) });
    choose('STOCK_DROP_ALERTS');
    await screen.findByText(/there are no symbols to choose/);
    await save();
    await statusIs('Saving alert preferences...', 'info');
    expect(screen.getByRole('button', { name: 'Saving...' })).toBeDisabled();
    release();
    await statusIs('Error: The server answered 500.', 'danger');
  });

  describe('Custom Scan', () => {
    const scan = (id: number, name: string, formula: string, universe = 'sp500') => ({
      id,
      name,
      universe,
      formula,
      conditions: null,
      version: 1,
      created_at: '2026-11-20T10:00:00.000Z',
      updated_at: '2026-11-20T10:00:00.000Z',
    });
    const SCANS = [scan(12, 'Oversold in an uptrend', 'rsi(14) < 30 and close > sma(200)'), scan(15, 'Crypto movers', 'change_pct(1) > 5', 'crypto')];
    const scansRoute = (scans: unknown[]) => ({ 'GET scans': { body: { scans, templates: [], limit: 50 } } });

    it('offers the user’s saved scans by name and saves their ids', async () => {
      const api = setup(scansRoute(SCANS));
      choose('CUSTOM_SCAN');
      const oversold = await symbolBox('Oversold in an uptrend');
      expect(screen.getByRole('group', { name: 'Saved scans' })).toHaveAccessibleDescription(`Up to 10; 0 chosen. ${CUSTOM_SCAN_TIMING}`);
      expect(screen.getByText('S&P 500 · rsi(14) < 30 and close > sma(200)')).toBeInTheDocument();
      expect(screen.getByText('Crypto · change_pct(1) > 5')).toBeInTheDocument();
      await save();
      await statusIs('Please select at least one saved scan for alerts.', 'danger');
      fireEvent.click(oversold);
      fireEvent.click(screen.getByRole('checkbox', { name: 'Crypto movers' }));
      await userEvent.click(screen.getByRole('switch', { name: 'E-mail alerts' }));
      await userEvent.click(screen.getByRole('switch', { name: 'Enabled' }));
      await save();
      await statusIs('Custom Scan alert preferences saved successfully!', 'success');
      expect(api.saved).toEqual([{ alert_type: 'CUSTOM_SCAN', stock_symbols: ['12', '15'], threshold_value: null, enable_sms: false, enable_email: true, is_active: true }]);
      expect(api.unhandled).toEqual([]);
    });

    it('keeps a deleted scan of the rule visible as no longer available, so it can be unticked', async () => {
      setup(scansRoute(SCANS), { CUSTOM_SCAN: rule({ alert_type: 'CUSTOM_SCAN', stock_symbols: ['12', '99'], unavailable_symbols: ['99'] }) });
      choose('CUSTOM_SCAN');
      await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Oversold in an uptrend' })).toBeChecked());
      const gone = screen.getByRole('checkbox', { name: 'Scan 99' });
      expect(gone).toBeChecked();
      expect(screen.getByText('No longer available')).toBeInTheDocument();
      await save();
      await statusIs('Scan 99 is not one of your saved scans: Custom Scan alerts watch your own scans only.', 'danger');
    });

    it('links to the Custom Scans screen when the user has no saved scan', async () => {
      setup(scansRoute([]));
      choose('CUSTOM_SCAN');
      const link = await screen.findByRole('link', { name: 'Build and save one on the Custom Scans screen' });
      expect(link).toHaveAttribute('href', '/dashboard/scans');
      expect(screen.queryByRole('checkbox')).toBeNull();
      await userEvent.click(link);
      expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    });

    it('says when the saved scans cannot be loaded', async () => {
      setup({ 'GET scans': { status: 500, body: { msg: 'down' } } });
      choose('CUSTOM_SCAN');
      await statusIs('Could not load your saved scans for alert selection.', 'danger');
    });
  });
});
