import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mock-api';
import { renderScreen } from '../../test/render';
import { browserTimeZone, DeliverySettingsCard } from './delivery-settings-card';

afterEach(() => {
  vi.unstubAllGlobals();
});

const SETTINGS = {
  time_zone: 'America/New_York',
  sms_quiet_hours: { enabled: true, start: '21:00', end: '08:00' },
  email_quiet_hours: { enabled: false, start: '21:00', end: '08:00' },
  paused: false,
  saved: false,
  last_delivery: { sms: null, email: null },
};

type Routes = Parameters<typeof mockApi>[0];
function setup(routes: Routes = {}, settings: object = SETTINGS) {
  const posted: unknown[] = [];
  const api = mockApi({
    'GET get_alert_delivery_settings': { body: settings },
    'POST save_alert_delivery_settings': (_url, init) => {
      const body = JSON.parse(String(init?.body)) as object;
      posted.push(body);
      return { body: { msg: 'Delivery settings saved successfully!', data: { ...SETTINGS, ...body, saved: true } } };
    },
    ...routes,
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderScreen(
    <QueryClientProvider client={client}>
      <DeliverySettingsCard />
    </QueryClientProvider>,
  );
  return { ...api, posted };
}

const status = () => screen.getByRole('status', { name: 'Delivery settings status' });
async function statusIs(text: string, tone: 'success' | 'danger') {
  await waitFor(() => expect(status()).toHaveTextContent(text));
  expect(status().textContent).toBe(text);
  expect(status()).toHaveAttribute('data-tone', tone);
}

describe('Delivery settings card', () => {
  it('says why a channel is off: an SMS STOP, an e-mail unsubscribe, a permanent error', async () => {
    const none = { opted_out_at: null, problem: null, problem_at: null };
    setup({}, {
      ...SETTINGS,
      channels: {
        sms: { ...none, opted_out_at: '2026-11-24T12:00:00.000Z' },
        email: { ...none, problem: 'SMTP delivery failed: 550 5.1.1 no such user', problem_at: '2026-11-24T12:00:00.000Z' },
      },
    });
    expect(await screen.findByTestId('sms-opted-out')).toHaveTextContent('SMS alerts are off: you replied STOP. Reply START to turn them on again.');
    expect(screen.getByTestId('email-problem')).toHaveTextContent('E-mail alerts stopped: SMTP delivery failed: 550 5.1.1 no such user');
    expect(screen.queryByTestId('email-opted-out')).toBeNull();
    expect(screen.queryByTestId('sms-problem')).toBeNull();
  });

  it('turns alert e-mails on again after an unsubscribe', async () => {
    const none = { opted_out_at: null, problem: null, problem_at: null };
    const channels = { sms: none, email: { ...none, opted_out_at: '2026-11-24T12:00:00.000Z' } };
    const api = setup(
      { 'POST resume_alert_email': { body: { msg: 'E-mail alerts are on again.', data: { ...SETTINGS, channels: { sms: none, email: none } } } } },
      { ...SETTINGS, channels },
    );
    expect(await screen.findByTestId('email-opted-out')).toHaveTextContent('E-mail alerts are off: you unsubscribed from all alert e-mails.');
    await userEvent.click(screen.getByRole('button', { name: 'Turn e-mail alerts on again' }));
    await statusIs('E-mail alerts are on again.', 'success');
    await waitFor(() => expect(screen.queryByTestId('email-opted-out')).toBeNull());
    expect(screen.queryByRole('button', { name: 'Turn e-mail alerts on again' })).toBeNull();
    expect(api.callsTo('resume_alert_email')).toHaveLength(1);
  });


  it('proposes the browser’s time zone and the default quiet hours until saved, and saves them', async () => {
    const api = setup();
    const zone = await screen.findByRole('combobox', { name: 'Time zone' });
    expect(zone).toHaveValue(browserTimeZone());
    expect(screen.getByRole('switch', { name: 'SMS quiet hours' })).toBeChecked();
    expect(screen.getByLabelText('SMS quiet from')).toHaveValue('21:00');
    expect(screen.getByLabelText('SMS quiet until')).toHaveValue('08:00');
    expect(screen.getByRole('switch', { name: 'E-mail quiet hours' })).not.toBeChecked();
    fireEvent.change(zone, { target: { value: 'Europe/Berlin' } });
    await userEvent.click(screen.getByRole('switch', { name: 'Pause all alerts' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save delivery settings' }));
    await statusIs('Delivery settings saved successfully!', 'success');
    expect(api.posted).toEqual([
      {
        time_zone: 'Europe/Berlin',
        sms_quiet_hours: { enabled: true, start: '21:00', end: '08:00' },
        email_quiet_hours: { enabled: false, start: '21:00', end: '08:00' },
        paused: true,
      },
    ]);
  });

  it('shows the saved zone, refuses equal quiet-hour ends, and says when loading fails', async () => {
    const api = setup({}, { ...SETTINGS, time_zone: 'Asia/Tokyo', saved: true });
    expect(await screen.findByRole('combobox', { name: 'Time zone' })).toHaveValue('Asia/Tokyo');
    fireEvent.change(screen.getByLabelText('SMS quiet until'), { target: { value: '21:00' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save delivery settings' }));
    await statusIs('Quiet hours must start and end at different times.', 'danger');
    expect(api.posted).toHaveLength(0);
  });

  it('says "Could not load delivery settings." when the call fails', async () => {
    setup({ 'GET get_alert_delivery_settings': { status: 500, body: { msg: 'down' } } });
    await statusIs('Could not load delivery settings.', 'danger');
  });

  it('sends a test per channel, shows the provider’s answer and the last delivery, or the failure with the msg', async () => {
    setup({
      'POST send_test_alert': (_url, init) =>
        (JSON.parse(String(init?.body)) as { channel: string }).channel === 'email'
          ? {
              body: {
                msg: 'Test e-mail sent successfully to a@example.com.',
                channel: 'email',
                provider_answer: '250 OK queued',
                delivered_at: '2026-11-24T12:00:00.000Z',
                last_delivery: { sms: null, email: '2026-11-24T12:00:00.000Z' },
              },
            }
          : { status: 400, body: { msg: 'Please verify a phone number to receive SMS alerts.' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Send test e-mail' }));
    await statusIs('Test e-mail sent successfully to a@example.com.', 'success');
    expect(screen.getByText('Provider answer: 250 OK queued')).toBeInTheDocument();
    expect(screen.getByText(/^Last successful e-mail delivery: /).textContent).not.toContain('none yet');
    expect(screen.getByText('Last successful SMS delivery: none yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send test SMS' }));
    await statusIs('Failed to send test SMS: Please verify a phone number to receive SMS alerts.', 'danger');
  });

  it("shows the server's msg for a test send refused by a limit or the SMS budget once, with the prefix once", async () => {
    const limit = 'You have sent 3 test e-mails in the last hour, the most allowed. Please try again in 57 minutes.';
    const budget = 'Failed to send test SMS: The SMS budget of this installation for today is spent; please try again tomorrow (after 00:00 UTC).';
    setup({
      'POST send_test_alert': (_url, init) =>
        (JSON.parse(String(init?.body)) as { channel: string }).channel === 'email' ? { status: 429, body: { msg: limit } } : { status: 429, body: { msg: budget } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Send test e-mail' }));
    await statusIs(`Failed to send test e-mail: ${limit}`, 'danger');
    await userEvent.click(screen.getByRole('button', { name: 'Send test SMS' }));
    await statusIs(budget, 'danger');
  });
});
