/** Administration (issue 28; docs/accounts.md): every call answers a member 403 with a msg. */
import { z } from 'zod';
import { importedPricesResponse, priceImportQuery, priceImportResponse, removeImportedPricesRequest, adminInstallationResponse, adminInvitationRequest, adminInvitationsResponse, adminInviteRequest, adminSetActiveRequest, adminSetRoleRequest, adminUserRequest, adminUsersResponse, auditQuery, auditResponse, msgBody } from '../contract/index';
import { defineEndpoint, endpointGroup } from './define';
import { multiLineText } from '../validation/text';

export const adminEndpoints = endpointGroup({
  adminListUsers: defineEndpoint({ operationId: 'adminListUsers', method: 'get', path: '/api/admin/users', summary: 'Every account: role, state, last sign-in, sessions in use, two-factor, sign-in methods (admins only)', response: adminUsersResponse }),
  adminSetRole: defineEndpoint({ operationId: 'adminSetRole', method: 'post', path: '/api/admin/set_role', summary: 'Make an account an admin or a member; never the last active admin a member (409); logged', body: adminSetRoleRequest, response: msgBody, errors: [404, 409] }),
  adminSetActive: defineEndpoint({ operationId: 'adminSetActive', method: 'post', path: '/api/admin/set_active', summary: "Deactivate (its sessions end) or reactivate an account; never the last active admin (409); logged", body: adminSetActiveRequest, response: msgBody, errors: [404, 409] }),
  adminEndSessions: defineEndpoint({ operationId: 'adminEndSessions', method: 'post', path: '/api/admin/end_sessions', summary: "End every session of an account (its tokens are refused within a second); logged", body: adminUserRequest, response: msgBody, errors: [404] }),
  adminResetPassword: defineEndpoint({ operationId: 'adminResetPassword', method: 'post', path: '/api/admin/reset_password', summary: "E-mail the account a temporary password valid one hour, as Forgot Password does; logged", body: adminUserRequest, response: msgBody, errors: [404] }),
  adminListInvitations: defineEndpoint({ operationId: 'adminListInvitations', method: 'get', path: '/api/admin/invitations', summary: 'Invitations not yet accepted or revoked, newest first (expired ones too: they can be resent)', response: adminInvitationsResponse }),
  adminInvite: defineEndpoint({ operationId: 'adminInvite', method: 'post', path: '/api/admin/invite', summary: 'Invite an e-mail: a single-use link valid 72 hours to choose a password; 409 when it has an account or a pending invitation; at most 50 an hour per admin (429 beyond); logged', body: adminInviteRequest, response: msgBody, errors: [409, 429] }),
  adminResendInvitation: defineEndpoint({ operationId: 'adminResendInvitation', method: 'post', path: '/api/admin/resend_invitation', summary: 'Send a pending or expired invitation again: a new link valid 72 hours (the earlier link stops working); at most 50 an hour per admin (429 beyond); logged', body: adminInvitationRequest, response: msgBody, errors: [404, 409, 429] }),
  adminRevokeInvitation: defineEndpoint({ operationId: 'adminRevokeInvitation', method: 'post', path: '/api/admin/revoke_invitation', summary: 'Revoke an invitation: its link stops working; logged', body: adminInvitationRequest, response: msgBody, errors: [404] }),
  adminInstallation: defineEndpoint({ operationId: 'adminInstallation', method: 'get', path: '/api/admin/installation', summary: "The installation's state: readiness of each dependency with its details (as GET api/ready with METRICS_TOKEN), the data source and providers set up, mail, SMS and channels, sign-up, when alerts were last evaluated, and each scheduled job's newest run and success", response: adminInstallationResponse }),
  adminAuditLog: defineEndpoint({ operationId: 'adminAuditLog', method: 'get', path: '/api/admin/audit', summary: 'The admin audit log, newest first (who, what, whom, when, from where); `before` pages back', query: auditQuery, response: auditResponse }),
  adminAuditCsv: defineEndpoint({
    operationId: 'adminAuditCsv',
    method: 'get',
    path: '/api/admin/audit.csv',
    summary: 'The whole admin audit log as CSV (text/csv, attachment audit-log-YYYY-MM-DD.csv): columns id, at, actor, action, target, detail (JSON), address; a cell starting with = + - @ gets a leading apostrophe',
    response: z.string(),
    responseType: 'csv',
  }),
  adminImportedPrices: defineEndpoint({ operationId: 'adminImportedPrices', method: 'get', path: '/api/admin/prices', summary: 'The imported daily price files: each symbol with its listing, range, row count, last close, source file and when it was imported', response: importedPricesResponse }),
  adminImportPrices: defineEndpoint({
    operationId: 'adminImportPrices',
    method: 'post',
    path: '/api/admin/prices/import',
    summary:
      'Check and import one daily price file (the body, text/csv: Yahoo, Stooq, or the `format` chosen in the preview); `dry_run=true` checks only. A file with a refusal stores nothing; a stored one is one transaction, and the same file twice changes nothing; logged. 409 while another import runs; 413 over 100 MB',
    query: priceImportQuery,
    body: multiLineText('The CSV file'),
    bodyType: 'csv',
    response: priceImportResponse,
    errors: [409, 413],
  }),
  adminRemoveImportedPrices: defineEndpoint({ operationId: 'adminRemoveImportedPrices', method: 'post', path: '/api/admin/prices/remove', summary: "Remove an imported symbol and its bars (the source serves it again when it knows it); logged", body: removeImportedPricesRequest, response: z.object({ msg: z.string() }), errors: [404] }),
});
