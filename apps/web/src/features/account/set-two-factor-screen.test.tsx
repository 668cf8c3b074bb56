import { notifications } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mock-api';
import { renderRoutes } from '../../test/render';
import { queryClient } from '../../lib/query-client';
import { SetTwoFactorScreen } from './set-two-factor-screen';

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
  window.localStorage.clear();
  queryClient.clear(); // the screen's own client (outside the shell) keeps the two-factor state otherwise
});

/** A token whose payload's exp is an hour away (the screen only checks it is there and unexpired). */
const token = () => `x.${btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600 }))}.y`;
const OFF = { enabled: false, since: null, recovery_codes_left: 0, required: true };
const CODES = Array.from({ length: 10 }, (_, i) => `aaaa${'abcdefghij'[i]}-bbbbb`);

describe('/set-two-factor', () => {
  it('turns two-factor on outside the shell, then goes on to the dashboard once the codes are saved', async () => {
    window.localStorage.setItem('access_token', token());
    let enabled = false;
    const api = mockApi({
      'GET two_factor': () => ({ body: enabled ? { ...OFF, enabled: true, since: '2026-12-04T10:00:00.000Z', recovery_codes_left: 10 } : OFF }),
      'POST two_factor/setup': { body: { manual_key: 'JBSW Y3DP', otpauth_uri: 'otpauth://totp/Signalboard:me%40example.com?secret=JBSWY3DP&issuer=Signalboard' } },
      'POST two_factor/enable': () => {
        enabled = true;
        return { body: { msg: 'Two-factor sign-in is on.', recovery_codes: CODES } };
      },
    });
    const { router } = renderRoutes(
      [
        { path: '/set-two-factor', element: <SetTwoFactorScreen /> },
        { path: '/dashboard', element: <div>dashboard page</div> },
      ],
      '/set-two-factor',
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Turn on two-factor sign-in' })).toBeInTheDocument();
    expect(await screen.findByText('Your installation requires it: turn it on to go on using Signalboard.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    await userEvent.type(await screen.findByLabelText(/Code from your app/), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'I have saved these recovery codes' }));
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(api.unhandled).toEqual([]);
  });

  it('saves the MAG 7 a first login left waiting for this account, then goes to the dashboard', async () => {
    window.localStorage.setItem('access_token', token());
    window.localStorage.setItem('sb-pending-default-favorites', 'me@example.com');
    let enabled = false;
    const api = mockApi({
      'GET two_factor': () => ({ body: enabled ? { ...OFF, enabled: true, since: '2026-12-04T10:00:00.000Z', recovery_codes_left: 10 } : OFF }),
      'POST two_factor/setup': { body: { manual_key: 'JBSW Y3DP', otpauth_uri: 'otpauth://totp/Signalboard:me%40example.com?secret=JBSWY3DP&issuer=Signalboard' } },
      'POST two_factor/enable': () => {
        enabled = true;
        return { body: { msg: 'Two-factor sign-in is on.', recovery_codes: CODES } };
      },
      'GET getemail': { body: { email: 'me@example.com', role: 'member' } },
      'POST batch_update_favorite_stocks': { body: { msg: 'ok', saved: 7 } },
    });
    const { router } = renderRoutes(
      [
        { path: '/set-two-factor', element: <SetTwoFactorScreen /> },
        { path: '/dashboard', element: <div>dashboard page</div> },
      ],
      '/set-two-factor',
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on' }));
    await userEvent.type(await screen.findByLabelText(/Code from your app/), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'I have saved these recovery codes' }));
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(api.callsTo('batch_update_favorite_stocks')).toHaveLength(1);
    expect(window.localStorage.getItem('sb-pending-default-favorites')).toBeNull();
    expect(api.unhandled).toEqual([]);
  });

  it('sends a visitor without a token to sign in', async () => {
    mockApi({});
    const { router } = renderRoutes(
      [
        { path: '/set-two-factor', element: <SetTwoFactorScreen /> },
        { path: '/login', element: <div>login page</div> },
      ],
      '/set-two-factor',
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
