/**
 * An alert as a Telegram message in HTML mode (issue 27; docs/rules/alerts.md §4.8 "Telegram"): the subject in
 * bold, the text, a link to the alert's screen. Every text that comes from a provider or a user (a
 * headline, a symbol, a rule's name) is escaped, so it can never open a tag or break the message.
 */
import type { WebhookPayload } from '@signalboard/core';

/** Telegram's HTML mode knows only &lt; &gt; &amp; &quot;: these four are all that need escaping. */
export function escapeTelegramHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A sendMessage text is at most 4,096 characters after entities are parsed. */
const MAX_TEXT = 3_500;
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function telegramAlertHtml(payload: WebhookPayload): string {
  const { data } = payload;
  const link = data.links.screen ?? data.links.history;
  const lines = [`<b>${escapeTelegramHtml(cut(data.subject, 250))}</b>`, escapeTelegramHtml(cut(data.text, MAX_TEXT))];
  // Telegram refuses a link to localhost or a bare address: only a real https page gets one.
  if (/^https:\/\/[^/]*[a-z][^/]*\.[a-z]{2,}(?:[/:]|$)/i.test(link)) lines.push(`<a href="${escapeTelegramHtml(link)}">Open in Signalboard</a>`);
  lines.push(`<i>${escapeTelegramHtml(data.type_name)}</i>`);
  return lines.join('\n\n');
}
