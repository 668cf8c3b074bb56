import { notifications } from '@mantine/notifications';
import { oidcErrorMessage } from '@signalboard/core';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mock-api';
import { renderRoutes } from '../../test/render';
import { LoginScreen } from './login-screen';
import { TWO_FACTOR_CODE_LABEL } from './two-factor-step';

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
});

const options = (single_sign_on: { label: string } | null, password_form: 'everyone' | 'admins' = 'everyone') => ({
  'GET sign_in_options': { body: { sign_up: false, single_sign_on, password_form } },
});
const ACME = options({ label: 'Acme SSO' });

/** The login screen at `/login<hash>`, as the server's redirect after the provider leaves it. */
function openLogin(hash = '') {
  window.history.replaceState(null, '', `/login${hash}`);
  return renderRoutes(
    [
      { path: '/login', element: <LoginScreen /> },
      { path: '/dashboard', element: <div>dashboard page</div> },
      { path: '/set-password', element: <div>set password page</div> },
    ],
    '/login',
  );
}

/** window.location.assign, stubbed: jsdom does not navigate. */
function stubAssign() {
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  return assign;
}

describe('Login screen, single sign-on', { timeout: 15_000 }, () => {
  it('offers no provider button without single sign-on', async () => {
    const api = mockApi(options(null));
    openLogin();
    await waitFor(() => expect(api.callsTo('sign_in_options')).toHaveLength(1));
    await act(async () => undefined); // the answer's state update
    expect(screen.queryByRole('button', { name: /Sign in with/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('separator')).not.toBeInTheDocument();
  });

  it('"Sign in with …" under the password form sends the browser to the provider', async () => {
    const assign = stubAssign();
    const api = mockApi({ ...ACME, 'POST oidc/start': { body: { url: 'https://idp.example.com/authorize?state=s' } } });
    openLogin();
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with Acme SSO' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://idp.example.com/authorize?state=s'));
    expect(api.callsTo('oidc/start').map((call) => call.body)).toEqual([{}]);
    expect(screen.getByText('or')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it("shows the server's msg when the provider cannot be reached", async () => {
    const assign = stubAssign();
    mockApi({ ...ACME, 'POST oidc/start': { status: 502, body: { msg: 'The sign-in provider did not answer. Please try again.' } } });
    openLogin();
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with Acme SSO' }));
    expect(await screen.findByText('The sign-in provider did not answer. Please try again.')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Sign in with Acme SSO' })).toBeEnabled();
  });

  it('completes `#oidc=<code>` as a password sign-in: removes the hash, stores the token, goes to the dashboard', async () => {
    let release: () => void = () => undefined;
    const api = mockApi({
      ...ACME,
      'POST oidc/complete': () => new Promise((resolve) => (release = () => resolve({ body: { access_token: 'a.b.c', first_login: false } }))),
    });
    const { router } = openLogin('#oidc=one-time+code%2F1==');
    expect(await screen.findByText('Signing you in…')).toBeInTheDocument();
    expect(window.location.hash).toBe('');
    expect(window.location.pathname).toBe('/login');
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('oidc/complete')).toHaveLength(1));
    release();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(window.localStorage.getItem('access_token')).toBe('a.b.c');
    expect(api.callsTo('oidc/complete').map((call) => call.body)).toEqual([{ code: 'one-time+code/1==' }]);
    expect(api.unhandled).toEqual([]);
  });

  it('a first login from the provider goes to /set-password, as after a password', async () => {
    mockApi({ ...ACME, 'POST oidc/complete': { body: { access_token: 'a.b.c', first_login: true } } });
    const { router } = openLogin('#oidc=code');
    await waitFor(() => expect(router.state.location.pathname).toBe('/set-password'));
  });

  it('completes into the two-factor step when the account has two-factor', async () => {
    const api = mockApi({
      ...ACME,
      'POST oidc/complete': { body: { two_factor_required: true, challenge: 'the-challenge', first_login: false } },
      'POST login/two_factor': { body: { access_token: 'd.e.f', first_login: false } },
    });
    const { router } = openLogin('#oidc=code');
    await userEvent.type(await screen.findByLabelText(TWO_FACTOR_CODE_LABEL), '123456');
    expect(window.localStorage.getItem('access_token')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(window.localStorage.getItem('access_token')).toBe('d.e.f');
    expect(api.callsTo('login/two_factor').map((call) => call.body)).toEqual([{ challenge: 'the-challenge', code: '123456' }]);
    expect(api.unhandled).toEqual([]);
  });

  it("shows the server's msg when the code is refused, then the sign-in choices", async () => {
    mockApi({ ...ACME, 'POST oidc/complete': { status: 401, body: { msg: 'That sign-in took too long or was already used. Please try again.' } } });
    const { router } = openLogin('#oidc=old');
    expect(await screen.findByText('That sign-in took too long or was already used. Please try again.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Sign in with Acme SSO' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(window.localStorage.getItem('access_token')).toBeNull();
  });

  it('says why on `#oidc_error=…`, with the provider named, and removes the hash', async () => {
    const api = mockApi(ACME);
    openLogin('#oidc_error=not_linked');
    // "your provider" until sign_in_options answers, then the provider's label.
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(oidcErrorMessage('not_linked', 'Acme SSO')));
    expect(screen.getByRole('alert')).toHaveTextContent('No Signalboard account is linked to that Acme SSO account.');
    expect(window.location.hash).toBe('');
    expect(api.calls.map((call) => call.path)).toEqual(['sign_in_options']);
  });

  it('names "your provider" until the options have answered', async () => {
    mockApi({ 'GET sign_in_options': () => new Promise(() => undefined) });
    openLogin('#oidc_error=cancelled');
    expect(await screen.findByRole('alert')).toHaveTextContent('Sign-in with your provider was cancelled.');
  });

  it('OIDC_ONLY: the provider is the way in; the password form waits behind "Administrator sign-in"', async () => {
    const api = mockApi({ ...options({ label: 'Acme SSO' }, 'admins'), 'POST login': { body: { access_token: 'a.b.c', first_login: false } } });
    const { router } = openLogin();
    expect(await screen.findByRole('button', { name: 'Sign in with Acme SSO' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Forgot Password' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Login' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Administrator sign-in' }));
    expect(screen.queryByRole('button', { name: 'Administrator sign-in' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Forgot Password' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email'), 'admin@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'the password');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(api.callsTo('login').map((call) => call.body)).toEqual([{ email: 'admin@example.com', password: 'the password' }]);
  });
});
