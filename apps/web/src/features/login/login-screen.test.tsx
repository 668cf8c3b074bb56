import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mock-api';
import { renderRoutes, renderScreen } from '../../test/render';
import { FORGOT_PASSWORD_NEEDS_EMAIL, LoginScreen } from './login-screen';

afterEach(() => vi.unstubAllGlobals());

/** The login screen asks what it offers besides the password form (sign-up closed here, as by default). */
const CLOSED = { 'GET sign_in_options': { body: { sign_up: false, single_sign_on: null, password_form: 'everyone' } } };
/** The calls the user's actions made (the options read on mount aside). */
const actions = (api: ReturnType<typeof mockApi>) => api.calls.filter((call) => call.input !== '/api/sign_in_options');

describe('Login screen', () => {
  it('shows the required messages only after a submit attempt', async () => {
    const api = mockApi(CLOSED);
    renderScreen(<LoginScreen />, '/login');
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();
    expect(screen.queryByText('Password is required')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(actions(api)).toEqual([]);
  });

  it('stores the token and goes to /set-password on a first login', async () => {
    const api = mockApi({ ...CLOSED, 'POST login': { body: { access_token: 'a.b.c', first_login: true } } });
    const { router } = renderRoutes(
      [
        { path: '/login', element: <LoginScreen /> },
        { path: '/set-password', element: <div>set password page</div> },
      ],
      '/login',
    );
    await userEvent.type(screen.getByLabelText('Email'), 'demo@signalboard.local');
    await userEvent.type(screen.getByLabelText('Password'), 'demo');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/set-password'));
    expect(window.localStorage.getItem('access_token')).toBe('a.b.c');
    const [call] = actions(api);
    expect(call!.input).toBe('/api/login');
    expect(call!.body).toEqual({ email: 'demo@signalboard.local', password: 'demo' });
    expect(api.unhandled).toEqual([]);
  });

  it("shows the server's msg when login fails", async () => {
    const api = mockApi({ ...CLOSED, 'POST login': { status: 401, body: { msg: 'Invalid email or password' } } });
    renderScreen(<LoginScreen />, '/login');
    await userEvent.type(screen.getByLabelText('Email'), 'x@y.z');
    await userEvent.type(screen.getByLabelText('Password'), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
    expect(window.localStorage.getItem('access_token')).toBeNull();
    expect(api.unhandled).toEqual([]);
  });

  it('asks for the e-mail before a reset, then confirms', async () => {
    const api = mockApi({ ...CLOSED, 'POST forgot-password': { body: { msg: 'ok' } } });
    renderScreen(<LoginScreen />, '/login');
    await userEvent.click(screen.getByRole('button', { name: 'Forgot Password' }));
    expect(await screen.findByText(FORGOT_PASSWORD_NEEDS_EMAIL)).toBeInTheDocument();
    expect(actions(api)).toEqual([]);

    await userEvent.type(screen.getByLabelText('Email'), 'demo@signalboard.local');
    await userEvent.click(screen.getByRole('button', { name: 'Forgot Password' }));
    expect(await screen.findByText('Are you sure you want to reset your password?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Email sent! Please check your inbox for further instructions.')).toBeInTheDocument();
    expect(actions(api).map((call) => [call.input, call.method])).toEqual([['/api/forgot-password', 'POST']]);
    expect(api.unhandled).toEqual([]);
  });

  it("shows the server's error field when the reset fails", async () => {
    const api = mockApi({ ...CLOSED, 'POST forgot-password': { status: 429, body: { msg: 'Too many', error: 'Too many password reset attempts. Please try again in 5 minutes.' } } });
    renderScreen(<LoginScreen />, '/login');
    await userEvent.type(screen.getByLabelText('Email'), 'demo@signalboard.local');
    await userEvent.click(screen.getByRole('button', { name: 'Forgot Password' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Too many password reset attempts. Please try again in 5 minutes.')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('offers "Create an account" only when the installation has sign-up open', async () => {
    mockApi({ 'GET sign_in_options': { body: { sign_up: true, single_sign_on: null, password_form: 'everyone' } } });
    const { router } = renderRoutes(
      [
        { path: '/login', element: <LoginScreen /> },
        { path: '/sign-up', element: <div>sign-up page</div> },
      ],
      '/login',
    );
    await userEvent.click(await screen.findByRole('link', { name: 'Create an account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-up'));
  });

  it('shows no such link when sign-up is closed', async () => {
    const api = mockApi(CLOSED);
    renderScreen(<LoginScreen />, '/login');
    await waitFor(() => expect(api.calls.map((call) => call.input)).toContain('/api/sign_in_options'));
    await act(async () => undefined); // the answer's state update
    expect(screen.queryByRole('link', { name: 'Create an account' })).not.toBeInTheDocument();
  });
});
