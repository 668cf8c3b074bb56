/**
 * Alert channels beyond SMS and e-mail (issue 27; docs/rules/alerts.md §4.9 "Webhooks"): a user's signed
 * webhook endpoints. Each delivery is a JSON POST in the Standard Webhooks format, signed with the
 * endpoint's secret (`whsec_…`), which is shown once (at creation and at each rotation) and never again.
 */
import { z } from 'zod';
import { singleLineText } from '../validation/text';
import { ALERT_TYPE_NAMES, ALERT_TYPES } from './alert-rules';

/** At most this many webhook endpoints per user. */
export const WEBHOOK_MAX_PER_USER = 5;
/** A delivery's request waits at most this long for the answer. */
export const WEBHOOK_TIMEOUT_MS = 5_000;
/** Retries of a delivery stop after this long (the delivery expires). */
export const WEBHOOK_RETRY_WINDOW_HOURS = 24;
/** An endpoint whose deliveries failed for this long without a success is disabled (and the user told by e-mail). */
export const WEBHOOK_DISABLE_AFTER_DAYS = 3;

/** What a webhook can be sent: every rule type, and the trade screens' saved alerts. */
export const WEBHOOK_ALERT_TYPES = [...ALERT_TYPES, 'SAVED_OPTION_TRADE', 'SAVED_STOCK_SCANNER'] as const;
export type WebhookAlertType = (typeof WEBHOOK_ALERT_TYPES)[number];
export const WEBHOOK_ALERT_TYPE_NAMES: Readonly<Record<WebhookAlertType, string>> = {
  ...ALERT_TYPE_NAMES,
  SAVED_OPTION_TRADE: 'Saved option trades',
  SAVED_STOCK_SCANNER: 'Saved drop alerts',
};

export const WEBHOOK_NAME_REQUIRED_MESSAGE = 'Please enter a name for the webhook.';
export const WEBHOOK_URL_REQUIRED_MESSAGE = 'Please enter the webhook URL.';
export const WEBHOOK_TYPES_REQUIRED_MESSAGE = 'Choose at least one alert type for the webhook.';
export const WEBHOOK_TYPES_MESSAGE = `alert_types must be a list of: ${WEBHOOK_ALERT_TYPES.join(', ')}`;
export const webhookLimitMessage = (max: number) => `You can add at most ${max} webhooks. Delete one to add another.`;
export const WEBHOOK_NOT_FOUND_MESSAGE = 'Webhook not found.';
export const webhookCreatedMessage = (name: string) => `Webhook "${name}" added. Copy its signing secret now: it is shown only once.`;
export const webhookSecretRotatedMessage = (name: string) => `New signing secret for "${name}". Copy it now: it is shown only once; the old one no longer signs.`;
export const webhookSavedMessage = (name: string) => `Webhook "${name}" saved.`;
export const webhookDeletedMessage = (name: string) => `Webhook "${name}" deleted.`;

const webhookName = singleLineText('name', { max: 60, required: WEBHOOK_NAME_REQUIRED_MESSAGE, examples: ['Home automation'] });
/** The URL's rules (https, no private addresses, …) are the server's: checked when saved and again when sent. */
const webhookUrl = singleLineText('url', { max: 2048, required: WEBHOOK_URL_REQUIRED_MESSAGE, examples: ['https://example.com/hooks/signalboard'] });
const webhookAlertTypes = z
  .array(z.enum(WEBHOOK_ALERT_TYPES, { error: WEBHOOK_TYPES_MESSAGE }), { error: WEBHOOK_TYPES_MESSAGE })
  .min(1, WEBHOOK_TYPES_REQUIRED_MESSAGE)
  .max(WEBHOOK_ALERT_TYPES.length, WEBHOOK_TYPES_MESSAGE)
  .transform((types) => WEBHOOK_ALERT_TYPES.filter((type) => types.includes(type)));

export const webhookIdParams = z.object({
  id: z.coerce.number({ error: 'id must be a webhook id' }).int('id must be a webhook id').positive('id must be a webhook id').max(2_147_483_647, 'id must be a webhook id'),
});

/** POST api/alert_channels/webhooks. */
export const createWebhookRequest = z.object({ name: webhookName, url: webhookUrl, alert_types: webhookAlertTypes });
export type CreateWebhookRequest = z.input<typeof createWebhookRequest>;

/** PUT api/alert_channels/webhooks/{id}: what changes; `enabled: true` turns a disabled endpoint on again. */
export const updateWebhookRequest = z.object({
  name: webhookName.optional(),
  url: webhookUrl.optional(),
  alert_types: webhookAlertTypes.optional(),
  enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
});
export type UpdateWebhookRequest = z.input<typeof updateWebhookRequest>;

/**
 * An endpoint as read back (never its secret). state: 'active'; 'failing' (deliveries failing since
 * `failing_since`, still retried); 'disabled' (by the user, or after failing for three days: `disabled_reason`).
 */
export const webhook = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  alert_types: z.array(z.enum(WEBHOOK_ALERT_TYPES)),
  enabled: z.boolean(),
  state: z.enum(['active', 'failing', 'disabled']),
  disabled_reason: z.string().nullable(),
  failing_since: z.string().nullable(),
  last_success_at: z.string().nullable(),
  /** The last answer of a delivery or a test: e.g. '200 OK in 84 ms', 'timed out after 5 s'. */
  last_answer: z.string().nullable(),
  created_at: z.string(),
});
export type Webhook = z.infer<typeof webhook>;

/** GET api/alert_channels/webhooks. */
export const listWebhooksResponse = z.object({ webhooks: z.array(webhook), max: z.number().int() });
export type ListWebhooksResponse = z.infer<typeof listWebhooksResponse>;

/** The answer of a create, a save and a rotation; `secret` only when one was made (create, rotate). */
export const webhookWithSecretResponse = z.object({ msg: z.string(), webhook, secret: z.string().optional() });
export type WebhookWithSecretResponse = z.infer<typeof webhookWithSecretResponse>;

/** POST api/alert_channels/webhooks/{id}/test: the request that was sent and what came back. */
export const testWebhookResponse = z.object({
  msg: z.string(),
  ok: z.boolean(),
  request: z.object({ method: z.literal('POST'), url: z.string(), headers: z.record(z.string(), z.string()), body: z.string() }),
  /** null when no answer came (refused URL, network error, timeout): `error` says why. */
  response: z.object({ status: z.number().int(), headers: z.record(z.string(), z.string()), body: z.string(), duration_ms: z.number() }).nullable(),
  error: z.string().nullable(),
});
export type TestWebhookResponse = z.infer<typeof testWebhookResponse>;

/** The body of every webhook delivery (and of a test, with type 'alert.test'). */
export interface WebhookPayload {
  /** The same for every attempt of one alert to one endpoint (also the webhook-id header): deduplicate on it. */
  id: string;
  type: 'alert.fired' | 'alert.test';
  timestamp: string;
  data: {
    alert_type: string;
    type_name: string;
    symbol: string;
    message: string;
    subject: string;
    text: string;
    fired_at: string;
    data: Record<string, unknown>;
    links: { history: string; screen: string | null };
  };
}
