import type {
  ForgotPasswordRequest,
  LoginRequest,
  LoginResponse,
  MsgBody,
  UpdatePasswordRequest,
} from '@signalboard/core';
import { apiRequest } from './client';

export const login = (body: LoginRequest) =>
  apiRequest<LoginResponse>('login', { json: body, anonymous: true });

export const forgotPassword = (body: ForgotPasswordRequest) =>
  apiRequest<MsgBody>('forgot-password', { json: body, anonymous: true });

export const updatePassword = (body: UpdatePasswordRequest) =>
  apiRequest<MsgBody>('update-password', { json: body });

