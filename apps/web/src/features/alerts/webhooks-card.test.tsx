import { DISCORD_URL_MESSAGE, NTFY_TOPIC_MESSAGE, WEBHOOK_ALERT_TYPES, webhookLimitMessage, type TestWebhookResponse, type Webhook } from '@signalboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as push from '../../lib/push/subscribe';
import { mockApi, type MockAnswer } from '../../test/mock-api';
import { renderScreen } from '../../test/render';
import { WebhooksCard } from './webhooks-card';

afterEach(() => {
  vi.unstubAllGlobals();
});

const HOME: Webhook = {
  id: 1,
  kind: 'webhook',
  name: 'Home automation',
  url: 'https://example.com/hooks/signalboard',
  topic: null,
  has_token: false,
  alert_types: ['PERCENT_DROP', 'CURRENT_PRICE', 'CUSTOM_SCAN'],
  enabled: true,
  state: 'active',
  disabled_reason: null,
  failing_since: null,
  last_success_at: '2026-11-02T19:05:00.000Z',
  last_answer: '200 OK in 84 ms',
  also_quiet_hours: false,
  device_key: null,
  created_at: '2026-11-01T10:00:00.000Z',
};
/** A Discord endpoint as read back: its URL's token masked. */
const TEAM: Webhook = { ...HOME, id: 4, kind: 'discord', name: 'Team chat', url: 'https://discord.com/api/webhooks/123456789012345678/••••', alert_types: ['BITCOIN'] };
/** An ntfy endpoint: its URL is the server; the token is never read back. */
const PHONE: Webhook = { ...HOME, id: 5, kind: 'ntfy', name: 'Phone', url: 'https://ntfy.sh', topic: 'signalboard-7f3k9q2m', has_token: true, alert_types: ['PERCENT_DROP'] };
const DISCORD_URL = 'https://discord.com/api/webhooks/123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz_0123456789-abc';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const LOOPBACK = "The URL's host 127.0.0.1 is on a loopback address; webhooks are not sent to this server's own network.";

type Routes = Parameters<typeof mockApi>[0];
const bodyOf = (init: RequestInit | undefined) => JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;

/** A small server: the list as `hooks` holds it (changed by the routes), and the routes given. */
function setup({ hooks = [] as Webhook[], max = 5, routes = {} as Routes } = {}) {
  const state = { hooks: [...hooks] };
  const api = mockApi({
    'GET alert_channels/webhooks': () => ({ body: { webhooks: state.hooks, max } }),
    'GET alert_channels/telegram': () => ({ body: { available: false, bot_username: null, link_minutes: 10 } }),
    ...routes,
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderScreen(
    <QueryClientProvider client={client}>
      <WebhooksCard />
    </QueryClientProvider>,
  );
  return { ...api, state, client };
}

const status = () => screen.getByRole('status', { name: 'Endpoints status' });
const row = async (name: string) => within(await screen.findByRole('listitem', { name }));

describe('Channels card: endpoints', () => {
  it('shows the intro, the empty state and an enabled Add button', async () => {
    const api = setup();
    expect(screen.getByRole('heading', { level: 2, name: 'Channels' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'Endpoints' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'Each alert goes to your endpoints: a webhook of your own (a JSON POST signed with the Standard Webhooks scheme: webhook-id, webhook-timestamp, webhook-signature), a Discord channel, or an ntfy topic (push notifications on your phone).',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Loading endpoints...')).toBeInTheDocument();
    expect(await screen.findByText('No endpoints yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add channel' })).toBeEnabled();
    expect(api.unhandled).toEqual([]);
  });

  it('lists each endpoint with its alert types, state, last success and last answer', async () => {
    const failing: Webhook = { ...HOME, id: 2, name: 'Chat bot', url: 'https://chat.example.org/in', alert_types: ['BITCOIN'], state: 'failing', failing_since: '2026-11-03T08:00:00.000Z', last_success_at: null, last_answer: '503 Service Unavailable in 120 ms' };
    const off: Webhook = { ...HOME, id: 3, name: 'Journal', alert_types: [...WEBHOOK_ALERT_TYPES], enabled: false, state: 'disabled', disabled_reason: 'Turned off after failing for 3 days.', last_answer: null };
    setup({ hooks: [HOME, failing, off] });
    const home = await row('Home automation');
    expect(home.getByText('Active')).toBeInTheDocument();
    expect(home.getByText('https://example.com/hooks/signalboard')).toBeInTheDocument();
    expect(home.getByText('3 alert types')).toHaveTextContent('3 alert types: Percent Drop, Current Price, Custom Scan');
    expect(home.getByText(/^Last success Nov 2, 2026, .* · Last answer: 200 OK in 84 ms$/)).toBeInTheDocument();
    for (const name of ['Send test to Home automation', 'Edit Home automation', 'Rotate secret of Home automation', 'Turn off Home automation', 'Delete Home automation']) {
      expect(home.getByRole('button', { name })).toBeEnabled();
    }
    const chat = await row('Chat bot');
    expect(chat.getByText(/^Failing since Nov 3, 2026, /)).toBeInTheDocument();
    expect(chat.getByText('Alert types: Cryptocurrency')).toBeInTheDocument();
    expect(chat.getByText('No delivery yet · Last answer: 503 Service Unavailable in 120 ms')).toBeInTheDocument();
    const journal = await row('Journal');
    expect(journal.getByText('Disabled')).toBeInTheDocument();
    expect(journal.getByText('Turned off after failing for 3 days.')).toBeInTheDocument();
    expect(journal.getByText('Alert types: All alert types')).toBeInTheDocument();
    expect(journal.getByRole('button', { name: 'Turn on Journal' })).toBeInTheDocument();
  });

  it('asks for the name, URL and alert types before sending, then adds the webhook and shows its secret once', async () => {
    const { callsTo, client, state } = setup({
      routes: {
        'POST alert_channels/webhooks': (_url, init) => {
          const body = bodyOf(init);
          const created: Webhook = { ...HOME, id: 9, name: String(body.name), url: String(body.url), alert_types: body.alert_types as Webhook['alert_types'], last_success_at: null, last_answer: null };
          state.hooks.push(created);
          return { body: { msg: `Webhook "${created.name}" added. Copy its signing secret now: it is shown only once.`, webhook: created, secret: SECRET } };
        },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Add channel' }));
    const form = within(await screen.findByRole('dialog', { name: 'Add channel' }));
    expect(form.getByRole('radiogroup', { name: 'Kind' })).toBeInTheDocument();
    expect(form.getByRole('radio', { name: 'Webhook' })).toBeChecked();
    expect(form.getByRole('textbox', { name: 'URL' })).toHaveAttribute('placeholder', 'https://example.com/hooks/signalboard');
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText('Please enter a name for the webhook.')).toBeInTheDocument();
    expect(form.getByText('Please enter the webhook URL.')).toBeInTheDocument();
    expect(form.getByText('Choose at least one alert type for the webhook.')).toBeInTheDocument();
    expect(callsTo('alert_channels/webhooks').filter((call) => call.method === 'POST')).toHaveLength(0);

    await userEvent.type(form.getByRole('textbox', { name: 'Name' }), 'Home automation');
    await userEvent.type(form.getByRole('textbox', { name: 'URL' }), 'https://ha.example.net/api/webhook/sb');
    expect(form.queryByText('Please enter a name for the webhook.')).toBeNull();
    await userEvent.click(form.getByRole('checkbox', { name: 'All' }));
    expect(form.getByRole('checkbox', { name: 'Percent Drop' })).toBeChecked();
    await userEvent.click(form.getByRole('checkbox', { name: 'Saved drop alerts' }));
    expect(form.getByRole('checkbox', { name: 'All' })).not.toBeChecked();
    expect(form.queryByText('Choose at least one alert type for the webhook.')).toBeNull();
    await userEvent.click(form.getByRole('button', { name: 'Save' }));

    const shown = within(await screen.findByRole('dialog', { name: 'Signing secret' }));
    expect(shown.getByText(SECRET)).toBeInTheDocument();
    expect(shown.getByText('Webhook "Home automation" added. Copy its signing secret now: it is shown only once.')).toBeInTheDocument();
    expect(shown.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    const posted = callsTo('alert_channels/webhooks').filter((call) => call.method === 'POST');
    expect(posted.map((call) => call.body)).toEqual([
      { kind: 'webhook', name: 'Home automation', url: 'https://ha.example.net/api/webhook/sb', alert_types: WEBHOOK_ALERT_TYPES.filter((type) => type !== 'SAVED_STOCK_SCANNER') },
    ]);
    // Only the card's state holds the secret: not the query cache, nor the finished mutation.
    expect(JSON.stringify(client.getQueryCache().getAll().map((query) => query.state.data))).not.toContain(SECRET);
    await waitFor(() => expect(JSON.stringify(client.getMutationCache().getAll().map((mutation) => mutation.state.data))).not.toContain(SECRET));

    await userEvent.click(shown.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Signing secret' })).toBeNull());
    expect(screen.queryByText(SECRET)).toBeNull();
    expect(await screen.findByRole('listitem', { name: 'Home automation' })).toBeInTheDocument();
  });

  it("shows the server's refusal under the form and keeps what was typed", async () => {
    setup({ routes: { 'POST alert_channels/webhooks': { status: 400, body: { msg: LOOPBACK } } } });
    await userEvent.click(await screen.findByRole('button', { name: 'Add channel' }));
    const form = within(await screen.findByRole('dialog', { name: 'Add channel' }));
    await userEvent.type(form.getByRole('textbox', { name: 'Name' }), 'Local');
    await userEvent.type(form.getByRole('textbox', { name: 'URL' }), 'https://127.0.0.1/hook');
    await userEvent.click(form.getByRole('checkbox', { name: 'Percent Drop' }));
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByRole('alert')).toHaveTextContent(LOOPBACK);
    expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue('Local');
    expect(form.getByRole('textbox', { name: 'URL' })).toHaveValue('https://127.0.0.1/hook');
    expect(form.getByRole('checkbox', { name: 'Percent Drop' })).toBeChecked();
    expect(form.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('shows each kind in its row: a badge, the topic and token of an ntfy endpoint, Rotate secret for a webhook only', async () => {
    setup({ hooks: [HOME, TEAM, PHONE] });
    const home = await row('Home automation');
    expect(home.getByText('Webhook')).toBeInTheDocument();
    expect(home.getByRole('button', { name: 'Rotate secret of Home automation' })).toBeInTheDocument();
    const team = await row('Team chat');
    expect(team.getByText('Discord')).toBeInTheDocument();
    expect(team.getByText(TEAM.url)).toBeInTheDocument();
    expect(team.queryByText(/^Topic:/)).toBeNull();
    expect(team.queryByRole('button', { name: /^Rotate secret/ })).toBeNull();
    for (const name of ['Send test to Team chat', 'Edit Team chat', 'Turn off Team chat', 'Delete Team chat']) expect(team.getByRole('button', { name })).toBeEnabled();
    const phone = await row('Phone');
    expect(phone.getByText('ntfy')).toBeInTheDocument();
    expect(phone.getByText('https://ntfy.sh')).toBeInTheDocument();
    expect(phone.getByText('Topic: signalboard-7f3k9q2m')).toBeInTheDocument();
    expect(phone.getByText('Access token on file')).toBeInTheDocument();
    expect(phone.queryByRole('button', { name: /^Rotate secret/ })).toBeNull();
    expect(phone.getByRole('button', { name: 'Send test to Phone' })).toBeEnabled();
  });

  it("adds a Discord channel: the contract's message for a wrong URL, then no secret to show", async () => {
    const { callsTo, state } = setup({
      routes: {
        'POST alert_channels/webhooks': (_url, init) => {
          const body = bodyOf(init);
          const created: Webhook = { ...TEAM, id: 9, name: String(body.name), alert_types: body.alert_types as Webhook['alert_types'], last_success_at: null, last_answer: null };
          state.hooks.push(created);
          return { body: { msg: `Webhook "${created.name}" added.`, webhook: created } };
        },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Add channel' }));
    const form = within(await screen.findByRole('dialog', { name: 'Add channel' }));
    await userEvent.click(form.getByRole('radio', { name: 'Discord' }));
    expect(form.queryByRole('textbox', { name: 'URL' })).toBeNull();
    const url = form.getByRole('textbox', { name: 'Discord webhook URL' });
    expect(url).toHaveAttribute('placeholder', 'https://discord.com/api/webhooks/…');
    expect(url).toHaveAccessibleDescription('In Discord: channel settings → Integrations → Webhooks → Copy Webhook URL.');
    expect(form.getByRole('textbox', { name: 'Name' })).toHaveAttribute('placeholder', 'Team chat');
    await userEvent.type(form.getByRole('textbox', { name: 'Name' }), 'Team chat');
    await userEvent.type(url, 'https://example.com/hooks/signalboard');
    await userEvent.click(form.getByRole('checkbox', { name: 'Cryptocurrency' }));
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText(DISCORD_URL_MESSAGE)).toBeInTheDocument();
    expect(callsTo('alert_channels/webhooks').filter((call) => call.method === 'POST')).toHaveLength(0);

    await userEvent.clear(url);
    await userEvent.type(url, DISCORD_URL);
    expect(form.queryByText(DISCORD_URL_MESSAGE)).toBeNull();
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(status()).toHaveTextContent('Webhook "Team chat" added.'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(callsTo('alert_channels/webhooks').filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([{ kind: 'discord', name: 'Team chat', url: DISCORD_URL, alert_types: ['BITCOIN'] }]);
    expect((await row('Team chat')).getByText('Discord')).toBeInTheDocument();
  });

  it('adds an ntfy topic: the server starts as ntfy.sh, the topic is required, the token is sent', async () => {
    const { callsTo, state } = setup({
      routes: {
        'POST alert_channels/webhooks': (_url, init) => {
          const body = bodyOf(init);
          const created: Webhook = { ...PHONE, id: 9, name: String(body.name), url: String(body.url), topic: String(body.topic), has_token: Boolean(body.token), alert_types: body.alert_types as Webhook['alert_types'] };
          state.hooks.push(created);
          return { body: { msg: `Webhook "${created.name}" added.`, webhook: created } };
        },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Add channel' }));
    const form = within(await screen.findByRole('dialog', { name: 'Add channel' }));
    await userEvent.click(form.getByRole('radio', { name: 'ntfy' }));
    expect(form.getByRole('textbox', { name: 'Server' })).toHaveValue('https://ntfy.sh');
    expect(form.getByRole('textbox', { name: 'Server' })).toHaveAccessibleDescription('ntfy.sh or your own ntfy server');
    expect(form.getByRole('textbox', { name: 'Topic' })).toHaveAccessibleDescription(
      'Subscribe to this topic in the ntfy app. On a public server anyone who knows the topic can read it: pick a long, unguessable name.',
    );
    const token = form.getByLabelText('Access token');
    expect(token).toHaveAttribute('type', 'password');
    expect(token).toHaveAccessibleDescription('Only for a protected topic. Stored encrypted; never shown again.');
    expect(form.queryByRole('checkbox', { name: 'Remove the access token' })).toBeNull();
    await userEvent.type(form.getByRole('textbox', { name: 'Name' }), 'Phone');
    await userEvent.click(form.getByRole('checkbox', { name: 'Percent Drop' }));
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText(NTFY_TOPIC_MESSAGE)).toBeInTheDocument();
    expect(callsTo('alert_channels/webhooks').filter((call) => call.method === 'POST')).toHaveLength(0);

    await userEvent.type(form.getByRole('textbox', { name: 'Topic' }), 'signalboard-7f3k9q2m');
    await userEvent.type(token, 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2');
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(status()).toHaveTextContent('Webhook "Phone" added.'));
    expect(screen.queryByRole('dialog', { name: 'Signing secret' })).toBeNull();
    expect(callsTo('alert_channels/webhooks').filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
      { kind: 'ntfy', name: 'Phone', url: 'https://ntfy.sh', alert_types: ['PERCENT_DROP'], topic: 'signalboard-7f3k9q2m', token: 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2' },
    ]);
    expect((await row('Phone')).getByText('Access token on file')).toBeInTheDocument();
  });

  it('edits a Discord endpoint without its URL when the field is left empty, and with it when typed', async () => {
    const puts: Record<string, unknown>[] = [];
    const { state } = setup({
      hooks: [TEAM],
      routes: {
        'PUT alert_channels/webhooks/4': (_url, init) => {
          const body = bodyOf(init);
          puts.push(body);
          const { url: _url2, ...rest } = body;
          const saved: Webhook = { ...state.hooks[0]!, ...rest };
          state.hooks = [saved];
          return { body: { msg: `Webhook "${saved.name}" saved.`, webhook: saved } };
        },
      },
    });
    await userEvent.click((await row('Team chat')).getByRole('button', { name: 'Edit Team chat' }));
    let form = within(await screen.findByRole('dialog', { name: 'Edit "Team chat"' }));
    expect(form.getByText('Kind:').parentElement).toHaveTextContent('Kind: Discord');
    expect(form.queryByRole('radiogroup', { name: 'Kind' })).toBeNull();
    const url = form.getByRole('textbox', { name: 'Discord webhook URL' });
    expect(url).toHaveValue('');
    expect(url).toHaveAccessibleDescription('Leave empty to keep the current URL.');
    await userEvent.clear(form.getByRole('textbox', { name: 'Name' }));
    await userEvent.type(form.getByRole('textbox', { name: 'Name' }), 'Team');
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(status()).toHaveTextContent('Webhook "Team" saved.'));
    expect(puts[0]).toEqual({ name: 'Team', alert_types: ['BITCOIN'] });

    await userEvent.click((await row('Team')).getByRole('button', { name: 'Edit Team' }));
    form = within(await screen.findByRole('dialog', { name: 'Edit "Team"' }));
    await userEvent.type(form.getByRole('textbox', { name: 'Discord webhook URL' }), 'https://discord.com/api/webhooks/1/x');
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText(DISCORD_URL_MESSAGE)).toBeInTheDocument();
    await userEvent.clear(form.getByRole('textbox', { name: 'Discord webhook URL' }));
    await userEvent.type(form.getByRole('textbox', { name: 'Discord webhook URL' }), DISCORD_URL);
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]).toEqual({ name: 'Team', url: DISCORD_URL, alert_types: ['BITCOIN'] });
  });

  it('edits an ntfy endpoint: its token kept when left empty, or removed', async () => {
    const puts: Record<string, unknown>[] = [];
    const { state } = setup({
      hooks: [PHONE],
      routes: {
        'PUT alert_channels/webhooks/5': (_url, init) => {
          const body = bodyOf(init);
          puts.push(body);
          const { token, ...rest } = body;
          const saved: Webhook = { ...state.hooks[0]!, ...rest, ...(token === '' ? { has_token: false } : {}) };
          state.hooks = [saved];
          return { body: { msg: `Webhook "${saved.name}" saved.`, webhook: saved } };
        },
      },
    });
    await userEvent.click((await row('Phone')).getByRole('button', { name: 'Edit Phone' }));
    let form = within(await screen.findByRole('dialog', { name: 'Edit "Phone"' }));
    expect(form.getByText('Kind:').parentElement).toHaveTextContent('Kind: ntfy');
    expect(form.getByRole('textbox', { name: 'Server' })).toHaveValue('https://ntfy.sh');
    expect(form.getByRole('textbox', { name: 'Topic' })).toHaveValue('signalboard-7f3k9q2m');
    expect(form.getByLabelText('Access token')).toHaveValue('');
    expect(form.getByLabelText('Access token')).toHaveAttribute('placeholder', '•••••• (on file; leave empty to keep)');
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({ name: 'Phone', url: 'https://ntfy.sh', alert_types: ['PERCENT_DROP'], topic: 'signalboard-7f3k9q2m' });

    await userEvent.click((await row('Phone')).getByRole('button', { name: 'Edit Phone' }));
    form = within(await screen.findByRole('dialog', { name: 'Edit "Phone"' }));
    await userEvent.click(form.getByRole('checkbox', { name: 'Remove the access token' }));
    expect(form.getByLabelText('Access token')).toBeDisabled();
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]).toEqual({ name: 'Phone', url: 'https://ntfy.sh', alert_types: ['PERCENT_DROP'], topic: 'signalboard-7f3k9q2m', token: '' });
    await waitFor(async () => expect((await row('Phone')).queryByText('Access token on file')).toBeNull());
  });

  it('edits an endpoint with its values filled in, and turns it off', async () => {
    const puts: Record<string, unknown>[] = [];
    const { state } = setup({
      hooks: [HOME],
      routes: {
        'PUT alert_channels/webhooks/1': (_url, init) => {
          const body = bodyOf(init);
          puts.push(body);
          const saved: Webhook = { ...state.hooks[0]!, ...body, ...(body.enabled === false ? { state: 'disabled', disabled_reason: 'Turned off by you.' } : {}) };
          state.hooks = [saved];
          return { body: { msg: `Webhook "${saved.name}" saved.`, webhook: saved } };
        },
      },
    });
    await userEvent.click((await row('Home automation')).getByRole('button', { name: 'Edit Home automation' }));
    const form = within(await screen.findByRole('dialog', { name: 'Edit "Home automation"' }));
    expect(form.getByText('Kind:').parentElement).toHaveTextContent('Kind: Webhook');
    expect(form.queryByRole('radiogroup', { name: 'Kind' })).toBeNull();
    expect(form.getByRole('textbox', { name: 'URL' })).toHaveValue(HOME.url);
    expect(form.getByRole('checkbox', { name: 'Custom Scan' })).toBeChecked();
    await userEvent.clear(form.getByRole('textbox', { name: 'Name' }));
    await userEvent.type(form.getByRole('textbox', { name: 'Name' }), 'Home');
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(status()).toHaveTextContent('Webhook "Home" saved.'));
    expect(puts[0]).toEqual({ name: 'Home', url: HOME.url, alert_types: HOME.alert_types });

    await userEvent.click((await row('Home')).getByRole('button', { name: 'Turn off Home' }));
    expect(await (await row('Home')).findByText('Disabled')).toBeInTheDocument();
    expect(puts[1]).toEqual({ enabled: false });
    expect((await row('Home')).getByRole('button', { name: 'Turn on Home' })).toBeInTheDocument();
  });

  it('sends a test and shows the signed request and the answer; a refused test shows the msg', async () => {
    const result: TestWebhookResponse = {
      msg: 'Test delivery sent to "Home automation": 200 OK in 84 ms.',
      ok: true,
      request: {
        method: 'POST',
        url: HOME.url,
        headers: { 'content-type': 'application/json', 'webhook-id': 'msg_2b9', 'webhook-timestamp': '1793631900', 'webhook-signature': 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=' },
        body: JSON.stringify({ id: 'msg_2b9', type: 'alert.test', timestamp: '2026-11-02T19:05:00.000Z', data: { symbol: 'TEST' } }),
      },
      response: { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok', duration_ms: 84 },
      error: null,
    };
    const answers: MockAnswer[] = [{ body: result }, { status: 429, body: { msg: 'You have sent 3 tests to this webhook in the last hour, the most allowed. Please try again in 41 minutes.' } }];
    setup({ hooks: [HOME], routes: { 'POST alert_channels/webhooks/1/test': () => answers.shift()! } });
    await userEvent.click((await row('Home automation')).getByRole('button', { name: 'Send test to Home automation' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Test delivery to Home automation' }));
    expect(dialog.getByTestId('webhook-test-outcome')).toHaveTextContent('Delivered: 200 in 84 ms');
    expect(dialog.getByText(`POST ${HOME.url}`)).toBeInTheDocument();
    expect(dialog.getByRole('group', { name: 'Request headers' })).toHaveTextContent('webhook-signature: v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=');
    expect(within(dialog.getByRole('group', { name: 'Request body' })).getByText(/"type": "alert.test"/).textContent).toBe(JSON.stringify(JSON.parse(result.request.body), null, 2));
    expect(dialog.getByText('Status 200 · 84 ms')).toBeInTheDocument();
    expect(dialog.getByRole('group', { name: 'Answer body' })).toHaveTextContent('ok');
    await userEvent.click(dialog.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click((await row('Home automation')).getByRole('button', { name: 'Send test to Home automation' }));
    const refused = within(await screen.findByRole('dialog', { name: 'Test delivery to Home automation' }));
    expect(refused.getByTestId('webhook-test-outcome')).toHaveTextContent('You have sent 3 tests to this webhook in the last hour, the most allowed. Please try again in 41 minutes.');
    expect(refused.queryByRole('region', { name: 'Request' })).toBeNull();
  });

  it('deletes only after the confirmation', async () => {
    const { callsTo, state } = setup({
      hooks: [HOME],
      routes: {
        'DELETE alert_channels/webhooks/1': () => {
          state.hooks = [];
          return { body: { msg: 'Webhook "Home automation" deleted.' } };
        },
      },
    });
    await userEvent.click((await row('Home automation')).getByRole('button', { name: 'Delete Home automation' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Please confirm' }));
    expect(confirm.getByText('Delete "Home automation"? Alerts still queued for it will not be sent.')).toBeInTheDocument();
    await userEvent.click(confirm.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo('alert_channels/webhooks/1')).toHaveLength(0);

    await userEvent.click((await row('Home automation')).getByRole('button', { name: 'Delete Home automation' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Please confirm' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(status()).toHaveTextContent('Webhook "Home automation" deleted.'));
    expect(status()).toHaveAttribute('data-tone', 'success');
    expect(await screen.findByText('No endpoints yet.')).toBeInTheDocument();
    expect(callsTo('alert_channels/webhooks/1').map((call) => call.method)).toEqual(['DELETE']);
  });

  it('rotates the secret after the confirmation and shows the new one once', async () => {
    setup({
      hooks: [HOME],
      routes: {
        'POST alert_channels/webhooks/1/rotate_secret': {
          body: { msg: 'New signing secret for "Home automation". Copy it now: it is shown only once; the old one no longer signs.', webhook: HOME, secret: SECRET },
        },
      },
    });
    await userEvent.click((await row('Home automation')).getByRole('button', { name: 'Rotate secret of Home automation' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Please confirm' })).getByRole('button', { name: 'Rotate secret' }));
    const shown = within(await screen.findByRole('dialog', { name: 'Signing secret' }));
    expect(shown.getByText(SECRET)).toBeInTheDocument();
    expect(shown.getByText(/the old one no longer signs\.$/)).toBeInTheDocument();
    await userEvent.click(shown.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText(SECRET)).toBeNull());
  });

  it('disables Add with the limit note when the most endpoints are there', async () => {
    setup({ hooks: [HOME, { ...HOME, id: 2, name: 'Chat bot' }], max: 2 });
    await screen.findByRole('listitem', { name: 'Chat bot' });
    const add = screen.getByRole('button', { name: 'Add channel' });
    expect(add).toBeDisabled();
    expect(screen.getByText(webhookLimitMessage(2))).toBeInTheDocument();
    expect(add).toHaveAccessibleDescription(webhookLimitMessage(2));
  });

  it("shows the msg when the list cannot be loaded, and retries", async () => {
    let fail = true;
    setup({ routes: { 'GET alert_channels/webhooks': () => (fail ? { status: 500, body: { msg: 'The database is not answering.' } } : { body: { webhooks: [HOME], max: 5 } }) } });
    expect(await screen.findByText('Could not load your endpoints.')).toBeInTheDocument();
    expect(screen.getByText('The database is not answering.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('listitem', { name: 'Home automation' })).toBeInTheDocument();
  });
});

const CHAT: Webhook = { ...HOME, id: 7, kind: 'telegram', name: '@jane', url: 'https://t.me/SignalboardBot', topic: '@jane', alert_types: [...WEBHOOK_ALERT_TYPES] };
const LAPTOP: Webhook = { ...HOME, id: 8, kind: 'push', name: 'Chrome on Linux', url: 'https://fcm.googleapis.com', alert_types: [...WEBHOOK_ALERT_TYPES], also_quiet_hours: true, device_key: 'k1' };
const TELEGRAM_ON = { 'GET alert_channels/telegram': () => ({ body: { available: true, bot_username: 'SignalboardBot', link_minutes: 10 } }) };

describe('Channels card: Telegram', () => {
  it('says what the admin must set when the installation has no bot', async () => {
    setup();
    const section = within(await screen.findByRole('region', { name: 'Telegram' }));
    expect(await section.findByText('Telegram is not set up on this installation: the admin sets TELEGRAM_BOT_TOKEN.')).toBeInTheDocument();
    expect(section.queryByRole('button', { name: 'Connect Telegram' })).toBeNull();
  });

  it('lists the connected chats apart from the endpoints, and Connect Telegram shows the one-time link', async () => {
    const link = 'https://t.me/SignalboardBot?start=abcdefghijklmnopqrstuvwx';
    const api = setup({
      hooks: [HOME, CHAT],
      routes: { ...TELEGRAM_ON, 'POST alert_channels/telegram/connect': () => ({ body: { msg: 'Open the link in Telegram and press Start.', link, expires_at: new Date(Date.now() + 600_000).toISOString() } }) },
    });
    const section = within(await screen.findByRole('region', { name: 'Telegram' }));
    const chat = within(await section.findByRole('listitem', { name: '@jane' }));
    expect(chat.getByText('Held during your SMS quiet hours')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Endpoints' })).queryByText('@jane')).toBeNull();
    await userEvent.click(section.getByRole('button', { name: 'Connect Telegram' }));
    const shown = within(await section.findByRole('status', { name: 'Telegram link' }));
    expect(shown.getByRole('link', { name: 'Open Telegram' })).toHaveAttribute('href', link);
    expect(shown.getByText('Open the link in Telegram and press Start.')).toBeInTheDocument();
    expect(section.getByRole('button', { name: 'New link' })).toBeEnabled();
    expect(api.unhandled).toEqual([]);
  });
});

describe('Channels card: browser push', () => {
  beforeEach(() => {
    vi.restoreAllMocks();
  });

  it('says why the button is off where push cannot work', async () => {
    vi.spyOn(push, 'pushSupport').mockReturnValue({ supported: false, reason: 'ios-needs-home-screen' });
    setup();
    const section = within(await screen.findByRole('region', { name: 'Browser push' }));
    expect(section.getByRole('button', { name: 'Enable notifications on this device' })).toBeDisabled();
    expect(section.getByText(push.PUSH_SUPPORT_MESSAGES['ios-needs-home-screen'])).toBeInTheDocument();
  });

  it('enables notifications on this device: subscribes with the server key and stores the subscription with the device name', async () => {
    const subscription = { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { p256dh: 'p'.repeat(87), auth: 'a'.repeat(22) } };
    vi.spyOn(push, 'pushSupport').mockReturnValue({ supported: true, reason: 'ok' });
    const enable = vi.spyOn(push, 'enablePush').mockResolvedValue(subscription);
    vi.spyOn(push, 'deviceName').mockReturnValue('Chrome on Linux');
    const api = setup({
      routes: {
        'GET alert_channels/push/key': () => ({ body: { public_key: 'BKey' } }),
        'POST alert_channels/push': () => ({ body: { msg: 'Notifications are on for Chrome on Linux.', webhook: LAPTOP } }),
      },
    });
    const section = within(await screen.findByRole('region', { name: 'Browser push' }));
    expect(section.getByText('No device gets notifications yet.')).toBeInTheDocument();
    await userEvent.click(section.getByRole('button', { name: 'Enable notifications on this device' }));
    await waitFor(() => expect(section.getByRole('status', { name: 'Browser push status' })).toHaveTextContent('Notifications are on for Chrome on Linux.'));
    expect(enable).toHaveBeenCalledWith('BKey');
    expect(api.calls.find((call) => call.path === 'alert_channels/push')?.body).toEqual({ ...subscription, name: 'Chrome on Linux' });
  });

  it('shows the browser’s refusal', async () => {
    vi.spyOn(push, 'pushSupport').mockReturnValue({ supported: true, reason: 'ok' });
    vi.spyOn(push, 'enablePush').mockRejectedValue(new Error(push.PERMISSION_REFUSED_MESSAGE));
    setup({ routes: { 'GET alert_channels/push/key': () => ({ body: { public_key: 'BKey' } }) } });
    const section = within(await screen.findByRole('region', { name: 'Browser push' }));
    await userEvent.click(section.getByRole('button', { name: 'Enable notifications on this device' }));
    await waitFor(() => expect(section.getByRole('status', { name: 'Browser push status' })).toHaveTextContent(`Error: ${push.PERMISSION_REFUSED_MESSAGE}`));
  });
});
