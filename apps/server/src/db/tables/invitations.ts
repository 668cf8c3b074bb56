/**
 * Invitations (issue 28; docs/accounts.md): an admin invites an e-mail, or (SIGNUP=open) a visitor asks
 * for an account; either way the e-mail gets a single-use link, valid 72 hours, to a screen where the
 * invitee chooses a password. Only the link's SHA-256 is stored: the database never holds a usable link.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users, type UserRole } from './users';

/** Who asked for the account: an admin (Administration) or the visitor (SIGNUP=open). */
export const INVITATION_SOURCES = ['admin', 'sign-up'] as const;
export type InvitationSource = (typeof INVITATION_SOURCES)[number];

export const invitations = pgTable(
  'invitations',
  {
    id: serial('id').primaryKey(),
    /** Lower-cased, as users.email. */
    email: text('email').notNull(),
    /** The role the account gets when the invitation is accepted. */
    role: text('role').$type<UserRole>().notNull().default('member'),
    source: text('source').$type<InvitationSource>().notNull().default('admin'),
    /** SHA-256 (hex) of the link's token; a resend replaces it, so the earlier link stops working. */
    tokenHash: text('token_hash').notNull(),
    invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the current link was sent (the invitation's creation or its last resend). */
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedUserId: integer('accepted_user_id').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('invitations_token_hash_unique').on(table.tokenHash),
    // At most one open invitation per e-mail: inviting again resends it.
    uniqueIndex('invitations_open_email_unique').on(table.email).where(sql`${table.acceptedAt} is null and ${table.revokedAt} is null`),
    index('invitations_created_idx').on(table.createdAt),
    check('invitations_role_known', sql`${table.role} in ('admin', 'member')`),
    check('invitations_source_known', sql`${table.source} in ('admin', 'sign-up')`),
  ],
);
