/**
 * The open routes of alert delivery (no bearer token; docs/design.md "Security rules"), each with its own
 * check:
 * - POST /api/twilio/status: Twilio's status callbacks (X-Twilio-Signature over PUBLIC_URL + path):
 *   sent → delivered | failed; a receipt seen twice changes nothing.
 * - POST /api/twilio/inbound: inbound SMS (same signature check): STOP… opts the number's users out
 *   of SMS alerts, START… back in, HELP… answers how; the answer is TwiML.
 * - GET/POST /api/alerts/unsubscribe?token=…: the e-mail unsubscribe link (a signed, expiring token):
 *   GET shows a page with a confirm button, POST (RFC 8058 one-click, body List-Unsubscribe=One-Click)
 *   unsubscribes: from one rule's e-mails (its enable_email) or from all alert e-mails.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ALERT_TYPE_NAMES, ALERT_TYPES, alertsEndpoints, twilioInboundMessage, twilioStatusCallback, unsubscribeOneClickBody, unsubscribeQuery, type AlertType } from '@signalboard/core';
import { and, eq, inArray } from 'drizzle-orm';
import type { Config } from '../../../config';
import type { Database } from '../../../db/client';
import { alertDeliveries, alertRules, userPhones } from '../../../db/schema';
import type { Clock } from '../../../lib/clock';
import { route } from '../../../lib/endpoint';
import { HttpError, parseInput } from '../../../lib/errors';
import { acceptMultipart, readFormFields } from '../../../lib/multipart';
import { validTwilioSignature } from '../../../providers/sms/twilio';
import { createAlertDeliveryRepo } from './delivery.repo';
import { UNSUBSCRIBE_PATH, verifyUnsubscribeToken, type UnsubscribeClaim } from './unsubscribe-token';

export interface AlertDeliveryRoutesOptions {
  db: Database;
  config: Config;
  clock: Clock;
  /** The unsubscribe links' key (unsubscribeKeyOf(JWT secret)). */
  linkKey: string;
}

const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);
const START_WORDS = new Set(['START', 'UNSTOP', 'YES']);
const HELP_WORDS = new Set(['HELP', 'INFO']);

/** Twilio error codes of a failed message that say the number cannot get our SMS: the channel is flagged. */
const PERMANENT_TWILIO_CODES = new Set(['21211', '21610', '21614', '30004', '30005', '30006']);

export const TWILIO_NOT_CONFIGURED_MESSAGE = 'Twilio webhooks are not configured on this server (TWILIO_AUTH_TOKEN is not set).';
export const TWILIO_SIGNATURE_MESSAGE = 'The X-Twilio-Signature header is missing or does not match this request.';

export const STOP_REPLY = 'You are unsubscribed from Signalboard SMS alerts. Reply START to turn them on again.';
export const START_REPLY = 'Signalboard SMS alerts are on again. Reply STOP to opt out.';
export const helpReply = (publicUrl: string) => `Signalboard alerts: manage them at ${publicUrl}. Reply STOP to opt out, START to opt back in.`;

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
const twiml = (message?: string) => `<?xml version="1.0" encoding="UTF-8"?><Response>${message ? `<Message>${escapeXml(message)}</Message>` : ''}</Response>`;

/**
 * The unsubscribe pages are the API's only pages: their own CSP allows just what they hold (the
 * body's inline style, and the confirm form posting back here), over the API's `default-src 'none'`.
 */
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

function sendPage(reply: FastifyReply, title: string, body: string): FastifyReply {
  return reply.type('text/html; charset=utf-8').header('content-security-policy', PAGE_CSP).send(page(title, body));
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeXml(title)} · Signalboard</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5"><main><h1>${escapeXml(title)}</h1>${body}</main></body></html>`;
}

const scopeName = (scope: string) =>
  scope === 'all' ? 'all Signalboard alert e-mails' : `${(ALERT_TYPES as readonly string[]).includes(scope) ? ALERT_TYPE_NAMES[scope as AlertType] : scope} alert e-mails`;

export async function alertDeliveryRoutes(app: FastifyInstance, options: AlertDeliveryRoutesOptions) {
  const { db, config, clock, linkKey } = options;
  const repo = createAlertDeliveryRepo(db);
  const now = () => new Date(clock.nowMs());

  /** Answers the form's fields after checking Twilio's signature (404 when no auth token is set). */
  function twilioForm(request: FastifyRequest): Record<string, string> {
    if (!config.TWILIO_AUTH_TOKEN) throw new HttpError(404, TWILIO_NOT_CONFIGURED_MESSAGE);
    const body = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
    const params = Object.fromEntries(Object.entries(body).map(([name, value]) => [name, String(value)]));
    const signature = request.headers['x-twilio-signature'];
    if (typeof signature !== 'string' || !validTwilioSignature(config.TWILIO_AUTH_TOKEN, signature, `${config.PUBLIC_URL}${request.url}`, params)) {
      throw new HttpError(403, TWILIO_SIGNATURE_MESSAGE);
    }
    return params;
  }

  // Each route reads its own input here: the signature is checked first, the token before the form.
  route(app, alertsEndpoints.receiveTwilioStatus, { parse: 'none' }, async (request, reply) => {
    const form = parseInput(twilioStatusCallback, twilioForm(request));
    const sid = form.MessageSid ?? '';
    const status = (form.MessageStatus ?? '').toLowerCase();
    if (sid && (status === 'delivered' || status === 'undelivered' || status === 'failed')) {
      const at = now();
      const reason = status === 'delivered' ? null : `Twilio: ${status}${form.ErrorCode ? ` (error ${form.ErrorCode})` : ''}`;
      await db.transaction(async (tx) => {
        const rows = await tx
          .select({ id: alertDeliveries.id, userId: alertDeliveries.userId, channel: alertDeliveries.channel })
          .from(alertDeliveries)
          .where(and(eq(alertDeliveries.providerId, sid), eq(alertDeliveries.channel, 'sms'), inArray(alertDeliveries.status, ['sent'])))
          .for('update');
        for (const row of rows) await repo.move(tx, row.id, ['sent'], status === 'delivered' ? 'delivered' : 'failed', reason, at);
        const first = rows[0];
        if (first && reason && form.ErrorCode && PERMANENT_TWILIO_CODES.has(form.ErrorCode)) await repo.flagProblem(tx, first.userId, 'sms', reason, at);
      });
    }
    return reply.type('text/xml').send(twiml());
  });

  route(app, alertsEndpoints.receiveTwilioInbound, { parse: 'none' }, async (request, reply) => {
    const form = parseInput(twilioInboundMessage, twilioForm(request));
    const word = (form.Body ?? '').trim().split(/\s+/)[0]?.toUpperCase() ?? '';
    const from = form.From ?? '';
    const owners = from ? await db.select({ userId: userPhones.userId }).from(userPhones).where(eq(userPhones.phoneNumber, from)) : [];
    let message: string | undefined;
    if (STOP_WORDS.has(word) || START_WORDS.has(word)) {
      const stop = STOP_WORDS.has(word);
      const at = now();
      await db.transaction(async (tx) => {
        for (const owner of owners) await repo.setOptOut(tx, owner.userId, 'sms', stop, at);
      });
      message = stop ? STOP_REPLY : START_REPLY;
    } else if (HELP_WORDS.has(word)) {
      message = helpReply(config.PUBLIC_URL);
    }
    return reply.type('text/xml').send(twiml(message));
  });

  /** The token's claim; 400 with what is wrong (malformed, forged, expired). */
  function claimOf(request: FastifyRequest): { token: string; claim: UnsubscribeClaim } {
    const { token } = parseInput(unsubscribeQuery, request.query);
    const check = verifyUnsubscribeToken(linkKey, token, clock.nowMs());
    if (!check.ok) throw new HttpError(400, check.msg);
    return { token, claim: check.claim };
  }

  route(app, alertsEndpoints.showUnsubscribePage, { parse: 'none' }, async (request, reply: FastifyReply) => {
    const { token, claim } = claimOf(request);
    const action = `${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`;
    return sendPage(
      reply,
      'Unsubscribe',
      `<p>Stop ${escapeXml(scopeName(claim.scope))}?</p><form method="post" action="${escapeXml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
    );
  });

  // The one-click POST (RFC 8058 §3.1): its body is `List-Unsubscribe=One-Click`, url-encoded or
  // multipart/form-data (the RFC's own example), so this route alone also takes multipart.
  await app.register(async (oneClick) => {
    await acceptMultipart(oneClick);
    route(oneClick, alertsEndpoints.unsubscribeOneClick, { parse: 'none' }, async (request, reply) => unsubscribe(request, reply));
  });

  async function unsubscribe(request: FastifyRequest, reply: FastifyReply) {
    const { userId, scope } = claimOf(request).claim;
    parseInput(unsubscribeOneClickBody, await readFormFields(request));
    const at = now();
    if (scope === 'all') {
      await repo.setOptOut(db, userId, 'email', true, at);
    } else {
      await db.update(alertRules).set({ enableEmail: false }).where(and(eq(alertRules.userId, userId), eq(alertRules.alertType, scope)));
    }
    return sendPage(reply, 'Unsubscribed', `<p>You will no longer get ${escapeXml(scopeName(scope))}. You can turn them on again in Signalboard's Alert System Settings.</p>`);
  }
}
