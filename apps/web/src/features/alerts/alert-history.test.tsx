import type { AlertHistoryItem } from '@signalboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStorage } from '../../auth/token-storage';
import { mockApi } from '../../test/mock-api';
import { renderRoutes } from '../../test/render';
import { AlertSettingsScreen } from './alert-settings-screen';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

type Routes = Parameters<typeof mockApi>[0];

const DROP: AlertHistoryItem = {
  id: 7,
  fired_at: '2026-11-02T19:05:00.000Z',
  alert_type: 'PERCENT_DROP',
  type_name: 'Percent Drop',
  symbol: 'AAPL',
  message: 'AAPL −5.3% to 212.40 (prev close 224.30) · 14:05 ET',
  email_subject: 'AAPL alert',
  rule: { stock_symbols: ['AAPL', 'MSFT'], threshold_value: 5, enable_sms: true, enable_email: true, is_active: true },
  data: { price: 212.4, previousClose: 224.3, changePercent: -5.3, source: 'Simulated market', asOf: '2026-11-02T19:04:58.000Z' },
  deliveries: [
    {
      channel: 'sms',
      endpoint: null,
      endpoint_kind: null,
      status: 'delivered',
      reason: null,
      attempts: 2,
      possibly_duplicate: true,
      updated_at: '2026-11-02T19:05:03.000Z',
      steps: [
        { status: 'queued', reason: null, at: '2026-11-02T19:05:00.000Z' },
        { status: 'sent', reason: null, at: '2026-11-02T19:05:01.000Z' },
        { status: 'delivered', reason: null, at: '2026-11-02T19:05:03.000Z' },
      ],
    },
    { channel: 'email', endpoint: null, endpoint_kind: null, status: 'suppressed', reason: 'quiet_hours', attempts: 0, possibly_duplicate: false, updated_at: '2026-11-02T19:05:00.000Z', steps: [] },
  ],
};
const SAVED: AlertHistoryItem = {
  ...DROP,
  id: 8,
  fired_at: '2026-11-03T15:00:00.000Z',
  alert_type: 'SAVED_OPTION_TRADE',
  type_name: 'Saved option trade',
  symbol: 'NVDA',
  message: 'NVDA 2026-12-19 150C hit its target',
  rule: { option_chain_id: 'opt.NVDA.1' },
  data: { price: 5.33, source: 'Simulated market', asOf: '2026-11-03T15:00:00.000Z' },
  deliveries: [{ channel: 'email', endpoint: null, endpoint_kind: null, status: 'failed', reason: 'hard_bounce', attempts: 1, possibly_duplicate: false, updated_at: '2026-11-03T15:00:01.000Z', steps: [] }],
};

const page = (items: AlertHistoryItem[], extra: Record<string, unknown> = {}) => ({ body: { data: { items, total: items.length, page: 1, limit: 20, ...extra } } });
const bodies: Record<string, unknown>[] = [];

function setup(history: Routes[string], path = '/dashboard/alert?tab=history', routes: Routes = {}) {
  bodies.length = 0;
  const api = mockApi({
    'POST get_alert_history': typeof history === 'function' ? history : (_url, init) => (bodies.push(JSON.parse(String(init?.body))), history),
    'GET get_user_phone_number': { body: {} },
    'POST get_user_alert_rules': { body: { data: null } },
    'GET get_favorite_stocks': { body: [] },
    'GET alert_channels/webhooks': { body: { webhooks: [], max: 5 } },
    'GET get_alert_delivery_settings': {
      body: {
        time_zone: 'America/New_York',
        sms_quiet_hours: { enabled: true, start: '21:00', end: '08:00' },
        email_quiet_hours: { enabled: false, start: '21:00', end: '08:00' },
        paused: false,
        saved: false,
        last_delivery: { sms: null, email: null },
      },
    },
    ...routes,
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = renderRoutes(
    [
      {
        path: '/dashboard/alert',
        element: (
          <QueryClientProvider client={client}>
            <AlertSettingsScreen />
          </QueryClientProvider>
        ),
      },
    ],
    path,
  );
  return { api, router: result.router };
}

const lastBody = () => bodies.at(-1)!;

describe('Alert System: tabs', () => {
  it('opens on Settings, and the Alert History tab puts ?tab=history in the URL', async () => {
    const { api, router } = setup(page([]), '/dashboard/alert');
    expect(screen.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual(['SMS Verification', 'Alert Preferences', 'Delivery Settings', 'Channels']);
    expect(api.callsTo('get_alert_history')).toHaveLength(0);
    await userEvent.click(screen.getByRole('tab', { name: 'Alert History' }));
    expect(router.state.location.search).toBe('?tab=history');
    expect(await screen.findByText('No alerts have fired yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Settings' }));
    expect(router.state.location.search).toBe('');
    expect(await screen.findByRole('heading', { level: 2, name: 'SMS Verification' })).toBeInTheDocument();
  });
});

describe('Alert History', () => {
  it('shows the loading state, then the empty sentence; asks for the first page in the browser zone', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    setup(async (_url, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      await gate;
      return page([]);
    });
    expect(await screen.findByText('Loading alert history...')).toBeInTheDocument();
    release();
    expect(await screen.findByText('No alerts have fired yet.')).toBeInTheDocument();
    expect(lastBody()).toEqual({ page: 1, limit: 20, time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone });
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('names the saved scan a Custom Scan alert fired for, not its id', async () => {
    const scanAlert: AlertHistoryItem = {
      ...DROP,
      id: 9,
      alert_type: 'CUSTOM_SCAN',
      type_name: 'Custom Scan',
      symbol: 'NVDA, AMD',
      message: 'New in "Oversold": NVDA 180.20, AMD 150.10 | rsi(14) < 30 · Simulated market 2026-11-02 close',
      rule: { stock_symbols: ['12'], enable_sms: false, enable_email: true, is_active: true, scan: { id: 12, name: 'Oversold', formula: 'rsi(14) < 30' } },
      data: { scan_id: 12, session: '2026-11-02', source: 'Simulated market', asOf: '2026-11-02T21:00:00.000Z' },
      deliveries: [],
    };
    setup(page([scanAlert]));
    const card = within(await screen.findByRole('article', { name: 'Custom Scan alert for NVDA, AMD' }));
    expect(card.getByText(scanAlert.message)).toBeInTheDocument();
    expect(card.getByText(/scan "Oversold": rsi\(14\) < 30 · SMS off · e-mail on/)).toBeInTheDocument();
  });

  it('lists each alert with its message, data, rule and each channel status, reason and timeline', async () => {
    setup(page([SAVED, DROP]));
    const drop = await screen.findByRole('article', { name: 'Percent Drop alert for AAPL' });
    const card = within(drop);
    expect(card.getByText(DROP.message)).toBeInTheDocument();
    const fact = (text: string) => card.getByText((_content, element) => element?.tagName === 'P' && element.textContent === text);
    expect(fact('Price: 212.40')).toBeInTheDocument();
    expect(fact('Prev close: 224.30')).toBeInTheDocument();
    expect(fact('Change: −5.30%')).toBeInTheDocument();
    expect(fact('Source: Simulated market')).toBeInTheDocument();
    expect(fact(`As of: ${new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' }).format(new Date(DROP.data.asOf as string))}`)).toBeInTheDocument();
    expect(card.getByText(/symbols AAPL, MSFT · threshold 5% · SMS on · e-mail on/)).toBeInTheDocument();
    expect(drop.querySelector('time')).toHaveAttribute('datetime', DROP.fired_at);
    expect(card.getByText('Delivered')).toBeInTheDocument();
    expect(card.getByText('Possibly sent twice')).toBeInTheDocument();
    expect(card.getByText('2 attempts')).toBeInTheDocument();
    expect(card.getByText('Suppressed')).toBeInTheDocument();
    expect(card.getByText('Held: quiet hours')).toBeInTheDocument();

    expect(card.queryByRole('list', { name: 'SMS delivery timeline' })).toBeNull();
    const toggle = card.getByRole('button', { name: 'Show timeline of the SMS delivery' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    const timeline = card.getByRole('list', { name: 'SMS delivery timeline' });
    expect(within(timeline).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringContaining('Queued'),
      expect.stringContaining('Sent'),
      expect.stringContaining('Delivered'),
    ]);
    expect(card.getByRole('button', { name: 'Hide timeline of the SMS delivery' })).toHaveAttribute('aria-expanded', 'true');

    const saved = within(screen.getByRole('article', { name: 'Saved option trade alert for NVDA' }));
    expect(saved.getByText('Failed')).toBeInTheDocument();
    expect(saved.getByText('Failed: the e-mail address bounced')).toBeInTheDocument();
    expect(saved.getByText(/option_chain_id opt\.NVDA\.1/)).toBeInTheDocument();
    expect(screen.getByText('Showing 1–2 of 2 alerts')).toBeInTheDocument();
  });

  it('names a webhook, Discord or ntfy delivery by its kind and endpoint, or as deleted, beside the SMS and e-mail ones', async () => {
    const webhookAlert: AlertHistoryItem = {
      ...DROP,
      id: 10,
      deliveries: [
        { channel: 'sms', endpoint: null, endpoint_kind: null, status: 'delivered', reason: null, attempts: 1, possibly_duplicate: false, updated_at: '2026-11-02T19:05:03.000Z', steps: [] },
        {
          channel: 'webhook',
          endpoint: 'Home automation',
          endpoint_kind: 'webhook',
          status: 'delivered',
          reason: null,
          attempts: 2,
          possibly_duplicate: false,
          updated_at: '2026-11-02T19:05:04.000Z',
          steps: [
            { status: 'queued', reason: null, at: '2026-11-02T19:05:00.000Z' },
            { status: 'delivered', reason: null, at: '2026-11-02T19:05:04.000Z' },
          ],
        },
        { channel: 'webhook', endpoint: null, endpoint_kind: null, status: 'failed', reason: 'retries_exhausted', attempts: 5, possibly_duplicate: false, updated_at: '2026-11-02T20:05:00.000Z', steps: [] },
        { channel: 'webhook', endpoint: 'Team chat', endpoint_kind: 'discord', status: 'delivered', reason: null, attempts: 1, possibly_duplicate: false, updated_at: '2026-11-02T19:05:02.000Z', steps: [] },
        { channel: 'webhook', endpoint: 'Phone', endpoint_kind: 'ntfy', status: 'delivered', reason: null, attempts: 1, possibly_duplicate: false, updated_at: '2026-11-02T19:05:02.000Z', steps: [] },
      ],
    };
    setup(page([webhookAlert]));
    const card = within(await screen.findByRole('article', { name: 'Percent Drop alert for AAPL' }));
    expect(card.getByText('SMS')).toBeInTheDocument();
    expect(card.getByText('Webhook · Home automation')).toBeInTheDocument();
    expect(card.getByText('Webhook (deleted)')).toBeInTheDocument();
    expect(card.getByText('Discord · Team chat')).toBeInTheDocument();
    expect(card.getByText('ntfy · Phone')).toBeInTheDocument();
    expect(card.getByText('2 attempts')).toBeInTheDocument();
    expect(card.getByText('Failed: no answer after 5 tries')).toBeInTheDocument();
    await userEvent.click(card.getByRole('button', { name: 'Show timeline of the Webhook · Home automation delivery' }));
    expect(within(card.getByRole('list', { name: 'Webhook · Home automation delivery timeline' })).getAllByRole('listitem')).toHaveLength(2);
  });

  it('sends the filters, says when nothing matches, and refuses a reversed range', async () => {
    setup((_url, init) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      bodies.push(body);
      return body.alert_type || body.symbol || body.from ? page([]) : page([DROP]);
    });
    await screen.findByRole('article', { name: 'Percent Drop alert for AAPL' });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Alert type' }), 'Saved drop alert');
    await waitFor(() => expect(lastBody()).toMatchObject({ alert_type: 'SAVED_STOCK_SCANNER', page: 1 }));
    expect(await screen.findByText('No alerts match these filters.')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Alert type' }), 'All types');
    await screen.findByRole('article', { name: 'Percent Drop alert for AAPL' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Symbol' }), 'nvda');
    await waitFor(() => expect(lastBody()).toMatchObject({ symbol: 'nvda' }));
    expect(lastBody()).not.toHaveProperty('alert_type');
    expect(await screen.findByText('No alerts match these filters.')).toBeInTheDocument();
    await userEvent.clear(screen.getByRole('textbox', { name: 'Symbol' }));
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    await userEvent.type(to, '2026-11-01');
    await userEvent.type(from, '2026-11-05');
    expect(await screen.findByText('from must be on or before to')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    await userEvent.clear(to);
    await waitFor(() => expect(lastBody()).toMatchObject({ from: '2026-11-05' }));
    expect(lastBody()).not.toHaveProperty('to');
  });

  it("shows the server's msg when the history cannot be loaded, and retries", async () => {
    let fail = true;
    setup(() => (fail ? { status: 400, body: { msg: 'from must be a date, YYYY-MM-DD' } } : page([DROP])));
    expect(await screen.findByText('Could not load the alert history.')).toBeInTheDocument();
    expect(screen.getByText('from must be a date, YYYY-MM-DD')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('article', { name: 'Percent Drop alert for AAPL' })).toBeInTheDocument();
  });

  it('pages through the alerts', async () => {
    setup((_url, init) => {
      const body = JSON.parse(String(init?.body)) as { page: number };
      bodies.push(body);
      return page(body.page === 1 ? [DROP] : [SAVED], { total: 45, page: body.page, ...(body.page < 3 ? { next: body.page + 1 } : {}) });
    });
    expect(await screen.findByText('Showing 1–1 of 45 alerts')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await screen.findByRole('article', { name: 'Saved option trade alert for NVDA' });
    expect(lastBody()).toMatchObject({ page: 2, limit: 20 });
    expect(screen.getByText('Showing 21–21 of 45 alerts')).toBeInTheDocument();
  });

  it('exports the filtered history as CSV through the bearer header, never a token in the URL', async () => {
    tokenStorage.set('header.payload.signature');
    const createObjectURL = vi.fn(() => 'blob:csv');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    let csvHeaders: Headers | undefined;
    const { api } = setup(page([DROP]), '/dashboard/alert?tab=history', {
      'GET alert_history.csv': (_url, init) => {
        csvHeaders = new Headers(init?.headers);
        return { body: 'fired_at,alert_type', headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="alert-history-2026-11-24.csv"' } };
      },
    });
    await screen.findByRole('article', { name: 'Percent Drop alert for AAPL' });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Alert type' }), 'Percent Drop');
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(clicked).toHaveBeenCalled());
    const call = api.callsTo('alert_history.csv')[0]!;
    expect(call.url.searchParams.get('alert_type')).toBe('PERCENT_DROP');
    expect(call.url.searchParams.has('page')).toBe(false);
    expect(call.url.search).not.toContain('header.payload');
    expect(csvHeaders?.get('authorization')).toBe('Bearer header.payload.signature');
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    expect(api.unhandled).toEqual([]);
  });

  it('says why the export failed', async () => {
    setup(page([DROP]), '/dashboard/alert?tab=history', { 'GET alert_history.csv': { status: 400, body: { msg: 'to must be a date, YYYY-MM-DD' } } });
    await screen.findByRole('article', { name: 'Percent Drop alert for AAPL' });
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Failed to export the alert history: to must be a date, YYYY-MM-DD')).toBeInTheDocument();
  });
});
