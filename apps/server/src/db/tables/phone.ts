/** Verified phone numbers and their verification codes. */
import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * The user's verified phone number for SMS alerts (issue 14): written only by POST api/verify_code
 * once a code sent to the number has been entered; read by GET api/get_user_phone_number.
 */
export const userPhones = pgTable('user_phones', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** E.164. */
  phoneNumber: text('phone_number').notNull(),
  smsEnabled: boolean('sms_enabled').notNull().default(true),
  verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull(),
});

/**
 * One row per verification code a user asked for (POST api/send_verification_code), whatever the
 * SMS provider: the limits of docs/rules/alerts.md count them (3 per number per 10 minutes, 10 per
 * user per day), and a check needs the user's own recent send to that number.
 */
export const phoneVerificationRequests = pgTable(
  'phone_verification_requests',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    phoneNumber: text('phone_number').notNull(),
    /** The address the request came from (request.ip): the per-address daily limit counts it. */
    clientAddress: text('client_address'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('phone_verification_requests_user').on(table.userId, table.createdAt),
    index('phone_verification_requests_number').on(table.phoneNumber, table.createdAt),
    index('phone_verification_requests_address').on(table.clientAddress, table.createdAt),
    index('phone_verification_requests_created').on(table.createdAt),
  ],
);

/**
 * The codes of the outbox SMS provider (Twilio Verify keeps its own): 6 digits, stored only as a
 * keyed hash (HMAC-SHA256 with a per-row salt), valid until expires_at, at most 5 checks. A new code
 * for a number closes the number's earlier ones (closed_at).
 */
export const smsVerificationCodes = pgTable(
  'sms_verification_codes',
  {
    id: serial('id').primaryKey(),
    phoneNumber: text('phone_number').notNull(),
    codeSalt: text('code_salt').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    checkCount: integer('check_count').notNull().default(0),
    /** Set when the code was approved or replaced by a newer one. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('sms_verification_codes_number').on(table.phoneNumber, table.createdAt)],
);
