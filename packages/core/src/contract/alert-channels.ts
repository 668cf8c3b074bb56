/**
 * Alert channels beyond SMS and e-mail (issue 27; docs/rules/alerts.md §4.9 "Webhooks"): a user's signed
 * webhook endpoints. Each delivery is a JSON POST in the Standard Webhooks format, signed with the
 * endpoint's secret (`whsec_…`), which is shown once (at creation and at each rotation) and never again.
 */
import { z } from 'zod';
import { singleLineText } from '../validation/text';
import { ALERT_TYPE_NAMES, ALERT_TYPES } from './alert-rules';

/**
 * The kinds of endpoint: a signed webhook of the user's own, a Discord channel's webhook (an embed per
 * alert), an ntfy topic (a push notification on the user's phone through ntfy.sh or their own server).
 */
export const WEBHOOK_KINDS = ['webhook', 'discord', 'ntfy'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];
export const WEBHOOK_KIND_NAMES: Readonly<Record<WebhookKind, string>> = { webhook: 'Webhook', discord: 'Discord', ntfy: 'ntfy' };
/** The ntfy server a new ntfy endpoint starts with. */
export const NTFY_DEFAULT_SERVER = 'https://ntfy.sh';
/** A Discord channel webhook: https://discord.com/api/webhooks/<id>/<token> (discordapp.com, ptb. and canary. too). */
export const DISCORD_WEBHOOK_PATTERN = /^https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api(?:\/v\d+)?\/webhooks\/\d{5,25}\/[A-Za-z0-9_-]{20,200}\/?$/;
export const DISCORD_URL_MESSAGE = 'Enter the Discord channel webhook URL (channel settings → Integrations → Webhooks → Copy Webhook URL), e.g. https://discord.com/api/webhooks/123456789012345678/abc…';
/** An ntfy topic: what ntfy accepts in a topic name. */
export const NTFY_TOPIC_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const NTFY_TOPIC_MESSAGE = 'Enter the ntfy topic: 1 to 64 letters, digits, - or _ (anyone who knows a topic on a public server can read it: pick a long, unguessable one).';
/** Only a signed webhook has a secret to rotate. */
export const WEBHOOK_NO_SECRET_MESSAGE = 'Only a webhook of kind Webhook has a signing secret.';

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

const webhookKind = z.enum(WEBHOOK_KINDS, { error: `kind must be one of: ${WEBHOOK_KINDS.join(', ')}` });
const ntfyTopic = singleLineText('topic', { max: 64, examples: ['signalboard-7f3k9q2m'] });
/** An ntfy access token (tk_…), sealed at rest like a webhook secret and never read back. */
const ntfyToken = singleLineText('token', { max: 200, examples: ['tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2'] });

/**
 * POST api/alert_channels/webhooks. `kind` (default 'webhook'); a Discord endpoint's `url` is the
 * channel webhook URL; an ntfy endpoint's `url` is the server (NTFY_DEFAULT_SERVER) and it needs a
 * `topic`, with an optional access `token`.
 */
export const createWebhookRequest = z
  .object({ kind: webhookKind.default('webhook'), name: webhookName, url: webhookUrl, alert_types: webhookAlertTypes, topic: ntfyTopic.optional(), token: ntfyToken.optional() })
  .superRefine((value, context) => {
    if (value.kind === 'discord' && value.url.trim() !== '' && !DISCORD_WEBHOOK_PATTERN.test(value.url.trim())) context.addIssue({ code: 'custom', path: ['url'], message: DISCORD_URL_MESSAGE });
    if (value.kind === 'ntfy' && !NTFY_TOPIC_PATTERN.test((value.topic ?? '').trim())) context.addIssue({ code: 'custom', path: ['topic'], message: NTFY_TOPIC_MESSAGE });
  });
export type CreateWebhookRequest = z.input<typeof createWebhookRequest>;

/** PUT api/alert_channels/webhooks/{id}: what changes; `enabled: true` turns a disabled endpoint on again. */
export const updateWebhookRequest = z.object({
  name: webhookName.optional(),
  url: webhookUrl.optional(),
  alert_types: webhookAlertTypes.optional(),
  enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
  /** ntfy only: the topic, and the access token ('' removes it). */
  topic: ntfyTopic.optional(),
  token: ntfyToken.optional(),
});
export type UpdateWebhookRequest = z.input<typeof updateWebhookRequest>;

/**
 * An endpoint as read back (never its secret). state: 'active'; 'failing' (deliveries failing since
 * `failing_since`, still retried); 'disabled' (by the user, or after failing for three days: `disabled_reason`).
 */
export const webhook = z.object({
  id: z.number().int(),
  kind: z.enum(WEBHOOK_KINDS),
  name: z.string(),
  /** A Discord URL's token is masked (the whole URL is sealed at rest); an ntfy endpoint's server. */
  url: z.string(),
  /** ntfy: the topic (else null). */
  topic: z.string().nullable(),
  /** ntfy: whether an access token is on file (never the token). */
  has_token: z.boolean(),
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
