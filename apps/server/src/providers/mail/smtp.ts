import nodemailer from 'nodemailer';
import { deliverable, MailError, type Mailer, type MailMessage } from './types';

/**
 * smtp://user:pass@host:587 (STARTTLS when offered) or smtps://user:pass@host:465 (TLS).
 * Query parameters: ignore_tls=true for servers that offer broken STARTTLS (local test servers).
 */
export function smtpOptionsFromUrl(smtpUrl: string) {
  const url = new URL(smtpUrl);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new MailError(`SMTP_URL must start with smtp:// or smtps://, not ${url.protocol}`);
  }
  const secure = url.protocol === 'smtps:';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ignoreTLS: url.searchParams.get('ignore_tls') === 'true',
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  };
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpOptionsFromUrl(smtpUrl));
  return {
    kind: 'smtp',
    async send(message: MailMessage) {
      try {
        const info = await transport.sendMail({ from, ...deliverable(message) });
        return { id: String(info.messageId ?? '') };
      } catch (error) {
        const code = (error as { responseCode?: unknown }).responseCode;
        const responseCode = typeof code === 'number' ? code : undefined;
        throw new MailError(`SMTP delivery failed: ${(error as Error).message}`, responseCode !== undefined && responseCode >= 500 && responseCode < 600, responseCode);
      }
    },
    close: () => transport.close(),
  };
}
