import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Database } from '../../db/client';
import { outboxEmails } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { MailError, type Mailer, type MailMessage } from './types';

/**
 * The embedded mail transport: nodemailer builds the real RFC 822 message, which is written to
 * DATA_DIR/outbox/<time>-<id>.eml and recorded in the outbox_emails table.
 */
export function createOutboxMailer(options: { db: Database; dir: string; from: string; clock: Clock }): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(message: MailMessage) {
      try {
        const info = await transport.sendMail({ from: options.from, ...message });
        const raw = info.message as unknown as Buffer;
        await fs.mkdir(options.dir, { recursive: true });
        const stamp = new Date(options.clock.nowMs()).toISOString().replace(/[:.]/g, '-');
        const file = path.join(options.dir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
        await fs.writeFile(file, raw, { mode: 0o600 });
        await options.db.insert(outboxEmails).values({
          toAddress: message.to,
          replyTo: message.replyTo ?? null,
          subject: message.subject,
          textBody: message.text,
          attachmentNames: (message.attachments ?? []).map((attachment) => attachment.filename),
          sizeBytes: raw.length,
          emlPath: file,
        });
      } catch (error) {
        throw new MailError(`Outbox delivery failed: ${(error as Error).message}`);
      }
    },
    close: () => transport.close(),
  };
}
