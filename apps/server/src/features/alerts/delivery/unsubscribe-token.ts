/**
 * The e-mail unsubscribe links (docs/rules/alerts.md §4.6 "Opt-out"): a signed, expiring token that needs no sign-in.
 * The token is `<payload>.<signature>`: the payload is base64url JSON `{ u: userId, s: scope, e:
 * expiry in epoch seconds }`, the signature an HMAC-SHA256 (base64url) keyed by a key derived from the
 * JWT secret (never the secret itself). Scope 'all' stops every alert e-mail; an alert type stops that
 * rule's e-mails (its enable_email).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a link in an e-mail works. */
export const UNSUBSCRIBE_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
export const UNSUBSCRIBE_PATH = '/api/alerts/unsubscribe';

export type UnsubscribeScope = 'all' | (string & {});

export interface UnsubscribeClaim {
  userId: number;
  scope: UnsubscribeScope;
  expiresAtSeconds: number;
}

/** The link key: derived from the JWT secret for this one purpose. */
export const unsubscribeKeyOf = (jwtSecret: string) => createHmac('sha256', jwtSecret).update('signalboard alert unsubscribe links').digest('hex');

const mac = (key: string, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

export function signUnsubscribeToken(key: string, userId: number, scope: UnsubscribeScope, nowMs: number): string {
  const payload = Buffer.from(JSON.stringify({ u: userId, s: scope, e: Math.floor(nowMs / 1000) + UNSUBSCRIBE_TOKEN_TTL_SECONDS })).toString('base64url');
  return `${payload}.${mac(key, payload)}`;
}

export type UnsubscribeCheck = { ok: true; claim: UnsubscribeClaim } | { ok: false; msg: string };

export const UNSUBSCRIBE_INVALID_MESSAGE = 'This unsubscribe link is not valid. Use the link from your most recent alert e-mail.';
export const UNSUBSCRIBE_EXPIRED_MESSAGE = 'This unsubscribe link has expired. Use the link from a recent alert e-mail, or change your alerts in Signalboard.';

/** Checks the signature first, then the expiry. */
export function verifyUnsubscribeToken(key: string, token: unknown, nowMs: number): UnsubscribeCheck {
  if (typeof token !== 'string' || token.length > 1000) return { ok: false, msg: UNSUBSCRIBE_INVALID_MESSAGE };
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return { ok: false, msg: UNSUBSCRIBE_INVALID_MESSAGE };
  const expected = Buffer.from(mac(key, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, msg: UNSUBSCRIBE_INVALID_MESSAGE };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, msg: UNSUBSCRIBE_INVALID_MESSAGE };
  }
  const { u, s, e } = (parsed ?? {}) as { u?: unknown; s?: unknown; e?: unknown };
  if (typeof u !== 'number' || !Number.isInteger(u) || typeof s !== 'string' || typeof e !== 'number') return { ok: false, msg: UNSUBSCRIBE_INVALID_MESSAGE };
  if (e * 1000 <= nowMs) return { ok: false, msg: UNSUBSCRIBE_EXPIRED_MESSAGE };
  return { ok: true, claim: { userId: u, scope: s, expiresAtSeconds: e } };
}

/** The link for an e-mail: PUBLIC_URL + /api/alerts/unsubscribe?token=… */
export function unsubscribeLink(publicUrl: string, key: string, userId: number, scope: UnsubscribeScope, nowMs: number): string {
  return `${publicUrl.replace(/\/+$/, '')}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(signUnsubscribeToken(key, userId, scope, nowMs))}`;
}
