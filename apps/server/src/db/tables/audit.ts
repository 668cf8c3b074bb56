/** The admin audit log (issue 28; docs/accounts.md): append-only, the database refuses UPDATE and DELETE. */
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The admin who acted; null for the command line (`npm run user`) and the server itself (ADMIN_EMAILS). */
    actorUserId: integer('actor_user_id'),
    /** The actor as it was then: an admin's e-mail, 'command line' or 'ADMIN_EMAILS'. */
    actor: text('actor').notNull(),
    /** What was done: 'set-role', 'deactivate', 'reactivate', 'end-sessions', 'reset-password', … */
    action: text('action').notNull(),
    targetUserId: integer('target_user_id'),
    /** The account acted on, as it was then. */
    target: text('target').notNull().default(''),
    /** The action's details (the new role, how many sessions ended). */
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    /** Where the admin acted from (request.ip); '' for the command line. */
    address: text('address').notNull().default(''),
  },
  (table) => [index('audit_log_at_idx').on(table.at)],
);
