import { notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inTurn, mockApi } from '../../test/mock-api';
import { renderScreen } from '../../test/render';
import { AccountScreen } from './account-screen';
import { END_OTHERS_QUESTION, THIS_DEVICE } from './sessions-card';

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
});

const session = (id: string, device: string, address: string, current = false) => ({
  id,
  device,
  user_agent: `${device} agent`,
  address,
  created_at: '2026-12-04T06:00:00.000Z',
  last_seen_at: '2026-12-04T06:30:00.000Z',
  expires_at: '2026-12-04T18:00:00.000Z',
  current,
});
const DESK = session('s-desk', 'Chrome on Windows', '203.0.113.7', true);
const PHONE = session('s-phone', 'Safari on iPhone', '198.51.100.4');
const TABLET = session('s-tablet', 'Safari on iPad', '198.51.100.9');
const TWO_FACTOR_OFF = { enabled: false, since: null, recovery_codes_left: 0, required: false };
/** An installation without single sign-on (the default): the card is not shown. */
const NO_SSO = { configured: false, label: '', identities: [] };

function renderAccount() {
  return renderScreen(
    <QueryClientProvider client={new QueryClient()}>
      <AccountScreen />
    </QueryClientProvider>,
    '/dashboard/account',
  );
}

describe('AccountScreen', { timeout: 15_000 }, () => {
  it('lists the sessions, this device marked and not endable; ends one, then all the others after a confirm', async () => {
    const api = mockApi({
      'GET getemail': { body: { email: 'me@example.com' } },
      'GET two_factor': { body: TWO_FACTOR_OFF },
      'GET oidc/identities': { body: NO_SSO },
      'GET sessions': inTurn({ body: { sessions: [DESK, PHONE, TABLET] } }, { body: { sessions: [DESK, TABLET] } }, { body: { sessions: [DESK] } }),
      'POST end_session': { body: { msg: 'Session ended.' } },
      'POST end_other_sessions': { body: { msg: 'Signed out 1 other session.' } },
    });
    renderAccount();
    expect(await screen.findByText('me@example.com')).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Sessions' });
    const desk = within(list).getByRole('listitem', { name: 'Chrome on Windows, 203.0.113.7' });
    expect(within(desk).getByText(THIS_DEVICE)).toBeInTheDocument();
    expect(within(desk).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Single sign-on' })).toBeNull();
    expect(screen.queryByText('Single sign-on')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Sign out Safari on iPhone (198.51.100.4)' }));
    expect(await screen.findByText('Session ended.')).toBeInTheDocument();
    expect(api.callsTo('end_session').map((call) => call.body)).toEqual([{ id: 's-phone' }]);
    await waitFor(() => expect(within(list).queryByText('Safari on iPhone')).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: 'Sign out other devices' }));
    expect(await screen.findByText(END_OTHERS_QUESTION)).toBeInTheDocument();
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Sign out other devices' }));
    expect(await screen.findByText('Signed out 1 other session.')).toBeInTheDocument();
    expect(api.callsTo('end_other_sessions')).toHaveLength(1);
    // Only this device left: nothing more to sign out.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign out other devices' })).toBeDisabled());
    expect(api.unhandled).toEqual([]);
  });

  it("changes the password with the current one, showing the server's refusal as it is", async () => {
    const api = mockApi({
      'GET getemail': { body: { email: 'me@example.com' } },
      'GET two_factor': { body: TWO_FACTOR_OFF },
      'GET oidc/identities': { body: NO_SSO },
      'GET sessions': { body: { sessions: [DESK] } },
      'POST update-password': inTurn({ status: 400, body: { msg: 'Current password is incorrect' } }, { body: { msg: 'Password updated successfully!' } }),
    });
    renderAccount();
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Current password is required')).toBeInTheDocument();
    expect(screen.getByText('New password is required')).toBeInTheDocument();
    expect(api.callsTo('update-password')).toEqual([]);

    await userEvent.click(screen.getByLabelText('Current Password'));
    await userEvent.paste('not it');
    await userEvent.click(screen.getByLabelText('New Password'));
    await userEvent.paste('a much longer password');
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
    expect(screen.getByLabelText('New Password')).toHaveValue('a much longer password');

    await userEvent.clear(screen.getByLabelText('Current Password'));
    await userEvent.click(screen.getByLabelText('Current Password'));
    await userEvent.paste('my old password');
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Password updated successfully! Your other devices were signed out.')).toBeInTheDocument();
    expect(api.callsTo('update-password').map((call) => call.body)).toEqual([
      { current_password: 'not it', new_password: 'a much longer password' },
      { current_password: 'my old password', new_password: 'a much longer password' },
    ]);
    expect(screen.getByLabelText('New Password')).toHaveValue('');
  });

  it('says so, with a Retry, when the sessions cannot be loaded', async () => {
    mockApi({
      'GET getemail': { body: { email: 'me@example.com' } },
      'GET two_factor': { body: TWO_FACTOR_OFF },
      'GET oidc/identities': { body: NO_SSO },
      'GET sessions': inTurn({ status: 503, body: { msg: 'The database is unavailable right now. Please try again shortly.' } }, { body: { sessions: [DESK] } }),
    });
    renderAccount();
    expect(await screen.findByText('Your sessions could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('The database is unavailable right now. Please try again shortly.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(THIS_DEVICE)).toBeInTheDocument();
  });
});
