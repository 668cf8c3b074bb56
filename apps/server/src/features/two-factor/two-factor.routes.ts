import type { FastifyInstance } from 'fastify';
import { twoFactorEndpoints, type MsgBody, type TwoFactorRecoveryCodesResponse, type TwoFactorSetupResponse, type TwoFactorStateResponse } from '@signalboard/core';
import { route } from '../../lib/endpoint';
import type { UserLimit } from '../../lib/user-limit';
import type { SessionUsers } from '../auth/session-users';
import type { TwoFactorService } from './two-factor.service';

/** The signed-in user's two-factor calls (api/two_factor/*; docs/accounts.md "Two-factor sign-in"). */
export async function twoFactorRoutes(app: FastifyInstance, options: { service: TwoFactorService; sessionUsers: Pick<SessionUsers, 'invalidate'>; codeLimit: UserLimit }) {
  const { service, sessionUsers, codeLimit } = options;

  route(app, twoFactorEndpoints.twoFactorState, async (request): Promise<TwoFactorStateResponse> => service.state(request.user.id));

  route(app, twoFactorEndpoints.twoFactorSetup, async (request): Promise<TwoFactorSetupResponse> => service.setup(request.user.id, request.user.email));

  // Each call that checks a code counts, right or wrong, before it is checked (codeLimit: 429 beyond).
  route(app, twoFactorEndpoints.twoFactorEnable, async (request, _reply, { code }): Promise<TwoFactorRecoveryCodesResponse> => {
    await codeLimit.hit(request.user.id);
    const recovery_codes = await service.enable(request.user.id, code);
    // Its sessions that waited for two-factor (the installation requires it) may do everything now.
    sessionUsers.invalidate({ userId: request.user.id });
    return { msg: 'Two-factor sign-in is on. Save your recovery codes: they are shown only this once.', recovery_codes };
  });

  route(app, twoFactorEndpoints.twoFactorDisable, async (request, _reply, { code }): Promise<MsgBody> => {
    await codeLimit.hit(request.user.id);
    await service.disable(request.user.id, code);
    return { msg: 'Two-factor sign-in is off.' };
  });

  route(app, twoFactorEndpoints.twoFactorRecoveryCodes, async (request, _reply, { code }): Promise<TwoFactorRecoveryCodesResponse> => {
    await codeLimit.hit(request.user.id);
    return {
      msg: 'New recovery codes: the earlier ones no longer work. Save these: they are shown only this once.',
      recovery_codes: await service.regenerateRecoveryCodes(request.user.id, code),
    };
  });
}
