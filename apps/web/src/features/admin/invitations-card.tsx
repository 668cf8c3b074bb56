import { Badge, Button, Group, Select, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import type { AdminInvitation } from '@signalboard/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { formatMediumDate } from '../../components/format';
import { notifySuccess } from '../../components/notify';
import { ListError, ListLoading } from '../../components/trade-ideas/list-states';
import { messageOf } from '../../lib/client';
import { invitationsQuery, useInvitationAction, type InvitationAction } from './api/invitations';
import { AdminCard } from './admin-card';
import { ConfirmAction, notifyOutcome } from './confirm-action';

export const NO_PENDING_INVITATIONS = 'No invitation is pending.';
const when = (iso: string) => formatMediumDate(Date.parse(iso) / 1000);

/**
 * The Invitations card of Administration (issue 28; docs/accounts.md): invite an e-mail (a link valid
 * 72 hours to choose a password), and the invitations still open, each to resend or revoke.
 */
export function InvitationsCard() {
  const invitations = useQuery(invitationsQuery());
  const action = useInvitationAction();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'admin' | 'member'>('member');
  const [emailError, setEmailError] = useState<string | undefined>();
  const [revoking, setRevoking] = useState<AdminInvitation | null>(null);

  const perform = (next: InvitationAction) => void notifyOutcome(action.mutateAsync(next));

  async function onInvite(event: FormEvent) {
    event.preventDefault();
    const typed = email.trim();
    if (typed === '') {
      setEmailError('Email is required');
      return;
    }
    setEmailError(undefined);
    try {
      notifySuccess((await action.mutateAsync({ kind: 'invite', email: typed, role })).msg);
      setEmail('');
      setRole('member');
    } catch (error) {
      // The server's reason (not an address, has an account, pending already) belongs under the field.
      setEmailError(messageOf(error));
    }
  }

  return (
    <AdminCard title="Invitations" description="An invitation e-mails a link that works once, for 72 hours, to a screen where its owner chooses a password.">
      <form onSubmit={onInvite} noValidate>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label="E-mail to invite"
            type="email"
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={emailError}
            style={{ flex: '1 1 16rem' }}
          />
          <Select
            label="Role"
            data={[
              { value: 'member', label: 'Member' },
              { value: 'admin', label: 'Admin' },
            ]}
            value={role}
            onChange={(value) => setRole(value === 'admin' ? 'admin' : 'member')}
            allowDeselect={false}
            w={140}
          />
          <Button type="submit" mt={25} loading={action.isPending && action.variables?.kind === 'invite'}>
            Send invitation
          </Button>
        </Group>
      </form>
      {invitations.isPending && <ListLoading message="Loading the invitations…" />}
      {invitations.isError && (
        <ListError title="The invitations could not be loaded" message={messageOf(invitations.error)} onRetry={() => void invitations.refetch()} retrying={invitations.isFetching} />
      )}
      {invitations.data && invitations.data.length === 0 && (
        <Text size="sm" c="dimmed">
          {NO_PENDING_INVITATIONS}
        </Text>
      )}
      {invitations.data && invitations.data.length > 0 && (
        <Table.ScrollContainer minWidth={720} type="native">
          <Table verticalSpacing="sm" aria-label="Pending invitations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>E-mail</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Asked by</Table.Th>
                <Table.Th>Sent</Table.Th>
                <Table.Th>Link</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invitations.data.map((invitation) => (
                <Table.Tr key={invitation.id}>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {invitation.email}
                    </Text>
                  </Table.Td>
                  <Table.Td>{invitation.role === 'admin' ? 'Admin' : 'Member'}</Table.Td>
                  <Table.Td>{invitation.source === 'sign-up' ? 'Sign-up' : (invitation.invited_by ?? 'An admin')}</Table.Td>
                  <Table.Td>{when(invitation.sent_at)}</Table.Td>
                  <Table.Td>
                    {invitation.expired ? (
                      <Badge variant="light" color="gray">
                        Expired
                      </Badge>
                    ) : (
                      <Text size="sm">Valid until {when(invitation.expires_at)}</Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap" justify="flex-end">
                      <Button
                        size="xs"
                        variant="light"
                        aria-label={`Resend the invitation to ${invitation.email}`}
                        loading={action.isPending && action.variables?.kind === 'resend' && action.variables.id === invitation.id}
                        onClick={() => perform({ kind: 'resend', id: invitation.id })}
                      >
                        Resend
                      </Button>
                      <Button size="xs" variant="subtle" color="red" aria-label={`Revoke the invitation to ${invitation.email}`} onClick={() => setRevoking(invitation)}>
                        Revoke
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ConfirmAction
        pending={revoking}
        question={(invitation) => `Revoke the invitation to ${invitation.email}? Its link stops working at once.`}
        confirmLabel="Revoke"
        onClose={() => setRevoking(null)}
        onConfirm={(invitation) => perform({ kind: 'revoke', id: invitation.id })}
      />
    </AdminCard>
  );
}
