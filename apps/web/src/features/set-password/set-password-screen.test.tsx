import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mock-api';
import { renderScreen } from '../../test/render';
import { SetPasswordScreen } from './set-password-screen';

/** An unsigned token that expires in an hour: the screen only reads its expiry. */
const token = () => {
  const encode = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: '1', exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`;
};

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('SetPasswordScreen', () => {
  it("shows the server's msg when the change is refused by the per-user limit (429), and stays", async () => {
    window.localStorage.setItem('access_token', token());
    const limit = 'Too many password changes (at most 5 every hour). Please try again in 45 minutes.';
    const api = mockApi({ 'POST update-password': { status: 429, body: { msg: limit }, headers: { 'retry-after': '2700' } } });
    const { router } = renderScreen(<SetPasswordScreen />, '/set-password');
    await userEvent.click(screen.getByLabelText('New Password'));
    await userEvent.paste('a new password');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText(limit)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/set-password');
    expect(api.callsTo('batch_update_favorite_stocks')).toEqual([]);
  });

  it('after the change saves the MAG 7, ends this session on the server, clears the token and goes to sign in', async () => {
    window.localStorage.setItem('access_token', token());
    const api = mockApi({
      'POST update-password': { body: { msg: 'Password updated successfully!' } },
      'POST batch_update_favorite_stocks': { body: { msg: 'ok' } },
      'POST logout': { body: { msg: 'Signed out.' } },
    });
    const { router } = renderScreen(<SetPasswordScreen />, '/set-password');
    await userEvent.click(screen.getByLabelText('New Password'));
    await userEvent.paste('a new password');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(api.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['POST update-password', 'POST batch_update_favorite_stocks', 'POST logout']);
    expect(window.localStorage.getItem('access_token')).toBeNull();
    expect(api.unhandled).toEqual([]);
  });

  it('when two-factor must be turned on first (403), keeps the MAG 7 for /set-two-factor instead of reporting an error', async () => {
    window.localStorage.setItem('access_token', token());
    const api = mockApi({
      'POST update-password': { body: { msg: 'Password updated successfully!' } },
      'POST batch_update_favorite_stocks': { status: 403, body: { msg: 'Your installation requires two-factor sign-in: please turn it on to continue.' } },
      'GET getemail': { body: { email: 'new@example.com', role: 'member' } },
      'POST logout': { body: { msg: 'Signed out.' } },
    });
    const { router } = renderScreen(<SetPasswordScreen />, '/set-password');
    await userEvent.click(screen.getByLabelText('New Password'));
    await userEvent.paste('a new password');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(window.localStorage.getItem('sb-pending-default-favorites')).toBe('new@example.com');
    expect(screen.queryByText(/Error adding MAG 7 stocks/)).not.toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });
});
