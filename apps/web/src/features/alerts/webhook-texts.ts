import { WEBHOOK_ALERT_TYPE_NAMES, WEBHOOK_ALERT_TYPES, type TestWebhookResponse, type Webhook, type WebhookAlertType } from '@signalboard/core';
import { dateAndTime, formatDecimal } from '../../components/en-us-format';
import { TONE } from '../../theme';

/** The intro line of the Endpoints section. */
export const WEBHOOKS_INTRO =
  'Each alert goes to your endpoints: a webhook of your own (a JSON POST signed with the Standard Webhooks scheme: webhook-id, webhook-timestamp, webhook-signature), a Discord channel, or an ntfy topic (push notifications on your phone).';
export const WEBHOOKS_EMPTY_MESSAGE = 'No endpoints yet.';
export const WEBHOOKS_EMPTY_HINT = 'Add one to send your alerts to your own service (a home automation, a trading journal), a Discord channel or your phone.';
export const WEBHOOKS_LOADING_MESSAGE = 'Loading endpoints...';
export const WEBHOOKS_LOAD_FAILED_TITLE = 'Could not load your endpoints.';
export const WEBHOOK_URL_PLACEHOLDER = 'https://example.com/hooks/signalboard';
export const DISCORD_URL_PLACEHOLDER = 'https://discord.com/api/webhooks/…';

/** "Nov 2, 2026, 2:05 PM" in the user's zone. */
export const webhookTime = (iso: string) => dateAndTime(new Date(iso));

/** "84 ms", "1,234 ms". */
export const durationText = (ms: number) => `${formatDecimal(ms, { min: 0, max: 0 })} ms`;

/** The alert types in the contract's order, their names joined. */
export function alertTypeNames(types: readonly WebhookAlertType[]): string {
  return WEBHOOK_ALERT_TYPES.filter((type) => types.includes(type))
    .map((type) => WEBHOOK_ALERT_TYPE_NAMES[type])
    .join(', ');
}

/**
 * What the list shows of an endpoint's alert types: "All alert types", up to two names, else a count
 * ("5 alert types") with the names as `details` (a tooltip, and read out by screen readers).
 */
export function alertTypesSummary(types: readonly WebhookAlertType[]): { short: string; details: string | null } {
  const chosen = WEBHOOK_ALERT_TYPES.filter((type) => types.includes(type));
  if (chosen.length === WEBHOOK_ALERT_TYPES.length) return { short: 'All alert types', details: null };
  if (chosen.length <= 2) return { short: alertTypeNames(chosen), details: null };
  return { short: `${chosen.length} alert types`, details: alertTypeNames(chosen) };
}

/** The state badge: Active (green), Failing since <time> (yellow), Disabled (grey). */
export function webhookStateBadge(webhook: Webhook): { label: string; color: string } {
  if (webhook.state === 'disabled') return { label: 'Disabled', color: TONE.neutral };
  if (webhook.state === 'failing') return { label: webhook.failing_since ? `Failing since ${webhookTime(webhook.failing_since)}` : 'Failing', color: TONE.middling };
  return { label: 'Active', color: TONE.success };
}

/** "Last success <time>", or "No delivery yet". */
export const lastSuccessText = (webhook: Webhook) => (webhook.last_success_at ? `Last success ${webhookTime(webhook.last_success_at)}` : 'No delivery yet');

/** A test's outcome in one line: "Delivered: 200 in 84 ms", "Refused: 500 in 84 ms", or "Not delivered: <error>". */
export function testOutcome(result: TestWebhookResponse): string {
  if (result.response) return `${result.ok ? 'Delivered' : 'Refused'}: ${result.response.status} in ${durationText(result.response.duration_ms)}`;
  return `Not delivered: ${result.error ?? result.msg}`;
}

/** A body as sent or received: JSON pretty-printed, other text as it is, "(empty)" when there is none. */
export function bodyText(body: string): string {
  if (body.trim() === '') return '(empty)';
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** Headers one per line, "name: value". */
export const headersText = (headers: Record<string, string>) =>
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');

export const TELEGRAM_INTRO = 'Get each alert as a message from the installation’s bot, in a chat of your own or a group. Send /stop in the chat to disconnect it.';
export const TELEGRAM_UNAVAILABLE_MESSAGE = 'Telegram is not set up on this installation: the admin sets TELEGRAM_BOT_TOKEN.';
export const TELEGRAM_EMPTY_MESSAGE = 'No chat connected yet.';
export const PUSH_INTRO = 'Get each alert as a notification on this phone or computer, even with Signalboard closed.';
export const PUSH_IOS_NOTE = 'On iPhone and iPad (iOS 16.4 or later), notifications work only for Signalboard added to the Home Screen: open it there, then enable them.';
export const PUSH_EMPTY_MESSAGE = 'No device gets notifications yet.';
