/**
 * Telegram as an alert channel (issue 27; docs/rules/alerts.md §4.8 "Telegram"). The admin's bot
 * (TELEGRAM_BOT_TOKEN) is the only sender. A user presses "Connect Telegram" and gets a single-use
 * link (https://t.me/<bot>?start=<code>, TELEGRAM_LINK_MINUTES); pressing Start in a chat sends the
 * bot `/start <code>`, which binds that chat to the user as an endpoint of kind 'telegram' (the chat
 * id sealed, found again by its keyed hash). `/stop` in the chat unbinds it for every user. The bot
 * hears updates by long polling on the process that runs the alert jobs, or at PUBLIC_URL's webhook
 * with Telegram's secret-token header checked (TELEGRAM_UPDATES).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  TELEGRAM_LINK_MINUTES,
  TELEGRAM_MAX_CHATS,
  TELEGRAM_NOT_CONFIGURED_MESSAGE,
  TELEGRAM_UNREACHABLE_MESSAGE,
  WEBHOOK_ALERT_TYPES,
  telegramConnectMessage,
  type TelegramConnectResponse,
  type TelegramStatusResponse,
  type TelegramUpdate,
} from '@signalboard/core';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Config } from '../../../../config';
import type { Database } from '../../../../db/client';
import { alertWebhooks, telegramLinkCodes } from '../../../../db/schema';
import type { Clock } from '../../../../lib/clock';
import { HttpError } from '../../../../lib/errors';
import type { SecretBox } from '../../../../lib/secret-box';
import { createTelegramBotApi, TelegramNetworkError, type TelegramBotApi } from './bot-api';

export const TELEGRAM_REPLIES = {
  connected: 'Connected: your Signalboard alerts will come to this chat. Send /stop to disconnect it.',
  already: 'This chat is already connected to your Signalboard alerts. Send /stop to disconnect it.',
  badCode: 'This link has expired or was used already. In Signalboard, open Alert System → Settings → Channels and press "Connect Telegram" for a new one.',
  noCode: 'To get your alerts here, open Signalboard → Alert System → Settings → Channels and press "Connect Telegram".',
  tooMany: `Your account has ${TELEGRAM_MAX_CHATS} Telegram chats connected, the most allowed. Disconnect one in Signalboard first.`,
  stopped: 'Disconnected: no more Signalboard alerts in this chat. Press "Connect Telegram" in Signalboard to connect it again.',
  notConnected: 'This chat is not connected to Signalboard alerts.',
} as const;

/** The purpose of a chat id's keyed hash (SecretBox.digest). */
export const TELEGRAM_CHAT_DIGEST = 'telegram-chat';
/** A chat's name as its user sees it in the Channels card. */
function chatName(chat: NonNullable<TelegramUpdate['message']>['chat']): string {
  const name = chat.title ?? (chat.username ? `@${chat.username}` : chat.first_name) ?? `chat ${chat.id}`;
  return name.replace(/\s+/g, ' ').trim().slice(0, 60) || 'Telegram chat';
}
const hashCode = (code: string) => createHash('sha256').update(code).digest('base64url');

export interface TelegramServiceDeps {
  db: Database;
  box: SecretBox;
  clock: Clock;
  config: Pick<Config, 'TELEGRAM_BOT_TOKEN' | 'TELEGRAM_API_BASE' | 'TELEGRAM_UPDATES' | 'PUBLIC_URL'>;
  log: { info(message: string): void; warn(message: string): void };
  /** Tests pass their own (the fake Bot API's). */
  api?: TelegramBotApi;
}

export function createTelegramService(deps: TelegramServiceDeps) {
  const { db, box, clock, config, log } = deps;
  const token = config.TELEGRAM_BOT_TOKEN;
  const api = deps.api ?? (token ? createTelegramBotApi({ token, apiBase: config.TELEGRAM_API_BASE }) : null);
  const now = () => new Date(clock.nowMs());
  let username: string | null = null;
  /** The header Telegram sends with each webhook update: derived from the token, so every process agrees. */
  const webhookSecret = token ? box.digest('telegram-webhook', token) : null;

  async function botUsername(): Promise<string> {
    if (!api) throw new HttpError(400, TELEGRAM_NOT_CONFIGURED_MESSAGE);
    if (username) return username;
    try {
      username = (await api.getMe()).username;
      return username;
    } catch (error) {
      log.warn(`Telegram getMe failed: ${(error as Error).message}`);
      throw new HttpError(503, TELEGRAM_UNREACHABLE_MESSAGE);
    }
  }

  async function reply(chatId: number, text: string) {
    if (!api) return;
    try {
      const answer = await api.call('sendMessage', { chat_id: chatId, text });
      if (!answer.ok) log.warn(`Telegram reply to a chat failed: ${answer.status} ${answer.description ?? ''}`);
    } catch (error) {
      log.warn(`Telegram reply to a chat failed: ${(error as Error).message}`);
    }
  }

  /** /start <code>: binds the chat to the code's user (single use); answers the chat's reply. */
  async function bind(chat: NonNullable<TelegramUpdate['message']>['chat'], code: string): Promise<string> {
    const at = now();
    const lookupHash = box.digest(TELEGRAM_CHAT_DIGEST, String(chat.id));
    return db.transaction(async (tx) => {
      const [link] = await tx.delete(telegramLinkCodes).where(eq(telegramLinkCodes.codeHash, hashCode(code))).returning();
      if (!link || link.expiresAt.getTime() <= at.getTime()) return TELEGRAM_REPLIES.badCode;
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('alert-webhooks'), ${link.userId})`);
      const [existing] = await tx.select().from(alertWebhooks).where(and(eq(alertWebhooks.userId, link.userId), eq(alertWebhooks.lookupHash, lookupHash)));
      const name = chatName(chat);
      if (existing) {
        await tx.update(alertWebhooks).set({ name, topic: name, enabled: true, disabledReason: null, failingSince: null, updatedAt: at }).where(eq(alertWebhooks.id, existing.id));
        return TELEGRAM_REPLIES.already;
      }
      const [{ n } = { n: 0 }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(alertWebhooks)
        .where(and(eq(alertWebhooks.userId, link.userId), eq(alertWebhooks.kind, 'telegram')));
      if (n >= TELEGRAM_MAX_CHATS) return TELEGRAM_REPLIES.tooMany;
      await tx.insert(alertWebhooks).values({
        userId: link.userId,
        kind: 'telegram',
        name,
        url: `https://t.me/${username ?? 'bot'}`,
        topic: name,
        lookupHash,
        alertTypes: [...WEBHOOK_ALERT_TYPES],
        secretSealed: box.seal(String(chat.id)),
        enabled: true,
        createdAt: at,
        updatedAt: at,
      });
      return TELEGRAM_REPLIES.connected;
    });
  }

  /** Removes a chat from every user it was bound to (/stop, or Telegram saying the bot may not write there). */
  async function unbindChat(chatId: number | string): Promise<number> {
    const rows = await db
      .delete(alertWebhooks)
      .where(and(eq(alertWebhooks.kind, 'telegram'), eq(alertWebhooks.lookupHash, box.digest(TELEGRAM_CHAT_DIGEST, String(chatId)))))
      .returning({ id: alertWebhooks.id });
    return rows.length;
  }

  /** One update: /start <code> binds, /stop unbinds, a bare /start explains; anything else is ignored. */
  async function handleUpdate(update: TelegramUpdate): Promise<void> {
    const message = update.message;
    const text = message?.text?.trim();
    if (!message || !text) return;
    const [command = '', argument = ''] = text.split(/\s+/, 2);
    const name = command.toLowerCase().replace(/@\w+$/, '');
    if (name === '/start') {
      const answer = /^[A-Za-z0-9_-]{16,64}$/.test(argument) ? await bind(message.chat, argument) : TELEGRAM_REPLIES.noCode;
      await reply(message.chat.id, answer);
    } else if (name === '/stop') {
      await reply(message.chat.id, (await unbindChat(message.chat.id)) > 0 ? TELEGRAM_REPLIES.stopped : TELEGRAM_REPLIES.notConnected);
    }
  }

  // Long polling: one loop, stopped by an abort; a failed call waits (longer after a 409, which means
  // another process polls the same bot or a webhook is set) and tries again.
  let polling: { abort: AbortController; done: Promise<void> } | null = null;
  async function pollLoop(signal: AbortSignal) {
    let offset = 0;
    let failures = 0;
    while (!signal.aborted) {
      try {
        const updates = await api!.getUpdates(offset, 25, signal);
        failures = 0;
        for (const update of updates) {
          offset = Math.max(offset, update.update_id + 1);
          await handleUpdate(update).catch((error: unknown) => log.warn(`Telegram update ${update.update_id} failed: ${(error as Error).message}`));
        }
      } catch (error) {
        if (signal.aborted) break;
        failures += 1;
        if (failures === 1 || failures % 20 === 0) log.warn(`Telegram getUpdates failed (${failures}×): ${(error as Error).message}`);
        const waitMs = Math.min(1_000 * 2 ** Math.min(failures, 6), 60_000);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, waitMs);
          signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
        });
      }
    }
  }

  return {
    /** The API the lane sends with (null without a bot). */
    api,
    async status(): Promise<TelegramStatusResponse> {
      if (!api) return { available: false, bot_username: null, link_minutes: TELEGRAM_LINK_MINUTES };
      try {
        return { available: true, bot_username: await botUsername(), link_minutes: TELEGRAM_LINK_MINUTES };
      } catch {
        return { available: true, bot_username: null, link_minutes: TELEGRAM_LINK_MINUTES };
      }
    },

    async connect(userId: number): Promise<TelegramConnectResponse> {
      const bot = await botUsername();
      const at = now();
      const code = randomBytes(18).toString('base64url');
      const expiresAt = new Date(at.getTime() + TELEGRAM_LINK_MINUTES * 60_000);
      // Each press makes a new code; the user's spent and expired ones go.
      await db.delete(telegramLinkCodes).where(and(eq(telegramLinkCodes.userId, userId), lt(telegramLinkCodes.expiresAt, at)));
      await db.insert(telegramLinkCodes).values({ codeHash: hashCode(code), userId, expiresAt, createdAt: at });
      return { msg: telegramConnectMessage(bot), link: `https://t.me/${bot}?start=${code}`, expires_at: expiresAt.toISOString() };
    },

    handleUpdate,
    unbindChat,

    /** Whether a webhook request carries the bot's secret-token header (constant time). */
    webhookAccepts(header: string | undefined): boolean {
      if (!webhookSecret || config.TELEGRAM_UPDATES !== 'webhook' || !header) return false;
      const a = Buffer.from(header);
      const b = Buffer.from(webhookSecret);
      return a.length === b.length && timingSafeEqual(a, b);
    },
    /** Whether this installation takes Telegram's updates at the webhook. */
    takesWebhook: () => Boolean(api && config.TELEGRAM_UPDATES === 'webhook'),

    /** Starts hearing updates (the process that runs the alert jobs): polling, or sets the webhook. */
    async start(): Promise<void> {
      if (!api || polling) return;
      if (config.TELEGRAM_UPDATES === 'webhook') {
        const url = `${config.PUBLIC_URL}/api/telegram/webhook`;
        await api.setWebhook(url, webhookSecret!).then(
          () => log.info(`Telegram: updates at ${url}`),
          (error: unknown) => log.warn(`Telegram setWebhook failed (${(error as Error).message}): PUBLIC_URL must be https and reachable from Telegram`),
        );
        return;
      }
      // getUpdates answers 409 while a webhook is set.
      await api.deleteWebhook().catch((error: unknown) => log.warn(`Telegram deleteWebhook failed: ${(error as Error).message}`));
      const abort = new AbortController();
      polling = { abort, done: pollLoop(abort.signal) };
      log.info('Telegram: polling for updates');
    },

    async stop(): Promise<void> {
      if (!polling) return;
      polling.abort.abort();
      await polling.done;
      polling = null;
    },
  };
}

export type TelegramService = ReturnType<typeof createTelegramService>;
export { TelegramNetworkError };
