import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Database } from '../../db/client';
import { outboxEmails } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { deliverable, MailError, maskSecrets, type Mailer, type MailMessage } from './types';

/**
 * The embedded mail transport: nodemailer builds the real RFC 822 message, which is recorded in the
 * outbox_emails table and then written to DATA_DIR/outbox/<time>-<id>.eml. The row is committed
 * first: a message the database refuses is never "sent", and a file that cannot be written takes
 * its row back out. The row keeps the message's `secrets` masked (as outbox_sms keeps codes); the
 * .eml file, the delivered mail, has them.
 */
export function createOutboxMailer(options: { db: Database; dir: string; from: string; clock: Clock }): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(message: MailMessage) {
      try {
        const info = await transport.sendMail({ from: options.from, ...deliverable(message) });
        const raw = info.message as unknown as Buffer;
        const stamp = new Date(options.clock.nowMs()).toISOString().replace(/[:.]/g, '-');
        const file = path.join(options.dir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
        const [row] = await options.db
          .insert(outboxEmails)
          .values({
            toAddress: message.to,
            replyTo: message.replyTo ?? null,
            subject: message.subject,
            textBody: maskSecrets(message.text, message.secrets),
            attachmentNames: (message.attachments ?? []).map((attachment) => attachment.filename),
            sizeBytes: raw.length,
            emlPath: file,
          })
          .returning({ id: outboxEmails.id });
        try {
          await fs.mkdir(options.dir, { recursive: true });
          await fs.writeFile(file, raw, { mode: 0o600, flag: 'wx' });
        } catch (error) {
          // The write's failure is the one to report, even if the row cannot be taken back.
          await options.db.delete(outboxEmails).where(eq(outboxEmails.id, row!.id)).catch(() => undefined);
          throw error;
        }
        return { id: String(row!.id) };
      } catch (error) {
        throw new MailError(`Outbox delivery failed: ${(error as Error).message}`);
      }
    },
    close: () => transport.close(),
  };
}
