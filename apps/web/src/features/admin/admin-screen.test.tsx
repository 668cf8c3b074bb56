import { notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inTurn, mockApi } from '../../test/mock-api';
import { renderScreen } from '../../test/render';
import { AdminScreen } from './admin-screen';

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
});

const user = (id: number, email: string, extra: Record<string, unknown> = {}) => ({
  id,
  email,
  role: 'member',
  active: true,
  first_login: false,
  created_at: '2026-12-01T10:00:00.000Z',
  last_sign_in_at: '2026-12-04T06:00:00.000Z',
  sessions: 1,
  two_factor: false,
  sign_in_methods: ['password'],
  you: false,
  ...extra,
});
const ME = user(1, 'owner@example.com', { role: 'admin', you: true });
const BOB = user(2, 'bob@example.com');
const ENTRY = { id: 9, at: '2026-12-04T06:10:00.000Z', actor: 'owner@example.com', action: 'set-role', target: 'bob@example.com', detail: { from: 'admin', to: 'member' }, address: '203.0.113.7' };

function renderAdmin() {
  return renderScreen(
    <QueryClientProvider client={new QueryClient()}>
      <AdminScreen />
    </QueryClientProvider>,
    '/dashboard/admin',
  );
}

describe('AdminScreen', { timeout: 15_000 }, () => {
  it('lists the accounts and the audit log; deactivates an account after a confirm', async () => {
    const api = mockApi({
      'GET admin/users': inTurn({ body: { users: [ME, BOB] } }, { body: { users: [ME, { ...BOB, active: false, sessions: 0 }] } }),
      'GET admin/audit': inTurn({ body: { entries: [ENTRY], more: false } }, { body: { entries: [ENTRY], more: false } }),
      'POST admin/set_active': { body: { msg: 'bob@example.com is deactivated; 1 session ended.' } },
      'GET admin/settings': { body: { two_factor_required: false } },
    });
    renderAdmin();
    const users = await screen.findByRole('table', { name: 'Users' });
    expect(within(users).getByText('You')).toBeInTheDocument();
    const audit = await screen.findByRole('table', { name: 'Audit log' });
    expect(within(audit).getByText('admin → member')).toBeInTheDocument();
    expect(within(audit).getByText('203.0.113.7')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Actions for bob@example.com' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Deactivate' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/^Deactivate bob@example.com\? Their sessions end at once/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('bob@example.com is deactivated; 1 session ended.')).toBeInTheDocument();
    expect(api.callsTo('admin/set_active').map((call) => call.body)).toEqual([{ user_id: 2, active: false }]);
    await waitFor(() => expect(within(users).getByText('Deactivated')).toBeInTheDocument());
  });

  it("shows the server's refusal in place of each card for a member who opens it", async () => {
    const refused = { status: 403, body: { msg: 'Only an admin of this installation can do this.' } };
    mockApi({ 'GET admin/users': refused, 'GET admin/audit': refused, 'GET admin/settings': refused });
    renderAdmin();
    expect(await screen.findByText('The accounts could not be loaded')).toBeInTheDocument();
    expect(await screen.findByText('The audit log could not be loaded')).toBeInTheDocument();
    expect(await screen.findByText('The sign-in settings could not be loaded')).toBeInTheDocument();
    expect(screen.getAllByText('Only an admin of this installation can do this.')).toHaveLength(3);
  });
});
