import { adminEndpoints, twoFactorEndpoints, type AdminInstallationResponse, type AdminUser, type AuditResponse, type MsgBody } from '@signalboard/core';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall, apiCallResponse } from '../../../lib/client';

export const adminUsersQuery = () =>
  queryOptions({
    queryKey: ['admin', 'users'],
    queryFn: async ({ signal }): Promise<AdminUser[]> => (await apiCall(adminEndpoints.adminListUsers, { signal })).users,
    retry: false,
    staleTime: 5_000,
  });

export const auditQuery = () =>
  queryOptions({
    queryKey: ['admin', 'audit'],
    queryFn: ({ signal }): Promise<AuditResponse> => apiCall(adminEndpoints.adminAuditLog, { query: { limit: 50 }, signal }),
    retry: false,
    staleTime: 5_000,
  });

/** One admin action on an account; the users and the audit log are read again after it. */
export type AdminAction =
  | { kind: 'role'; userId: number; role: 'admin' | 'member' }
  | { kind: 'active'; userId: number; active: boolean }
  | { kind: 'end-sessions'; userId: number }
  | { kind: 'reset-password'; userId: number }
  | { kind: 'reset-two-factor'; userId: number };

function run(action: AdminAction): Promise<MsgBody> {
  switch (action.kind) {
    case 'role':
      return apiCall(adminEndpoints.adminSetRole, { body: { user_id: action.userId, role: action.role } });
    case 'active':
      return apiCall(adminEndpoints.adminSetActive, { body: { user_id: action.userId, active: action.active } });
    case 'end-sessions':
      return apiCall(adminEndpoints.adminEndSessions, { body: { user_id: action.userId } });
    case 'reset-password':
      return apiCall(adminEndpoints.adminResetPassword, { body: { user_id: action.userId } });
    case 'reset-two-factor':
      return apiCall(twoFactorEndpoints.adminResetTwoFactor, { body: { user_id: action.userId } });
  }
}

export function useAdminAction() {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSettled: () => client.invalidateQueries({ queryKey: ['admin'] }) });
}

/** GET api/admin/audit.csv with the bearer header: the file's name and text. */
export async function fetchAuditCsv(): Promise<{ filename: string; text: string }> {
  const response = await apiCallResponse(adminEndpoints.adminAuditCsv, {}, 'text/csv');
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'audit-log.csv';
  return { filename, text: await response.text() };
}

/** The installation's state (GET api/admin/installation): read when the card opens and on Refresh. */
export const installationQuery = () =>
  queryOptions({
    queryKey: ['admin', 'installation'],
    queryFn: ({ signal }): Promise<AdminInstallationResponse> => apiCall(adminEndpoints.adminInstallation, { signal }),
    retry: false,
    staleTime: 5_000,
  });
