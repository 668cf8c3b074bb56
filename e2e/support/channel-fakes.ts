/**
 * The alert channels' outside services for the alerts server (issue 27), started by global-setup.ts
 * before that server, whose environment names them: a fake Telegram Bot API (apps/server/test/
 * fake-telegram.ts; TELEGRAM_BOT_TOKEN, TELEGRAM_API_BASE) and a Discord recorder (DISCORD_BASE_URL:
 * every Discord webhook's POST comes here, answered 200 as Discord does with `?wait=true`). The specs
 * run in another process, so they reach both through this server's control routes:
 *
 * - `POST /__control/telegram/say` `{ chat_id, text, username?, first_name?, title?, type? }`: an update
 *   from that chat (what a user typing in it sends; the server polls getUpdates);
 * - `GET /__control/telegram/sent?chat_id=`: the messages the bot sent to that chat;
 * - `GET /__control/discord/received`: every request the recorder got (`{ path, headers, body }`).
 *
 * The browser push service is not here: a spec starts apps/server/test/fake-push-service.ts itself,
 * since its endpoints come from the browser, not from the server's environment.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAKE_BOT_TOKEN, startFakeTelegram, type SentMessage } from '../../apps/server/test/fake-telegram';

export { FAKE_BOT_TOKEN, FAKE_BOT_USERNAME } from '../../apps/server/test/fake-telegram';

export interface RecordedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface ChannelFakes {
  /** The control routes' and the Discord recorder's origin (DISCORD_BASE_URL). */
  baseUrl: string;
  /** The environment the alerts server gets. */
  env: Record<string, string>;
  close(): Promise<void>;
}

const json = (response: http.ServerResponse, status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

export async function startChannelFakes(): Promise<ChannelFakes> {
  const telegram = await startFakeTelegram();
  const discord: RecordedRequest[] = [];
  let discordMessageId = 1;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://fakes.invalid');
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        if (url.pathname === '/__control/telegram/say' && request.method === 'POST') {
          const { chat_id, text, ...chat } = JSON.parse(body) as { chat_id: number; text: string; username?: string; first_name?: string; title?: string; type?: string };
          telegram.say(chat_id, text, chat);
          json(response, 200, { ok: true });
        } else if (url.pathname === '/__control/telegram/sent' && request.method === 'GET') {
          const chatId = url.searchParams.get('chat_id');
          json(response, 200, telegram.sent.filter((message) => chatId === null || message.chat_id === chatId));
        } else if (url.pathname === '/__control/discord/received' && request.method === 'GET') {
          json(response, 200, discord);
        } else if (/^\/api(?:\/v\d+)?\/webhooks\/\d+\/[^/]+\/?$/.test(url.pathname) && request.method === 'POST') {
          discord.push({ path: `${url.pathname}${url.search}`, headers: request.headers as Record<string, string>, body });
          // What Discord answers with ?wait=true: the message it posted.
          json(response, 200, { id: String(discordMessageId++), type: 0, channel_id: '1', content: '' });
        } else json(response, 404, { message: 'Unknown route', code: 0 });
      } catch (error) {
        json(response, 400, { message: (error as Error).message });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    env: { TELEGRAM_BOT_TOKEN: FAKE_BOT_TOKEN, TELEGRAM_API_BASE: telegram.apiBase, DISCORD_BASE_URL: baseUrl },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await telegram.close();
    },
  };
}

/** The specs' side of the control routes; `baseUrl` is the provided `channelFakesUrl`. */
export function channelFakesClient(baseUrl: string) {
  const call = async <T>(path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  return {
    /** An update from chat `chatId` saying `text` (e.g. `/start <code>`). */
    telegramSay: (chatId: number, text: string, chat: { username?: string; first_name?: string; title?: string; type?: string } = {}) =>
      call<{ ok: true }>('/__control/telegram/say', { chat_id: chatId, text, ...chat }),
    /** What the bot sent to chat `chatId`, in order. */
    telegramSent: (chatId: number) => call<SentMessage[]>(`/__control/telegram/sent?chat_id=${chatId}`),
    /** Every POST the Discord recorder got, in order. */
    discordReceived: () => call<RecordedRequest[]>('/__control/discord/received'),
  };
}
