export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType?: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
  attachments?: MailAttachment[];
  /** Extra header lines (e.g. List-Unsubscribe and List-Unsubscribe-Post on alert e-mails). */
  headers?: Record<string, string>;
  /**
   * Parts of `text` only the recipient may read (a temporary password). The delivered message has
   * them; every record the app keeps of it (the outbox row) has them masked.
   */
  secrets?: readonly string[];
}

/** The mask that stands for a secret in a kept record: as long as the secret, nothing of it. */
export const maskSecret = (secret: string) => '•'.repeat(secret.length);

/** `text` with every occurrence of each secret masked. */
export function maskSecrets(text: string, secrets: readonly string[] = []): string {
  let masked = text;
  for (const secret of secrets) if (secret !== '') masked = masked.split(secret).join(maskSecret(secret));
  return masked;
}

/** What nodemailer sends: the message without the app's own fields. */
export function deliverable({ secrets: _secrets, ...message }: MailMessage): Omit<MailMessage, 'secrets'> {
  return message;
}

/** Sends e-mail: through SMTP when SMTP_URL is set, otherwise into the outbox. */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  /** Sends one message; answers its id (the outbox row, or the Message-ID the SMTP server accepted). */
  send(message: MailMessage): Promise<{ id: string }>;
  close(): void;
}

/**
 * A failed send. `permanent`: the server refused the message for good (an SMTP 5xx reply, e.g. a hard
 * bounce of an unknown mailbox): sending it again cannot help. Otherwise (network, 4xx) a later try may.
 */
export class MailError extends Error {
  constructor(
    message: string,
    readonly permanent = false,
    /** The SMTP reply code, when the server gave one. */
    readonly responseCode?: number,
  ) {
    super(message);
  }
}
