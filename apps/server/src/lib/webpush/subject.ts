/**
 * The contact a push service may use about our messages (RFC 8292 `sub`; issue 27): VAPID_SUBJECT, else the
 * PUBLIC_URL when it is https, else the address of MAIL_FROM as a mailto: URL.
 */
import type { Config } from '../../config';

export function vapidSubject(config: Pick<Config, 'VAPID_SUBJECT' | 'PUBLIC_URL' | 'MAIL_FROM'>): string {
  if (config.VAPID_SUBJECT) return config.VAPID_SUBJECT;
  if (config.PUBLIC_URL.startsWith('https://')) return config.PUBLIC_URL;
  const address = /<([^>]+)>/.exec(config.MAIL_FROM)?.[1] ?? config.MAIL_FROM.trim();
  return `mailto:${address}`;
}
