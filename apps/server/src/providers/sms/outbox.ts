import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { VERIFICATION_CODE_DIGITS, VERIFICATION_CODE_TTL_SECONDS, VERIFICATION_MAX_CHECKS_PER_CODE } from '@signalboard/core';
import type { Database } from '../../db/client';
import { outboxSms, smsVerificationCodes } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { SmsError, type Sms, type SmsMessage, type VerificationCheck } from './types';

/** The text of a verification SMS (the outbox row keeps it with the code masked). */
export const verificationText = (code: string) =>
  `Your Signalboard verification code is ${code}. It is valid for ${VERIFICATION_CODE_TTL_SECONDS / 60} minutes.`;

/** A fresh code: 6 decimal digits, uniformly drawn. */
export const newCode = () => String(randomInt(0, 10 ** VERIFICATION_CODE_DIGITS)).padStart(VERIFICATION_CODE_DIGITS, '0');

export function hashCode(key: string, salt: string, phoneNumber: string, code: string): string {
  return createHmac('sha256', key).update(`${salt}:${phoneNumber}:${code}`).digest('hex');
}

/**
 * The embedded SMS provider. Codes are made here (6 digits), stored only as an HMAC (keyed by
 * `hashKey`, salted per row) with their expiry and check count. Every SMS is recorded in the
 * outbox_sms table and then written to DATA_DIR/sms-outbox/<time>-<id>.txt (the row first: an SMS
 * the database refuses is never "sent"; a file that cannot be written takes its row back out).
 */
export function createOutboxSms(options: { db: Database; dir: string; clock: Clock; hashKey: string }): Sms {
  const { db, clock } = options;
  const now = () => new Date(clock.nowMs());

  async function deliver(kind: 'verification' | 'message', to: string, text: string, recorded: string): Promise<{ id: string }> {
    try {
      const stamp = now().toISOString().replace(/[:.]/g, '-');
      const [row] = await db
        .insert(outboxSms)
        .values({ toNumber: to, kind, body: recorded, filePath: '', createdAt: now() })
        .returning({ id: outboxSms.id });
      // Named by time, then by the row's id (zero-padded): sorted by name, the newest SMS is last,
      // also when two share a millisecond (or a test's clock stands still).
      const file = path.join(options.dir, `${stamp}-${String(row!.id).padStart(10, '0')}.txt`);
      try {
        await db.update(outboxSms).set({ filePath: file }).where(eq(outboxSms.id, row!.id));
        await fs.mkdir(options.dir, { recursive: true });
        await fs.writeFile(file, `To: ${to}\nDate: ${now().toISOString()}\n\n${text}\n`, { mode: 0o600, flag: 'wx' });
      } catch (error) {
        await db.delete(outboxSms).where(eq(outboxSms.id, row!.id)).catch(() => undefined);
        throw error;
      }
      return { id: String(row!.id) };
    } catch (error) {
      throw new SmsError('unavailable', `SMS outbox delivery failed: ${(error as Error).message}`);
    }
  }

  return {
    kind: 'outbox',

    async sendVerification(to: string) {
      const code = newCode();
      const salt = randomBytes(16).toString('hex');
      const [row] = await db.transaction(async (tx) => {
        await tx
          .update(smsVerificationCodes)
          .set({ closedAt: now() })
          .where(and(eq(smsVerificationCodes.phoneNumber, to), isNull(smsVerificationCodes.closedAt)));
        return tx
          .insert(smsVerificationCodes)
          .values({
            phoneNumber: to,
            codeSalt: salt,
            codeHash: hashCode(options.hashKey, salt, to, code),
            expiresAt: new Date(clock.nowMs() + VERIFICATION_CODE_TTL_SECONDS * 1000),
            createdAt: now(),
          })
          .returning({ id: smsVerificationCodes.id });
      });
      try {
        await deliver('verification', to, verificationText(code), verificationText('•'.repeat(VERIFICATION_CODE_DIGITS)));
      } catch (error) {
        // A code that never left does not count as sent.
        await db.delete(smsVerificationCodes).where(eq(smsVerificationCodes.id, row!.id)).catch(() => undefined);
        throw error;
      }
    },

    async checkVerification(to: string, code: string): Promise<VerificationCheck> {
      return db.transaction(async (tx) => {
        const [live] = await tx
          .select()
          .from(smsVerificationCodes)
          .where(and(eq(smsVerificationCodes.phoneNumber, to), isNull(smsVerificationCodes.closedAt)))
          .orderBy(desc(smsVerificationCodes.createdAt), desc(smsVerificationCodes.id))
          .limit(1)
          .for('update');
        if (!live || live.expiresAt.getTime() <= clock.nowMs()) return 'expired';
        if (live.checkCount >= VERIFICATION_MAX_CHECKS_PER_CODE) return 'max_attempts';
        const expected = Buffer.from(live.codeHash, 'hex');
        const given = Buffer.from(hashCode(options.hashKey, live.codeSalt, to, code), 'hex');
        const approved = expected.length === given.length && timingSafeEqual(expected, given);
        await tx
          .update(smsVerificationCodes)
          .set({ checkCount: sql`${smsVerificationCodes.checkCount} + 1`, ...(approved ? { closedAt: now() } : {}) })
          .where(eq(smsVerificationCodes.id, live.id));
        return approved ? 'approved' : 'wrong';
      });
    },

    async send(message: SmsMessage) {
      return deliver('message', message.to, message.body, message.body);
    },
  };
}
