/** What the embedded mail and SMS transports "sent" (the outboxes). */
import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** Every e-mail the outbox transport "sent": the row plus an .eml file in DATA_DIR/outbox. */
export const outboxEmails = pgTable(
  'outbox_emails',
  {
    id: serial('id').primaryKey(),
    toAddress: text('to_address').notNull(),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    attachmentNames: text('attachment_names')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    emlPath: text('eml_path').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('outbox_emails_to_created').on(table.toAddress, table.createdAt)],
);

/**
 * Every SMS the outbox provider "sent": the row plus a .txt file in DATA_DIR/sms-outbox. A
 * verification SMS's row holds its text with the code masked; only the file (the stand-in for the
 * phone) holds the code.
 */
export const outboxSms = pgTable(
  'outbox_sms',
  {
    id: serial('id').primaryKey(),
    toNumber: text('to_number').notNull(),
    /** 'verification' or 'message'. */
    kind: text('kind').notNull(),
    body: text('body').notNull(),
    filePath: text('file_path').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('outbox_sms_to_created').on(table.toNumber, table.createdAt),
    check('outbox_sms_kind', sql`${table.kind} in ('verification', 'message')`),
  ],
);
