import { notifications } from '@mantine/notifications';
import { DEFAULT_FAVORITE_STOCKS } from '@signalboard/core';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inTurn, mockApi } from '../../test/mock-api';
import { renderRoutes } from '../../test/render';
import { INVITATION_LINK_INCOMPLETE, InvitationScreen, PASSWORDS_DIFFER } from './invitation-screen';

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
});

const INVALID = 'This link no longer works: it has expired, been used or been revoked. Ask for a new one.';
/** The screen asks whether the installation has single sign-on (none here, as by default). */
const NO_SSO = { 'GET sign_in_options': { body: { sign_up: false, single_sign_on: null, password_form: 'everyone' } } };
const ACME_SSO = { 'GET sign_in_options': { body: { sign_up: false, single_sign_on: { label: 'Acme SSO' }, password_form: 'everyone' } } };
/** The calls the screen made but the options'. */
const paths = (api: ReturnType<typeof mockApi>) => api.calls.filter((call) => call.path !== 'sign_in_options').map((call) => call.input);

function open(hash: string) {
  window.history.replaceState(null, '', `/invite${hash}`);
  return renderRoutes(
    [
      { path: '/invite', element: <InvitationScreen /> },
      { path: '/dashboard', element: <div>dashboard page</div> },
      { path: '/login', element: <div>login page</div> },
    ],
    '/invite',
  );
}

describe('InvitationScreen', { timeout: 15_000 }, () => {
  it('shows the e-mail the link is for; checks the two passwords; creates the account, saves the MAG 7 and goes to the dashboard', async () => {
    const api = mockApi({
      ...NO_SSO,
      'POST invitation': { body: { email: 'friend@example.com', expires_at: '2026-12-07T10:00:00.000Z' } },
      'POST accept_invitation': { body: { access_token: 'a.b.c', first_login: false } },
      'POST batch_update_favorite_stocks': { body: { msg: 'ok', saved: 7 } },
    });
    const { router } = open('#tok-123');
    expect(await screen.findByLabelText('Email')).toHaveValue('friend@example.com');
    expect(api.callsTo('invitation')[0]!.body).toEqual({ token: 'tok-123' });

    await userEvent.type(screen.getByLabelText('Password'), 'correct horse battery');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'correct horse batter');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText(PASSWORDS_DIFFER)).toBeInTheDocument();
    expect(paths(api)).toEqual(['/api/invitation']);

    await userEvent.type(screen.getByLabelText('Confirm Password'), 'y');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(window.localStorage.getItem('access_token')).toBe('a.b.c');
    const [accept, favourites] = api.calls.filter((call) => call.path !== 'sign_in_options' && call.path !== 'invitation');
    expect(accept!.body).toEqual({ token: 'tok-123', password: 'correct horse battery' });
    expect((favourites!.body as { stocks: unknown[] }).stocks).toHaveLength(DEFAULT_FAVORITE_STOCKS.length);
    expect(api.unhandled).toEqual([]);
  });

  it("shows the server's refusal of the password and stays", async () => {
    mockApi({
      ...NO_SSO,
      'POST invitation': { body: { email: 'friend@example.com', expires_at: '2026-12-07T10:00:00.000Z' } },
      'POST accept_invitation': { status: 400, body: { msg: 'Password is one of the most common passwords: please choose another' } },
    });
    const { router } = open('#tok');
    await userEvent.type(await screen.findByLabelText('Password'), 'password123');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'password123');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Password is one of the most common passwords: please choose another')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/invite');
    expect(window.localStorage.getItem('access_token')).toBeNull();
  });

  it('says when the link no longer works, with a way to sign in', async () => {
    mockApi({ ...NO_SSO, 'POST invitation': { status: 404, body: { msg: INVALID } } });
    open('#old');
    expect(await screen.findByRole('alert')).toHaveTextContent(INVALID);
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
  });

  it('says a link without its token is incomplete, asking the server nothing', async () => {
    const api = mockApi({});
    open('');
    expect(await screen.findByRole('alert')).toHaveTextContent(INVITATION_LINK_INCOMPLETE);
    expect(api.calls).toEqual([]);
  });

  it('offers no provider button without single sign-on', async () => {
    const api = mockApi({ ...NO_SSO, 'POST invitation': { body: { email: 'friend@example.com', expires_at: '2026-12-07T10:00:00.000Z' } } });
    open('#tok');
    expect(await screen.findByLabelText('Email')).toHaveValue('friend@example.com');
    await waitFor(() => expect(api.callsTo('sign_in_options')).toHaveLength(1));
    await act(async () => undefined); // the answer's state update
    expect(screen.queryByRole('button', { name: /Create account with/ })).not.toBeInTheDocument();
  });

  it('creates the account with the provider: api/oidc/start with the link\'s token, then off to the provider', async () => {
    const assign = vi.fn();
    window.history.replaceState(null, '', '/invite#tok-123');
    vi.stubGlobal('location', { ...window.location, assign }); // jsdom does not navigate
    const api = mockApi({
      ...ACME_SSO,
      'POST invitation': { body: { email: 'friend@example.com', expires_at: '2026-12-07T10:00:00.000Z' } },
      'POST oidc/start': inTurn({ status: 429, body: { msg: 'Too many attempts. Please try again in a minute.' } }, { body: { url: 'https://idp.example.com/authorize?state=s' } }),
    });
    open('#tok-123');
    await userEvent.click(await screen.findByRole('button', { name: 'Create account with Acme SSO' }));
    expect(await screen.findByText('Too many attempts. Please try again in a minute.')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Create account with Acme SSO' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://idp.example.com/authorize?state=s'));
    expect(api.callsTo('oidc/start').map((call) => call.body)).toEqual([{ invitation: 'tok-123' }, { invitation: 'tok-123' }]);
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('OIDC_ONLY: the provider first; the password form only for an invited administrator who asks for it', async () => {
    mockApi({
      'GET sign_in_options': { body: { sign_up: false, single_sign_on: { label: 'Acme SSO' }, password_form: 'admins' } },
      'POST invitation': { body: { email: 'friend@example.com', expires_at: '2026-12-07T10:00:00.000Z' } },
    });
    open('#tok');
    await screen.findByRole('button', { name: 'Create account with Acme SSO' });
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create account' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Invited as an administrator? Choose a password' }));
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create account' })).toBeInTheDocument();
  });
});
