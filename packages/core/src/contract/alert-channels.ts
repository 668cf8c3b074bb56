/**
 * Alert channels beyond SMS and e-mail (issue 27; docs/rules/alerts.md §4.9 "Webhooks"): a user's signed
 * webhook endpoints. Each delivery is a JSON POST in the Standard Webhooks format, signed with the
 * endpoint's secret (`whsec_…`), which is shown once (at creation and at each rotation) and never again.
 */
import { z } from 'zod';
import { multiLineText, singleLineText } from '../validation/text';
import { ALERT_TYPE_NAMES, ALERT_TYPES } from './alert-rules';

/**
 * The kinds of endpoint: a signed webhook of the user's own, a Discord channel's webhook (an embed per
 * alert), an ntfy topic (a push notification on the user's phone through ntfy.sh or their own server).
 */
export const WEBHOOK_KINDS = ['webhook', 'discord', 'ntfy', 'telegram', 'push'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];
export const isWebhookKind = (value: unknown): value is WebhookKind => typeof value === 'string' && (WEBHOOK_KINDS as readonly string[]).includes(value);
/** The kinds a user adds with a URL (create_webhook); a Telegram chat is bound through the bot, a push device by its browser. */
export const ADDED_WEBHOOK_KINDS = ['webhook', 'discord', 'ntfy'] as const;
export type AddedWebhookKind = (typeof ADDED_WEBHOOK_KINDS)[number];
export const WEBHOOK_KIND_NAMES: Readonly<Record<WebhookKind, string>> = { webhook: 'Webhook', discord: 'Discord', ntfy: 'ntfy', telegram: 'Telegram', push: 'Browser push' };
/** The kinds that may be sent during the user's quiet hours too (a person reads them, and may want them at night). */
export const QUIET_HOURS_KINDS: readonly WebhookKind[] = ['telegram', 'push'];
/** At most this many Telegram chats and push devices per user. */
export const TELEGRAM_MAX_CHATS = 3;
export const PUSH_MAX_DEVICES = 10;
/** A "Connect Telegram" link is valid this long. */
export const TELEGRAM_LINK_MINUTES = 10;
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
export const telegramLimitMessage = (max: number) => `You can connect at most ${max} Telegram chats. Disconnect one to connect another.`;
export const pushLimitMessage = (max: number) => `You can enable notifications on at most ${max} devices. Remove one to add another.`;
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

const webhookKind = z.enum(ADDED_WEBHOOK_KINDS, { error: `kind must be one of: ${ADDED_WEBHOOK_KINDS.join(', ')}` });
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
  /** telegram and push only: sent during quiet hours too. */
  also_quiet_hours: z.boolean({ error: 'also_quiet_hours must be true or false' }).optional(),
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
  /** ntfy: the topic; telegram: the chat's name (else null). */
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
  /** telegram and push: sent during the user's quiet hours too (else held until they end); false for the rest. */
  also_quiet_hours: z.boolean(),
  /** push: a hash of the subscription's endpoint, so a browser can tell which device is itself (else null). */
  device_key: z.string().nullable(),
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

// ---------------------------------------------------------------------------------------------
// Telegram (issue 27): the admin's bot (TELEGRAM_BOT_TOKEN); a user binds a chat with a one-time link.

/** GET api/alert_channels/telegram: whether the installation has a bot, and its name. */
export const telegramStatusResponse = z.object({ available: z.boolean(), bot_username: z.string().nullable(), link_minutes: z.number().int() });
export type TelegramStatusResponse = z.infer<typeof telegramStatusResponse>;
export const TELEGRAM_NOT_CONFIGURED_MESSAGE = 'Telegram is not set up on this installation: the admin sets TELEGRAM_BOT_TOKEN.';
export const TELEGRAM_UNREACHABLE_MESSAGE = 'Telegram did not answer. Please try again in a minute.';

/** POST api/alert_channels/telegram/connect: a single-use link to open in Telegram (valid TELEGRAM_LINK_MINUTES). */
export const telegramConnectResponse = z.object({ msg: z.string(), link: z.string(), expires_at: z.string() });
export type TelegramConnectResponse = z.infer<typeof telegramConnectResponse>;
export const telegramConnectMessage = (bot: string) => `Open the link in Telegram and press Start: @${bot} will connect that chat to your alerts. The link works once, for ${TELEGRAM_LINK_MINUTES} minutes.`;

/** A Telegram Update as the bot receives it (only what binding and /stop read; the rest is ignored). */
const chatText = (name: string) => singleLineText(name, { max: 256 }).optional();
export const telegramUpdate = z.looseObject({
  update_id: z.number().int(),
  message: z
    .looseObject({
      text: multiLineText('text', { max: 4096, examples: ['/start Xk3…'] }).optional(),
      chat: z.looseObject({ id: z.number().int(), type: singleLineText('type', { max: 32, examples: ['private'] }), title: chatText('title'), username: chatText('username'), first_name: chatText('first_name') }),
    })
    .optional(),
});
export type TelegramUpdate = z.infer<typeof telegramUpdate>;

// ---------------------------------------------------------------------------------------------
// Browser push (issue 27): Web Push to a browser's subscription, signed with the installation's VAPID key.

/** GET api/alert_channels/push/key: the VAPID public key a browser subscribes with. */
export const pushKeyResponse = z.object({ public_key: z.string() });
export type PushKeyResponse = z.infer<typeof pushKeyResponse>;

/** How many bytes a base64url text (padded or not) stands for. */
const base64Bytes = (text: string) => Math.floor((text.replace(/=+$/, '').length * 3) / 4);
const base64url = (name: string, bytes: number) =>
  singleLineText(name, { max: 200, typeError: 'must be base64url text, as the browser gives it' }).refine((value) => /^[A-Za-z0-9_-]+={0,2}$/.test(value) && base64Bytes(value) === bytes, `must be ${bytes} bytes of base64url, as the browser gives it`);

export const PUSH_ENDPOINT_MESSAGE = 'endpoint must be the https URL of a push service, as the browser gives it.';

/** POST api/alert_channels/push: this browser's subscription (PushSubscription.toJSON()) and its name. */
export const createPushSubscriptionRequest = z.object({
  endpoint: singleLineText('endpoint', { max: 2048, maxMessage: PUSH_ENDPOINT_MESSAGE, typeError: PUSH_ENDPOINT_MESSAGE, examples: ['https://fcm.googleapis.com/fcm/send/dX3…'] }).refine((value) => /^https?:\/\/[^\s]+$/.test(value), PUSH_ENDPOINT_MESSAGE),
  keys: z.object({ p256dh: base64url('p256dh', 65), auth: base64url('auth', 16) }, { error: 'keys must have p256dh and auth' }),
  name: singleLineText('name', { max: 60, examples: ['Chrome on Android'] }).optional(),
});
export type CreatePushSubscriptionRequest = z.input<typeof createPushSubscriptionRequest>;
export const pushDeviceAddedMessage = (name: string) => `Notifications are on for ${name}.`;
