import { notifications } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inTurn, mockApi } from '../../test/mock-api';
import { renderRoutes } from '../../test/render';
import { LoginScreen } from './login-screen';
import { RECOVERY_CODE_LABEL, TWO_FACTOR_CODE_LABEL, USE_RECOVERY_CODE } from './two-factor-step';

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
  window.localStorage.clear();
});

/** The login screen asks what it offers besides the password form (sign-up closed here). */
const CLOSED = { 'GET sign_in_options': { body: { sign_up: false, single_sign_on: null, password_form: 'everyone' } } };
const CHALLENGE = { two_factor_required: true, challenge: 'the-challenge', first_login: false };

function renderLogin() {
  return renderRoutes(
    [
      { path: '/login', element: <LoginScreen /> },
      { path: '/dashboard', element: <div>dashboard page</div> },
    ],
    '/login',
  );
}
async function passwordStep() {
  await userEvent.type(screen.getByLabelText('Email'), 'ann@example.com');
  await userEvent.type(screen.getByLabelText('Password'), 'the password');
  await userEvent.click(screen.getByRole('button', { name: 'Login' }));
}

describe('Login screen, two-factor step', () => {
  it('asks for the code after the password; shows the tries left; signs in with a recovery code', async () => {
    const api = mockApi({
      ...CLOSED,
      'POST login': { body: CHALLENGE },
      'POST login/two_factor': inTurn({ status: 401, body: { msg: 'That code is not right: 4 tries left.' } }, { body: { access_token: 'a.b.c', first_login: false } }),
    });
    const { router } = renderLogin();
    await passwordStep();
    const field = await screen.findByLabelText(TWO_FACTOR_CODE_LABEL);
    expect(window.localStorage.getItem('access_token')).toBeNull();
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    expect(field).toHaveAttribute('inputmode', 'numeric');

    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText(`${TWO_FACTOR_CODE_LABEL} is required`)).toBeInTheDocument();
    await userEvent.type(field, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('That code is not right: 4 tries left.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');

    await userEvent.click(screen.getByRole('switch', { name: USE_RECOVERY_CODE }));
    const recovery = screen.getByLabelText(RECOVERY_CODE_LABEL);
    expect(recovery).toHaveAttribute('inputmode', 'text');
    await userEvent.type(recovery, 'abcde-fg234');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(window.localStorage.getItem('access_token')).toBe('a.b.c');
    expect(api.callsTo('login/two_factor').map((call) => call.body)).toEqual([
      { challenge: 'the-challenge', code: '123456' },
      { challenge: 'the-challenge', code: 'abcde-fg234' },
    ]);
    expect(api.unhandled).toEqual([]);
  });

  it('goes back to the password when the challenge is locked or expired, and on Back', async () => {
    mockApi({
      ...CLOSED,
      'POST login': { body: CHALLENGE },
      'POST login/two_factor': { status: 401, body: { msg: 'Too many wrong codes: sign in again.' } },
    });
    renderLogin();
    await passwordStep();
    await userEvent.type(await screen.findByLabelText(TWO_FACTOR_CODE_LABEL), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Too many wrong codes: sign in again.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(screen.queryByLabelText(TWO_FACTOR_CODE_LABEL)).toBeNull();

    // Back at the password, which must be typed again.
    expect(screen.getByLabelText('Password')).toHaveValue('');
    await userEvent.type(screen.getByLabelText('Password'), 'the password');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    await screen.findByLabelText(TWO_FACTOR_CODE_LABEL);
    await userEvent.click(screen.getByRole('button', { name: 'Back to email and password' }));
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
  });
});
