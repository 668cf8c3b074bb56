import type { FastifyInstance, FastifyRequest } from 'fastify';
import { twoFactorEndpoints, type AdminSettingsResponse, type MsgBody } from '@signalboard/core';
import { route } from '../../lib/endpoint';
import { HttpError } from '../../lib/errors';
import { NO_SUCH_ACCOUNT_MSG } from '../admin/admin.service';
import { requireAdmin } from '../admin/admin.routes';
import type { AuditRepo } from '../admin/audit.repo';
import type { SessionUsers } from '../auth/session-users';
import type { UsersRepo } from '../auth/users.repo';
import type { TwoFactorService } from './two-factor.service';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The admin's two-factor calls (api/admin/settings, require_two_factor, reset_two_factor): behind the
 * same admin check as the rest of api/admin/*, each action written to the audit log.
 */
export async function twoFactorAdminRoutes(
  app: FastifyInstance,
  options: { service: TwoFactorService; users: Pick<UsersRepo, 'findById'>; audit: Pick<AuditRepo, 'record'>; sessionUsers: Pick<SessionUsers, 'invalidate'> },
) {
  const { service, users, audit, sessionUsers } = options;
  app.addHook('onRequest', requireAdmin);
  const actor = (request: FastifyRequest) => ({ userId: request.user.id, email: request.user.email, address: request.ip });

  route(app, twoFactorEndpoints.adminSettings, async (): Promise<AdminSettingsResponse> => ({ two_factor_required: await service.required() }));

  route(app, twoFactorEndpoints.adminRequireTwoFactor, async (request, _reply, { required }): Promise<MsgBody> => {
    const before = await service.required();
    await service.setRequired(required);
    await audit.record(actor(request), { action: 'require-two-factor', detail: { from: before, to: required } });
    return {
      msg: required
        ? 'Two-factor sign-in is required: accounts without it are led to turn it on at their next sign-in.'
        : 'Two-factor sign-in is no longer required.',
    };
  });

  route(app, twoFactorEndpoints.adminResetTwoFactor, async (request, _reply, { user_id }): Promise<MsgBody> => {
    const user = await users.findById(user_id);
    if (!user) throw new HttpError(404, NO_SUCH_ACCOUNT_MSG);
    const { wasOn, sessionsEnded } = await service.reset(user_id);
    sessionUsers.invalidate({ userId: user_id });
    await audit.record(actor(request), { action: 'reset-two-factor', target: user, detail: { was_on: wasOn, sessions_ended: sessionsEnded } });
    return { msg: `Two-factor sign-in of ${user.email} is off; ${plural(sessionsEnded, 'session', 'sessions')} ended.` };
  });
}
