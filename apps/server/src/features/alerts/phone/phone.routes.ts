import type { FastifyInstance } from 'fastify';
import { alertsEndpoints, type GetUserPhoneNumberResponse, type SendVerificationCodeResponse, type VerifyCodeResponse } from '@signalboard/core';
import { route } from '../../../lib/endpoint';
import { SEND_SUCCESS_MESSAGE, VERIFY_SUCCESS_MESSAGE, type PhoneService } from './phone.service';

/** The SMS verification card's calls (spec §7); each is the signed-in user's. */
export async function phoneRoutes(app: FastifyInstance, options: { service: PhoneService }) {
  const { service } = options;

  route(app, alertsEndpoints.sendVerificationCode, async (request, _reply, { phone_number: phoneNumber }): Promise<SendVerificationCodeResponse> => {
    const { expiresInSeconds } = await service.sendCode(request.user.id, phoneNumber, request.ip);
    return { msg: SEND_SUCCESS_MESSAGE, expires_in_seconds: expiresInSeconds };
  });

  route(app, alertsEndpoints.verifyCode, async (request, _reply, { phone_number: phoneNumber, verification_code: code }): Promise<VerifyCodeResponse> => {
    const phone = await service.verifyCode(request.user.id, phoneNumber, code);
    return { msg: VERIFY_SUCCESS_MESSAGE, ...phone };
  });

  route(app, alertsEndpoints.getUserPhoneNumber, async (request): Promise<GetUserPhoneNumberResponse> => service.phone(request.user.id));
}
