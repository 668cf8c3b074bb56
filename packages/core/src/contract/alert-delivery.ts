/**
 * The open routes of alert delivery (issue 15; docs/rules/alerts.md §4.6 "Opt-out", "Statuses"): Twilio's status
 * callbacks and inbound messages (form posts signed with X-Twilio-Signature), the e-mail unsubscribe
 * link (a signed, expiring token in the query; RFC 8058 one-click POST).
 */
import { z } from 'zod';
import { multiLineText, singleLineText } from '../validation/text';

const twilioField = (name: string, example: string) => singleLineText(name, { max: 1600, trim: false, examples: [example] }).optional();

/** POST api/twilio/status (Twilio's status callback; more fields pass through, all are signed). */
export const twilioStatusCallback = z.looseObject({
  MessageSid: twilioField('MessageSid', 'SM0123456789abcdef0123456789abcdef'),
  MessageStatus: twilioField('MessageStatus', 'delivered'),
  ErrorCode: twilioField('ErrorCode', '30006'),
});

/** POST api/twilio/inbound (an SMS to our number: STOP, START, HELP, …). */
export const twilioInboundMessage = z.looseObject({
  From: twilioField('From', '+15551234567'),
  Body: multiLineText('Body', { max: 1600, examples: ['STOP'] }).optional(),
});

export const UNSUBSCRIBE_TOKEN_MESSAGE = 'token is required: use the link from an alert e-mail.';

/** GET and POST api/alerts/unsubscribe?token=… */
export const unsubscribeQuery = z.object({
  token: singleLineText('token', { max: 1000, required: UNSUBSCRIBE_TOKEN_MESSAGE, typeError: UNSUBSCRIBE_TOKEN_MESSAGE, examples: ['eyJ1IjoxLCJzIjoiYWxsIiwiZSI6MH0.c2ln'] }),
});

export const ONE_CLICK_BODY_MESSAGE = 'Send List-Unsubscribe=One-Click in a form body to unsubscribe.';

/** The one-click body of RFC 8058 (what mail clients post). */
export const unsubscribeOneClickBody = z.object({
  'List-Unsubscribe': z.literal('One-Click', { error: ONE_CLICK_BODY_MESSAGE }),
});
