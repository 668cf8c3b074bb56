import path from 'node:path';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createOutboxMailer } from './outbox';
import { createSmtpMailer } from './smtp';
import type { Mailer } from './types';

export * from './types';

export function createMailer(config: Config, db: Database, clock: Clock): Mailer {
  return config.SMTP_URL
    ? createSmtpMailer(config.SMTP_URL, config.MAIL_FROM)
    : createOutboxMailer({ db, dir: path.join(config.DATA_DIR, 'outbox'), from: config.MAIL_FROM, clock });
}
