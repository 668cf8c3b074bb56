/**
 * Phone verification for SMS alerts (issue 14): sending a code within the limits of
 * docs/rules/alerts.md §4.7 "Verification", checking it, and saving the verified number to the user.
 * Every query is scoped by the signed-in user's id; the per-number limit counts every user's sends
 * (it guards the phone's owner against floods, whoever asks).
 */
import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import {
  VERIFICATION_CODE_TTL_SECONDS,
  VERIFICATION_MAX_CODES_PER_NUMBER,
  VERIFICATION_MAX_CODES_PER_USER_PER_DAY,
  VERIFICATION_NUMBER_WINDOW_SECONDS,
  type GetUserPhoneNumberResponse,
} from '@signalboard/core';
import type { Database } from '../../../db/client';
import { alertChannelStatus, phoneVerificationRequests, userPhones } from '../../../db/schema';
import type { Clock } from '../../../lib/clock';
import { HttpError } from '../../../lib/errors';
import { SmsError, type Sms } from '../../../providers/sms';

const DAY_SECONDS = 24 * 60 * 60;

export const SEND_SUCCESS_MESSAGE = 'Verification code sent successfully! Please check your messages.';
export const VERIFY_SUCCESS_MESSAGE = 'Phone number verified successfully!';
export const WRONG_CODE_MESSAGE = 'Incorrect verification code. Please check the code and try again.';
export const EXPIRED_CODE_MESSAGE = 'This code has expired or was replaced by a newer one. Please send a new code.';
export const NO_CODE_SENT_MESSAGE = 'No verification code was sent to this number in the last 10 minutes. Please send a code first.';
export const MAX_CHECKS_MESSAGE = 'Too many attempts for this code. Please send a new code.';

const minutes = (seconds: number) => {
  const count = Math.max(1, Math.ceil(seconds / 60));
  return `${count} minute${count === 1 ? '' : 's'}`;
};

const tooMany = (msg: string, retryAfterSeconds: number) =>
  new HttpError(429, msg, { headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });

/** A provider failure as an answer: the provider's words are the `msg` the screen shows after 'Failed to …: '. */
function httpErrorOf(error: SmsError): HttpError {
  switch (error.kind) {
    case 'invalid_number':
    case 'blocked':
    case 'country_not_allowed':
      return new HttpError(400, error.message);
    case 'rate_limited':
    case 'max_attempts':
      return new HttpError(429, error.message);
    case 'budget_spent':
      return tooMany(error.message, error.retryAfterSeconds ?? 3600);
    default:
      return new HttpError(502, 'The SMS service is unavailable right now. Please try again later.');
  }
}

export interface PhoneServiceDeps {
  db: Database;
  sms: Sms;
  clock: Clock;
  log: { warn(object: unknown, message: string): void };
  /** Codes per client address, and for the whole installation, per 24 hours (VERIFICATION_MAX_PER_ADDRESS_PER_DAY, VERIFICATION_MAX_PER_DAY). */
  limits: { perAddressPerDay: number; perDay: number };
}

/** A wait of up to a day in words: minutes under an hour, else hours. */
const dayWait = (wait: number) => (wait < 3600 ? minutes(wait) : `${Math.max(1, Math.ceil(wait / 3600))} hours`);

export function createPhoneService({ db, sms, clock, log, limits }: PhoneServiceDeps) {
  const since = (seconds: number) => new Date(clock.nowMs() - seconds * 1000);
  const fail = (error: unknown): never => {
    if (error instanceof SmsError) {
      if (error.kind === 'unavailable') log.warn({ err: error }, 'SMS provider failed');
      throw httpErrorOf(error);
    }
    throw error;
  };

  return {
    /** Sends a code to `phoneNumber` for `userId` asking from `clientAddress`, or answers 429 when a limit is reached. */
    async sendCode(userId: number, phoneNumber: string, clientAddress: string): Promise<{ expiresInSeconds: number }> {
      const requestId = await db.transaction(async (tx) => {
        // One send at a time in the installation (the daily counts below cover it all), then per user
        // and per number as before: the counts cannot pass a limit together.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('sms-codes'))`);
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sms-user:${userId}`}))`);
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sms-number:${phoneNumber}`}))`);
        const toNumber = await tx
          .select({ createdAt: phoneVerificationRequests.createdAt })
          .from(phoneVerificationRequests)
          .where(and(eq(phoneVerificationRequests.phoneNumber, phoneNumber), gt(phoneVerificationRequests.createdAt, since(VERIFICATION_NUMBER_WINDOW_SECONDS))))
          .orderBy(asc(phoneVerificationRequests.createdAt));
        if (toNumber.length >= VERIFICATION_MAX_CODES_PER_NUMBER) {
          const wait = toNumber[0]!.createdAt.getTime() / 1000 + VERIFICATION_NUMBER_WINDOW_SECONDS - clock.nowMs() / 1000;
          throw tooMany(
            `Too many verification codes were sent to this number (at most ${VERIFICATION_MAX_CODES_PER_NUMBER} in 10 minutes). Please wait ${minutes(wait)} and try again.`,
            wait,
          );
        }
        const byUser = await tx
          .select({ createdAt: phoneVerificationRequests.createdAt })
          .from(phoneVerificationRequests)
          .where(and(eq(phoneVerificationRequests.userId, userId), gt(phoneVerificationRequests.createdAt, since(DAY_SECONDS))))
          .orderBy(asc(phoneVerificationRequests.createdAt));
        if (byUser.length >= VERIFICATION_MAX_CODES_PER_USER_PER_DAY) {
          const wait = byUser[0]!.createdAt.getTime() / 1000 + DAY_SECONDS - clock.nowMs() / 1000;
          const hours = Math.max(1, Math.ceil(wait / 3600));
          throw tooMany(
            `You have asked for ${VERIFICATION_MAX_CODES_PER_USER_PER_DAY} verification codes in the last 24 hours, the most allowed. Please try again in ${wait < 3600 ? minutes(wait) : `${hours} hours`}.`,
            wait,
          );
        }
        const fromAddress = await tx
          .select({ createdAt: phoneVerificationRequests.createdAt })
          .from(phoneVerificationRequests)
          .where(and(eq(phoneVerificationRequests.clientAddress, clientAddress), gt(phoneVerificationRequests.createdAt, since(DAY_SECONDS))))
          .orderBy(asc(phoneVerificationRequests.createdAt))
          .limit(limits.perAddressPerDay);
        if (fromAddress.length >= limits.perAddressPerDay) {
          const wait = fromAddress[0]!.createdAt.getTime() / 1000 + DAY_SECONDS - clock.nowMs() / 1000;
          throw tooMany(
            `Too many verification codes were asked for from your network address (at most ${limits.perAddressPerDay} in 24 hours). Please try again in ${dayWait(wait)}.`,
            wait,
          );
        }
        const installation = await tx
          .select({ createdAt: phoneVerificationRequests.createdAt })
          .from(phoneVerificationRequests)
          .where(gt(phoneVerificationRequests.createdAt, since(DAY_SECONDS)))
          .orderBy(asc(phoneVerificationRequests.createdAt))
          .limit(limits.perDay);
        if (installation.length >= limits.perDay) {
          const wait = installation[0]!.createdAt.getTime() / 1000 + DAY_SECONDS - clock.nowMs() / 1000;
          throw tooMany(
            `This installation has sent the most verification codes it may send in 24 hours (${limits.perDay}). Please try again in ${dayWait(wait)}.`,
            wait,
          );
        }
        const [row] = await tx
          .insert(phoneVerificationRequests)
          .values({ userId, phoneNumber, clientAddress, createdAt: new Date(clock.nowMs()) })
          .returning({ id: phoneVerificationRequests.id });
        return row!.id;
      });
      try {
        await sms.sendVerification(phoneNumber);
      } catch (error) {
        // A code that was not sent does not count against the limits.
        await db.delete(phoneVerificationRequests).where(eq(phoneVerificationRequests.id, requestId));
        fail(error);
      }
      return { expiresInSeconds: VERIFICATION_CODE_TTL_SECONDS };
    },

    /** Checks `code`; when it is right, `phoneNumber` becomes the user's number (SMS enabled). */
    async verifyCode(userId: number, phoneNumber: string, code: string): Promise<{ phoneNumber: string; smsEnabled: boolean }> {
      // The user's newest send to this number of the last day: none → ask for one; older than a
      // code lives → the code the user holds has expired.
      const [sent] = await db
        .select({ createdAt: phoneVerificationRequests.createdAt })
        .from(phoneVerificationRequests)
        .where(
          and(
            eq(phoneVerificationRequests.userId, userId),
            eq(phoneVerificationRequests.phoneNumber, phoneNumber),
            gt(phoneVerificationRequests.createdAt, since(DAY_SECONDS)),
          ),
        )
        .orderBy(desc(phoneVerificationRequests.createdAt))
        .limit(1);
      if (!sent) throw new HttpError(400, NO_CODE_SENT_MESSAGE);
      if (sent.createdAt <= since(VERIFICATION_CODE_TTL_SECONDS)) throw new HttpError(400, EXPIRED_CODE_MESSAGE);
      let result;
      try {
        result = await sms.checkVerification(phoneNumber, code);
      } catch (error) {
        return fail(error);
      }
      switch (result) {
        case 'wrong':
          throw new HttpError(400, WRONG_CODE_MESSAGE);
        case 'expired':
          throw new HttpError(400, EXPIRED_CODE_MESSAGE);
        case 'max_attempts':
          throw new HttpError(429, MAX_CHECKS_MESSAGE);
        case 'approved':
          break;
      }
      const verifiedAt = new Date(clock.nowMs());
      await db.transaction(async (tx) => {
        const [before] = await tx.select({ phoneNumber: userPhones.phoneNumber }).from(userPhones).where(eq(userPhones.userId, userId)).for('update');
        await tx
          .insert(userPhones)
          .values({ userId, phoneNumber, smsEnabled: true, verifiedAt })
          .onConflictDoUpdate({ target: userPhones.userId, set: { phoneNumber, smsEnabled: true, verifiedAt } });
        // A verified number clears the SMS channel's problem (issue 15); a STOP stays with the number that sent it.
        const changed = before?.phoneNumber !== phoneNumber;
        await tx
          .update(alertChannelStatus)
          .set({ problem: null, problemAt: null, updatedAt: verifiedAt, ...(changed ? { optedOutAt: null } : {}) })
          .where(and(eq(alertChannelStatus.userId, userId), eq(alertChannelStatus.channel, 'sms')));
      });
      return { phoneNumber, smsEnabled: true };
    },

    /** The user's verified number, or {} when none is on file. */
    async phone(userId: number): Promise<GetUserPhoneNumberResponse> {
      const [row] = await db
        .select({ phoneNumber: userPhones.phoneNumber, smsEnabled: userPhones.smsEnabled })
        .from(userPhones)
        .where(eq(userPhones.userId, userId));
      return row ? { phoneNumber: row.phoneNumber, smsEnabled: row.smsEnabled } : {};
    },
  };
}

export type PhoneService = ReturnType<typeof createPhoneService>;
