import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { adminEndpoints, recordColumns, toCsv, type AdminInstallationResponse, type AdminUsersResponse, type AuditResponse, type MsgBody } from '@signalboard/core';
import type { Clock } from '../../lib/clock';
import { route } from '../../lib/endpoint';
import { HttpError } from '../../lib/errors';
import type { SessionUsers } from '../auth/session-users';
import type { AdminService } from './admin.service';
import type { AuditRepo, AuditRow } from './audit.repo';
import type { Installation } from './installation';

export const ADMINS_ONLY_MSG = 'Only an admin of this installation can do this.';
const AUDIT_CSV_COLUMNS = ['id', 'at', 'actor', 'action', 'target', 'detail', 'address'] as const;

/** onRequest after `authenticate`: a member's token (or a deactivated, demoted admin's) gets 403 with a msg. */
export function requireAdmin(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  done(request.user.role === 'admin' ? undefined : new HttpError(403, ADMINS_ONLY_MSG));
}

const entryOf = (row: AuditRow) => ({
  id: row.id,
  at: row.at.toISOString(),
  actor: row.actor,
  action: row.action,
  target: row.target,
  detail: row.detail,
  address: row.address,
});

/** GET/POST api/admin/* (issue 28): registered in the secured scope, behind `requireAdmin` on the server. */
export async function adminRoutes(
  app: FastifyInstance,
  options: { service: AdminService; audit: AuditRepo; sessionUsers: Pick<SessionUsers, 'invalidate'>; clock: Clock; installation: Pick<Installation, 'describe'> },
) {
  const { service, audit, sessionUsers, clock, installation } = options;
  app.addHook('onRequest', requireAdmin);
  const admin = (request: FastifyRequest) => ({ id: request.user.id, email: request.user.email, address: request.ip });

  route(app, adminEndpoints.adminListUsers, async (request): Promise<AdminUsersResponse> => ({ users: await service.listUsers(request.user.id) }));

  route(app, adminEndpoints.adminSetRole, async (request, _reply, { user_id, role }): Promise<MsgBody> => {
    const msg = await service.setRole(admin(request), user_id, role);
    sessionUsers.invalidate({ userId: user_id });
    return { msg };
  });

  route(app, adminEndpoints.adminSetActive, async (request, _reply, { user_id, active }): Promise<MsgBody> => {
    const msg = await service.setActive(admin(request), user_id, active);
    sessionUsers.invalidate({ userId: user_id });
    return { msg };
  });

  route(app, adminEndpoints.adminEndSessions, async (request, _reply, { user_id }): Promise<MsgBody> => {
    const msg = await service.endSessions(admin(request), user_id);
    sessionUsers.invalidate({ userId: user_id });
    return { msg };
  });

  route(app, adminEndpoints.adminResetPassword, async (request, _reply, { user_id }): Promise<MsgBody> => ({ msg: await service.resetPassword(admin(request), user_id) }));

  // Never cached: the card is for seeing the installation now.
  route(app, adminEndpoints.adminInstallation, async (_request, reply): Promise<AdminInstallationResponse> => {
    reply.header('cache-control', 'no-store');
    return installation.describe();
  });

  route(app, adminEndpoints.adminAuditLog, async (_request, _reply, { before, limit }): Promise<AuditResponse> => {
    const { rows, more } = await audit.page({ ...(before === undefined ? {} : { before }), limit: limit ?? 50 });
    return { entries: rows.map(entryOf), more };
  });

  route(app, adminEndpoints.adminAuditCsv, async (_request, reply) => {
    const rows = (await audit.newest()).map((row) => ({ ...entryOf(row), detail: JSON.stringify(row.detail) }));
    const day = new Date(clock.nowMs()).toISOString().slice(0, 10);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-log-${day}.csv"`)
      .send(toCsv(recordColumns(AUDIT_CSV_COLUMNS), rows));
  });
}
