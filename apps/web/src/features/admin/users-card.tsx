import { Badge, Button, Group, Menu, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { AdminUser } from '@signalboard/core';
import { IconDots } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatMediumDate } from '../../components/format';
import { ListError, ListLoading } from '../../components/trade-ideas/list-states';
import { messageOf } from '../../lib/client';
import { adminUsersQuery, useAdminAction, type AdminAction } from './api/admin';
import { AdminCard } from './admin-card';
import { ConfirmAction, notifyOutcome } from './confirm-action';

const at = (iso: string | null) => (iso === null ? 'Never' : formatMediumDate(Date.parse(iso) / 1000));
/** How a sign-in method reads in the table ('oidc': the installation's provider, issue 28); an unknown one as the server names it. */
const METHOD_NAMES = new Map([
  ['password', 'Password'],
  ['oidc', 'Single sign-on'],
]);

/** What each action asks before it runs (the reversible role change asks nothing). */
function questionOf(action: AdminAction, user: AdminUser): string | null {
  switch (action.kind) {
    case 'active':
      return action.active ? null : `Deactivate ${user.email}? Their sessions end at once and they cannot sign in until reactivated.`;
    case 'end-sessions':
      return `End every session of ${user.email}? Each of their devices will have to sign in again.`;
    case 'reset-password':
      return `E-mail ${user.email} a temporary password? It works for one hour; their current password keeps working until they use it.`;
    case 'reset-two-factor':
      return `Turn off two-factor sign-in for ${user.email} (a lost phone)? Their sessions end; they sign in with their password alone, or set it up again if the installation requires it.`;
    case 'role':
      return null;
  }
}

/** The Users card of Administration (issue 28): every account, with what an admin may do to it. */
export function UsersCard() {
  const users = useQuery(adminUsersQuery());
  const action = useAdminAction();
  const [confirming, setConfirming] = useState<{ action: AdminAction; question: string } | null>(null);

  const perform = (next: AdminAction) => void notifyOutcome(action.mutateAsync(next));
  function ask(next: AdminAction, user: AdminUser) {
    const question = questionOf(next, user);
    if (question) setConfirming({ action: next, question });
    else perform(next);
  }

  return (
    <AdminCard title="Users" description="Every account of this installation. Members see the product; admins also see this screen.">
      {users.isPending && <ListLoading message="Loading the accounts…" />}
      {users.isError && <ListError title="The accounts could not be loaded" message={messageOf(users.error)} onRetry={() => void users.refetch()} retrying={users.isFetching} />}
      {users.data && (
        <Table.ScrollContainer minWidth={760} type="native">
          <Table verticalSpacing="sm" highlightOnHover aria-label="Users">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>E-mail</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Last sign-in</Table.Th>
                <Table.Th>Sessions</Table.Th>
                <Table.Th>Two-factor</Table.Th>
                <Table.Th>Sign-in methods</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.data.map((user) => (
                <UserRow key={user.id} user={user} busy={action.isPending && action.variables?.userId === user.id} onAction={(next) => ask(next, user)} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ConfirmAction
        pending={confirming}
        question={(asked) => asked.question}
        confirmLabel="Confirm"
        onClose={() => setConfirming(null)}
        onConfirm={(asked) => perform(asked.action)}
      />
    </AdminCard>
  );
}

function UserRow({ user, busy, onAction }: { user: AdminUser; busy: boolean; onAction: (action: AdminAction) => void }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={600}>
            {user.email}
          </Text>
          {user.you && (
            <Badge size="xs" variant="light" style={{ flexShrink: 0 }}>
              You
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>{user.role === 'admin' ? 'Admin' : 'Member'}</Table.Td>
      <Table.Td>
        <Stack gap={2} align="flex-start">
          <Badge variant="light" color={user.active ? 'teal' : 'gray'}>
            {user.active ? 'Active' : 'Deactivated'}
          </Badge>
          {user.active && user.first_login && (
            <Text size="xs" c="dimmed">
              First login pending
            </Text>
          )}
        </Stack>
      </Table.Td>
      <Table.Td>{at(user.last_sign_in_at)}</Table.Td>
      <Table.Td>{user.sessions}</Table.Td>
      <Table.Td>{user.two_factor ? 'On' : 'Off'}</Table.Td>
      <Table.Td>{user.sign_in_methods.map((method) => METHOD_NAMES.get(method) ?? method).join(', ')}</Table.Td>
      <Table.Td>
        {/* No focus placeholder: a focusable element in role="menu" that is no menuitem (axe: aria-required-children). */}
        <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
          <Menu.Target>
            <Button variant="subtle" size="xs" loading={busy} aria-label={`Actions for ${user.email}`}>
              <IconDots size={16} aria-hidden />
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => onAction({ kind: 'role', userId: user.id, role: user.role === 'admin' ? 'member' : 'admin' })}>
              {user.role === 'admin' ? 'Make member' : 'Make admin'}
            </Menu.Item>
            <Menu.Item onClick={() => onAction({ kind: 'active', userId: user.id, active: !user.active })}>{user.active ? 'Deactivate' : 'Reactivate'}</Menu.Item>
            <Menu.Item disabled={user.sessions === 0} onClick={() => onAction({ kind: 'end-sessions', userId: user.id })}>
              End all sessions
            </Menu.Item>
            <Menu.Item disabled={!user.active} onClick={() => onAction({ kind: 'reset-password', userId: user.id })}>
              Reset password
            </Menu.Item>
            {user.two_factor && <Menu.Item onClick={() => onAction({ kind: 'reset-two-factor', userId: user.id })}>Reset two-factor</Menu.Item>}
          </Menu.Dropdown>
        </Menu>
      </Table.Td>
    </Table.Tr>
  );
}
