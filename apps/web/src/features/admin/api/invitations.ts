import { adminEndpoints, type AdminInvitation, type MsgBody } from '@signalboard/core';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

export const invitationsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'invitations'],
    queryFn: async ({ signal }): Promise<AdminInvitation[]> => (await apiCall(adminEndpoints.adminListInvitations, { signal })).invitations,
    retry: false,
    staleTime: 5_000,
  });

/** Invite, resend or revoke; the invitations and the audit log are read again after it. */
export type InvitationAction =
  | { kind: 'invite'; email: string; role: 'admin' | 'member' }
  | { kind: 'resend'; id: number }
  | { kind: 'revoke'; id: number };

function run(action: InvitationAction): Promise<MsgBody> {
  switch (action.kind) {
    case 'invite':
      return apiCall(adminEndpoints.adminInvite, { body: { email: action.email, role: action.role } });
    case 'resend':
      return apiCall(adminEndpoints.adminResendInvitation, { body: { invitation_id: action.id } });
    case 'revoke':
      return apiCall(adminEndpoints.adminRevokeInvitation, { body: { invitation_id: action.id } });
  }
}

export function useInvitationAction() {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSettled: () => client.invalidateQueries({ queryKey: ['admin'] }) });
}
