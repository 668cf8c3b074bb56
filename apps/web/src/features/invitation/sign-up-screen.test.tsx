import { notifications } from '@mantine/notifications';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inTurn, mockApi } from '../../test/mock-api';
import { renderScreen } from '../../test/render';
import { SignUpScreen } from './sign-up-screen';

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
});

const SENT = 'Check your e-mail: a link to create your account is on its way.';

describe('SignUpScreen', () => {
  it('asks for the e-mail, then says a link is on its way', async () => {
    const api = mockApi({ 'POST sign_up': { body: { msg: SENT } } });
    renderScreen(<SignUpScreen />, '/sign-up');
    await userEvent.click(screen.getByRole('button', { name: 'Send me a link' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(api.calls).toEqual([]);
    await userEvent.type(screen.getByLabelText('Email'), 'new@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send me a link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(SENT);
    expect(api.calls[0]!.body).toEqual({ email: 'new@example.com' });
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
  });

  it("shows the server's refusal under the field (a malformed address) and its msg when sign-up is closed", async () => {
    mockApi({
      'POST sign_up': inTurn(
        { status: 400, body: { msg: 'Email must be an e-mail address' } },
        { status: 403, body: { msg: 'Sign-up is closed on this installation: ask its admin for an invitation.' } },
      ),
    });
    renderScreen(<SignUpScreen />, '/sign-up');
    await userEvent.type(screen.getByLabelText('Email'), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Send me a link' }));
    expect(await screen.findByText('Email must be an e-mail address')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send me a link' }));
    expect(await screen.findByText('Sign-up is closed on this installation: ask its admin for an invitation.')).toBeInTheDocument();
  });
});
