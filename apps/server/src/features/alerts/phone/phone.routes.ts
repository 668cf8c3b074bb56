import type { FastifyInstance } from 'fastify';
import {
  type GetUserPhoneNumberResponse,
  sendVerificationCodeRequest,
  type SendVerificationCodeResponse,
  verifyCodeRequest,
  type VerifyCodeResponse,
} from '@signalboard/core';
import { parseInput } from '../../../lib/errors';
import { SEND_SUCCESS_MESSAGE, VERIFY_SUCCESS_MESSAGE, type PhoneService } from './phone.service';

/** The SMS verification card's calls (spec §7); each is the signed-in user's. */
export async function phoneRoutes(app: FastifyInstance, options: { service: PhoneService }) {
  const { service } = options;

  app.post('/send_verification_code', async (request): Promise<SendVerificationCodeResponse> => {
    const { phone_number: phoneNumber } = parseInput(sendVerificationCodeRequest, request.body);
    const { expiresInSeconds } = await service.sendCode(request.user.id, phoneNumber, request.ip);
    return { msg: SEND_SUCCESS_MESSAGE, expires_in_seconds: expiresInSeconds };
  });

  app.post('/verify_code', async (request): Promise<VerifyCodeResponse> => {
    const { phone_number: phoneNumber, verification_code: code } = parseInput(verifyCodeRequest, request.body);
    const phone = await service.verifyCode(request.user.id, phoneNumber, code);
    return { msg: VERIFY_SUCCESS_MESSAGE, ...phone };
  });

  app.get('/get_user_phone_number', async (request): Promise<GetUserPhoneNumberResponse> => service.phone(request.user.id));
}
