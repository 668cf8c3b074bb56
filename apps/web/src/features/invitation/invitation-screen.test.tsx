import { notifications } from '@mantine/notifications';
import { DEFAULT_FAVORITE_STOCKS } from '@signalboard/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mock-api';
import { renderRoutes } from '../../test/render';
import { INVITATION_LINK_INCOMPLETE, InvitationScreen, PASSWORDS_DIFFER } from './invitation-screen';

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
});

const INVALID = 'This link no longer works: it has expired, been used or been revoked. Ask for a new one.';

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
      'POST invitation': { body: { email: 'friend@example.com', expires_at: '2026-12-07T10:00:00.000Z' } },
      'POST accept_invitation': { body: { access_token: 'a.b.c', first_login: false } },
      'POST batch_update_favorite_stocks': { body: { msg: 'ok', saved: 7 } },
    });
    const { router } = open('#tok-123');
    expect(await screen.findByLabelText('Email')).toHaveValue('friend@example.com');
    expect(api.calls[0]!.body).toEqual({ token: 'tok-123' });

    await userEvent.type(screen.getByLabelText('Password'), 'correct horse battery');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'correct horse batter');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText(PASSWORDS_DIFFER)).toBeInTheDocument();
    expect(api.calls.map((call) => call.input)).toEqual(['/api/invitation']);

    await userEvent.type(screen.getByLabelText('Confirm Password'), 'y');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(window.localStorage.getItem('access_token')).toBe('a.b.c');
    const [, accept, favourites] = api.calls;
    expect(accept!.body).toEqual({ token: 'tok-123', password: 'correct horse battery' });
    expect((favourites!.body as { stocks: unknown[] }).stocks).toHaveLength(DEFAULT_FAVORITE_STOCKS.length);
    expect(api.unhandled).toEqual([]);
  });

  it("shows the server's refusal of the password and stays", async () => {
    mockApi({
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
    mockApi({ 'POST invitation': { status: 404, body: { msg: INVALID } } });
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
});
