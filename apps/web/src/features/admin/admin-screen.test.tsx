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

const INVITATION = {
  id: 4,
  email: 'carol@example.com',
  role: 'member',
  source: 'admin',
  invited_by: 'owner@example.com',
  created_at: '2026-12-04T06:00:00.000Z',
  sent_at: '2026-12-04T06:00:00.000Z',
  expires_at: '2026-12-07T06:00:00.000Z',
  expired: false,
};

const INSTALLATION = {
  version: '0.1.0',
  time: '2026-12-04T10:00:00.000Z',
  status: 'ready',
  checks: [
    { name: 'database', state: 'up', required: true, latency_ms: 2, details: { kind: 'external' } },
    { name: 'queues', state: 'up', required: false, latency_ms: 4, details: { counts: { alerts: { waiting: 2, failed: 0 } } } },
  ],
  market_data: { source: 'simulated', providers: [{ name: 'Finnhub', configured: true }, { name: 'FRED', configured: false }] },
  analyst: 'local',
  mail: 'outbox',
  sms: 'outbox',
  channels: { telegram: false, push: true, webhooks: true },
  database: 'external',
  redis: true,
  sign_up: 'closed',
  alerts_evaluated_at: '2026-12-04T09:59:00.000Z',
  jobs: [{ job: 'dashboard-refresh', status: 'failed', started_at: '2026-12-04T09:00:00.000Z', finished_at: '2026-12-04T09:00:03.000Z', error: 'provider answered 503', last_success_at: '2026-12-04T08:00:05.000Z' }],
};

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
      'GET admin/invitations': { body: { invitations: [] } },
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

  it('names the single sign-on method of an account "Single sign-on"', async () => {
    mockApi({
      'GET admin/users': { body: { users: [ME, { ...BOB, sign_in_methods: ['password', 'oidc'] }, user(3, 'carol@example.com', { sign_in_methods: ['oidc'] })] } },
      'GET admin/audit': { body: { entries: [], more: false } },
      'GET admin/invitations': { body: { invitations: [] } },
      'GET admin/settings': { body: { two_factor_required: false } },
    });
    renderAdmin();
    const users = await screen.findByRole('table', { name: 'Users' });
    const row = (email: string) => within(users).getByText(email).closest('tr')!;
    expect(within(row('owner@example.com')).getByRole('cell', { name: 'Password' })).toBeInTheDocument();
    expect(within(row('bob@example.com')).getByRole('cell', { name: 'Password, Single sign-on' })).toBeInTheDocument();
    expect(within(row('carol@example.com')).getByRole('cell', { name: 'Single sign-on' })).toBeInTheDocument();
    expect(within(users).queryByText(/oidc/)).toBeNull();
  });

  it("shows the server's refusal in place of each card for a member who opens it", async () => {
    const refused = { status: 403, body: { msg: 'Only an admin of this installation can do this.' } };
    mockApi({ 'GET admin/users': refused, 'GET admin/audit': refused, 'GET admin/invitations': refused, 'GET admin/installation': refused, 'GET admin/settings': refused, 'GET admin/prices': refused });
    renderAdmin();
    expect(await screen.findByText('The accounts could not be loaded')).toBeInTheDocument();
    expect(await screen.findByText('The invitations could not be loaded')).toBeInTheDocument();
    expect(await screen.findByText('The audit log could not be loaded')).toBeInTheDocument();
    expect(await screen.findByText("The installation's state could not be loaded")).toBeInTheDocument();
    expect(await screen.findByText('The sign-in settings could not be loaded')).toBeInTheDocument();
    expect(await screen.findByText('The imported prices could not be loaded')).toBeInTheDocument();
    expect(screen.getAllByText('Only an admin of this installation can do this.')).toHaveLength(6);
  });

  it('invites (the server\'s refusal under the field), lists the pending invitations, resends and revokes after a confirm', async () => {
    const api = mockApi({
      'GET admin/users': { body: { users: [ME] } },
      'GET admin/audit': { body: { entries: [], more: false } },
      // Read again after each action: the refused invite, the invite, the resend, the revoke.
      'GET admin/invitations': inTurn(...[[], [], [INVITATION], [INVITATION], []].map((invitations) => ({ body: { invitations } }))),
      'POST admin/invite': inTurn(
        { status: 409, body: { msg: 'bob@example.com already has an account.' } },
        { body: { msg: 'Invitation sent to carol@example.com (valid 72 hours).' } },
      ),
      'POST admin/resend_invitation': { body: { msg: 'Invitation sent to carol@example.com again (valid 72 hours; the earlier link no longer works).' } },
      'POST admin/revoke_invitation': { body: { msg: 'The invitation to carol@example.com is revoked: its link no longer works.' } },
    });
    renderAdmin();
    expect(await screen.findByText('No invitation is pending.')).toBeInTheDocument();
    const field = screen.getByLabelText('E-mail to invite');
    await userEvent.type(field, 'bob@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('bob@example.com already has an account.')).toBeInTheDocument();
    await userEvent.clear(field);
    await userEvent.type(field, 'carol@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to carol@example.com (valid 72 hours).')).toBeInTheDocument();
    expect(field).toHaveValue('');
    expect(api.callsTo('admin/invite').map((call) => call.body)).toEqual([
      { email: 'bob@example.com', role: 'member' },
      { email: 'carol@example.com', role: 'member' },
    ]);
    const pending = await screen.findByRole('table', { name: 'Pending invitations' });
    expect(within(pending).getByText('carol@example.com')).toBeInTheDocument();
    expect(within(pending).getByText('owner@example.com')).toBeInTheDocument();

    await userEvent.click(within(pending).getByRole('button', { name: 'Resend the invitation to carol@example.com' }));
    expect(await screen.findByText(/^Invitation sent to carol@example.com again/)).toBeInTheDocument();
    await userEvent.click(within(pending).getByRole('button', { name: 'Revoke the invitation to carol@example.com' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Revoke the invitation to carol@example.com? Its link stops working at once.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('The invitation to carol@example.com is revoked: its link no longer works.')).toBeInTheDocument();
    expect(api.callsTo('admin/revoke_invitation').map((call) => call.body)).toEqual([{ invitation_id: 4 }]);
    expect(await screen.findByText('No invitation is pending.')).toBeInTheDocument();
  });

  it("shows the installation's readiness with details, the data source, delivery and the jobs' newest runs; Refresh reads it again", async () => {
    const api = mockApi({
      'GET admin/users': { body: { users: [ME] } },
      'GET admin/audit': { body: { entries: [], more: false } },
      'GET admin/invitations': { body: { invitations: [] } },
      'GET admin/installation': inTurn({ body: INSTALLATION }, { body: { ...INSTALLATION, status: 'not_ready', checks: [{ ...INSTALLATION.checks[0], state: 'down', msg: 'connection refused' }] } }),
    });
    renderAdmin();
    const checks = await screen.findByRole('table', { name: 'Readiness checks' });
    expect(screen.getByText('Ready')).toBeInTheDocument();
    expect(within(checks).getByText('Database')).toBeInTheDocument();
    expect(within(checks).getByText('alerts: 2 waiting, 0 failed')).toBeInTheDocument();
    expect(screen.getByText('Simulated market')).toBeInTheDocument();
    expect(screen.getByText('Finnhub')).toBeInTheDocument();
    expect(screen.getByText('Closed (invitations only)')).toBeInTheDocument();
    const jobs = screen.getByRole('table', { name: 'Scheduled jobs' });
    expect(within(jobs).getByText('Failed')).toBeInTheDocument();
    expect(within(jobs).getByText('provider answered 503')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('Not ready')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Readiness checks' })).getByText('connection refused · kind: external')).toBeInTheDocument();
    expect(api.callsTo('admin/installation')).toHaveLength(2);
  });
});
