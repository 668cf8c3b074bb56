import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, type MockAnswer } from '../../test/mock-api';
import { renderScreen } from '../../test/render';
import { AlertSettingsScreen } from './alert-settings-screen';

afterEach(() => {
  vi.unstubAllGlobals();
});

type Routes = Parameters<typeof mockApi>[0];
const DEFAULT_DELIVERY = {
  time_zone: 'America/New_York',
  sms_quiet_hours: { enabled: true, start: '21:00', end: '08:00' },
  email_quiet_hours: { enabled: false, start: '21:00', end: '08:00' },
  paused: false,
  saved: false,
  last_delivery: { sms: null, email: null },
};
const FAVORITES = [
  { symbol: 'AAPL', description: 'Apple Inc.' },
  { symbol: 'MSFT', description: 'Microsoft Corporation' },
];

function setup(routes: Routes = {}) {
  const api = mockApi({
    'GET get_user_phone_number': { body: {} },
    'POST get_user_alert_rules': { body: { data: null } },
    'GET get_favorite_stocks': { body: FAVORITES },
    'GET get_alert_delivery_settings': { body: DEFAULT_DELIVERY },
    'GET alert_channels/webhooks': { body: { webhooks: [], max: 5 } },
    'GET alert_channels/telegram': { body: { available: false, bot_username: null, link_minutes: 10 } },
    ...routes,
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderScreen(
    <QueryClientProvider client={client}>
      <AlertSettingsScreen />
    </QueryClientProvider>,
  );
  return api;
}

const status = () => screen.getByRole('status', { name: 'SMS verification status' });
async function statusIs(text: string, tone: 'success' | 'danger' | 'info') {
  await waitFor(() => expect(status()).toHaveTextContent(text));
  expect(status().textContent).toBe(text);
  expect(status()).toHaveAttribute('data-tone', tone);
}
const phoneField = () => screen.getByRole('textbox', { name: /^Phone number/ });
const codeField = () => screen.queryByRole('textbox', { name: /^Verification code/ });
const bodyOf = (init: RequestInit | undefined) => JSON.parse(String(init?.body)) as Record<string, string>;

/** A route answer held open until `release` is called (to see a busy state). */
function held(answer: MockAnswer) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { handler: async () => (await gate, answer), release: () => release() };
}

describe('Alert System Settings: SMS Verification', () => {
  it('has one h1, the card heading, and says when no number is on file', async () => {
    const api = setup();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1, name: 'Alert System Settings' })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual(['SMS Verification', 'Alert Preferences', 'Delivery Settings', 'Channels']);
    await statusIs('No phone number on file. Please enter one to enable SMS alerts.', 'info');
    expect(phoneField()).toHaveValue('');
    expect(codeField()).toBeNull();
    expect(api.unhandled).toEqual([]);
  });

  it('loads the number on file into the field', async () => {
    setup({ 'GET get_user_phone_number': { body: { phoneNumber: '+447700900123', smsEnabled: true } } });
    await statusIs('Existing phone number loaded.', 'success');
    expect(phoneField()).toHaveValue('+447700900123');
    expect(screen.getByText('Verified: +447700900123')).toBeInTheDocument();
  });

  it('says so when the number on file cannot be loaded, and the field stays usable', async () => {
    setup({ 'GET get_user_phone_number': { status: 500, body: { msg: 'boom' } } });
    await statusIs('Could not load your phone number. Please try entering it manually.', 'danger');
    await userEvent.type(phoneField(), '+12223334444');
    expect(phoneField()).toHaveValue('+12223334444');
  });

  it('asks for a number, then an E.164 number, before sending anything', async () => {
    const api = setup();
    await statusIs('No phone number on file. Please enter one to enable SMS alerts.', 'info');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Please enter a phone number.')).toBeInTheDocument();
    expect(phoneField()).toHaveAttribute('aria-invalid', 'true');
    for (const bad of ['12223334444', '+02223334444', '+1', '+1222333444455556', '+1 222 333 4444']) {
      await userEvent.clear(phoneField());
      await userEvent.type(phoneField(), bad);
      await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
      expect(await screen.findByText('Invalid phone number format. Please use E.164 format (e.g., +12223334444).')).toBeInTheDocument();
    }
    expect(api.callsTo('send_verification_code')).toHaveLength(0);
    expect(codeField()).toBeNull();
  });

  it('sends a code (busy while sending), shows the code entry, verifies, and hides the entry again', async () => {
    const send = held({ body: { msg: 'Verification code sent successfully! Please check your messages.', expires_in_seconds: 600 } });
    const sent: Record<string, string>[] = [];
    const verified: Record<string, string>[] = [];
    setup({
      'POST send_verification_code': async (_url, init) => (sent.push(bodyOf(init)), send.handler()),
      'POST verify_code': (_url, init) => (
        verified.push(bodyOf(init)), { body: { msg: 'Phone number verified successfully!', phoneNumber: '+12223334444', smsEnabled: true } }
      ),
    });
    await userEvent.type(phoneField(), '+12223334444');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    const busy = await screen.findByRole('button', { name: 'Sending verification code...' });
    expect(busy).toBeDisabled();
    await statusIs('Sending verification code...', 'info');
    expect(codeField()).toBeNull();
    send.release();
    await statusIs('Verification code sent successfully! Please check your messages.', 'success');
    expect(sent).toEqual([{ phone_number: '+12223334444' }]);

    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Please enter the verification code.')).toBeInTheDocument();
    expect(verified).toHaveLength(0);
    await userEvent.type(codeField()!, '12345');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Invalid verification code. The code is the 6 digits from the SMS.')).toBeInTheDocument();
    expect(verified).toHaveLength(0);
    await userEvent.type(codeField()!, '6');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await statusIs('Phone number verified successfully!', 'success');
    expect(verified).toEqual([{ phone_number: '+12223334444', verification_code: '123456' }]);
    expect(codeField()).toBeNull();
    expect(screen.getByText('Verified: +12223334444')).toBeInTheDocument();
  });

  it('shows the server’s msg after "Failed to send verification code: " and keeps the code entry hidden', async () => {
    setup({ 'POST send_verification_code': { status: 429, body: { msg: 'Too many codes for this number. Try again in 10 minutes.' } } });
    await userEvent.type(phoneField(), '+12223334444');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await statusIs('Failed to send verification code: Too many codes for this number. Try again in 10 minutes.', 'danger');
    expect(codeField()).toBeNull();
    expect(screen.getByRole('button', { name: 'Send code' })).toBeEnabled();
  });

  it('shows the server’s msg after "Verification failed: " and keeps the code entry for another try', async () => {
    setup({
      'POST send_verification_code': { body: { msg: 'ok', expires_in_seconds: 600 } },
      'POST verify_code': { status: 400, body: { msg: 'Incorrect verification code. Please check the code and try again.' } },
    });
    await userEvent.type(phoneField(), '+12223334444');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await userEvent.type(await screen.findByRole('textbox', { name: /^Verification code/ }), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await statusIs('Verification failed: Incorrect verification code. Please check the code and try again.', 'danger');
    expect(codeField()).toHaveValue('000000');
  });
});
