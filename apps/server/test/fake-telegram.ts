/**
 * A fake Telegram Bot API for tests (issue 27): getMe, getUpdates (long polling: answers as soon as an
 * update is queued, or empty after its timeout), setWebhook, deleteWebhook and sendMessage, on a
 * local port. sendMessage answers can be scripted per chat (429 with retry_after, 403 blocked).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_BOT_TOKEN = '123456789:AAFakeTokenForTestsOnly_abcdefghijklmnop';
export const FAKE_BOT_USERNAME = 'SignalboardTestBot';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export interface SentMessage {
  chat_id: string;
  text: string;
  parse_mode?: string;
}

export interface FakeTelegram {
  apiBase: string;
  sent: SentMessage[];
  calls: Array<{ method: string; params: Record<string, unknown> }>;
  /** Queues an update from `chatId` with `text` (what a user typing in the chat sends). */
  say(chatId: number, text: string, chat?: { type?: string; username?: string; title?: string; first_name?: string }): void;
  /** The next sendMessage answers to `chatId`, in turn (then 200 again). */
  answerNext(chatId: number | string, ...answers: Array<'blocked' | { retryAfter: number } | number>): void;
  /** The messages sent to a chat, waiting until there are `count`. */
  waitForSent(chatId: number | string, count: number, timeoutMs?: number): Promise<SentMessage[]>;
  close(): Promise<void>;
}

export async function startFakeTelegram(): Promise<FakeTelegram> {
  const updates: Array<{ update_id: number; message: Record<string, unknown> }> = [];
  const waiting = new Set<() => void>();
  const scripted = new Map<string, Answer[]>();
  const sent: SentMessage[] = [];
  const calls: FakeTelegram['calls'] = [];
  let nextUpdateId = 1000;
  let messageId = 1;

  const ok = (result: unknown): Answer => ({ status: 200, body: { ok: true, result } });
  const error = (status: number, description: string, extra: Record<string, unknown> = {}): Answer => ({ status, body: { ok: false, error_code: status, description, ...extra } });

  async function handle(method: string, params: Record<string, unknown>): Promise<Answer> {
    calls.push({ method, params });
    switch (method) {
      case 'getMe':
        return ok({ id: 123456789, is_bot: true, first_name: 'Signalboard', username: FAKE_BOT_USERNAME });
      case 'setWebhook':
      case 'deleteWebhook':
        return ok(true);
      case 'getUpdates': {
        const offset = Number(params.offset ?? 0);
        const pending = () => updates.filter((update) => update.update_id >= offset);
        if (pending().length === 0) {
          const waitMs = Math.min(Number(params.timeout ?? 0), 30) * 1000;
          await new Promise<void>((resolve) => {
            const done = () => (clearTimeout(timer), waiting.delete(done), resolve());
            const timer = setTimeout(done, waitMs);
            waiting.add(done);
          });
        }
        // Confirmed updates (below the offset) are forgotten, as Telegram does.
        for (let i = updates.length - 1; i >= 0; i -= 1) if (updates[i]!.update_id < offset) updates.splice(i, 1);
        return ok(pending());
      }
      case 'sendMessage': {
        const chatId = String(params.chat_id);
        const queue = scripted.get(chatId);
        const next = queue?.shift();
        if (next) return next;
        if (typeof params.text !== 'string' || params.text === '') return error(400, 'Bad Request: message text is empty');
        sent.push({ chat_id: chatId, text: params.text, ...(typeof params.parse_mode === 'string' ? { parse_mode: params.parse_mode } : {}) });
        return ok({ message_id: messageId++, chat: { id: Number(chatId) }, text: params.text });
      }
      default:
        return error(404, 'Not Found: method not found');
    }
  }

  const server = http.createServer((request, response) => {
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.url ?? '');
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        let answer: Answer;
        if (!match) answer = error(404, 'Not Found');
        else if (match[1] !== FAKE_BOT_TOKEN) answer = error(401, 'Unauthorized');
        else {
          const text = Buffer.concat(chunks).toString('utf8');
          answer = await handle(match[2]!, text ? (JSON.parse(text) as Record<string, unknown>) : {});
        }
        response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    apiBase: `http://127.0.0.1:${port}`,
    sent,
    calls,
    say(chatId, text, chat = {}) {
      updates.push({
        update_id: nextUpdateId++,
        message: { message_id: messageId++, date: Math.floor(Date.now() / 1000), text, chat: { id: chatId, type: chat.type ?? 'private', ...(chat.type === 'private' || !chat.type ? { first_name: chat.first_name ?? 'Jane' } : {}), ...chat } },
      });
      for (const wake of [...waiting]) wake();
    },
    answerNext(chatId, ...answers) {
      const queue = scripted.get(String(chatId)) ?? [];
      for (const answer of answers) {
        if (answer === 'blocked') queue.push(error(403, 'Forbidden: bot was blocked by the user'));
        else if (typeof answer === 'number') queue.push(error(answer, answer >= 500 ? 'Internal Server Error' : 'Bad Request'));
        else queue.push(error(429, `Too Many Requests: retry after ${answer.retryAfter}`, { parameters: { retry_after: answer.retryAfter } }));
      }
      scripted.set(String(chatId), queue);
    },
    async waitForSent(chatId, count, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      const mine = () => sent.filter((message) => message.chat_id === String(chatId));
      while (mine().length < count) {
        if (Date.now() > deadline) throw new Error(`fake Telegram: ${mine().length} of ${count} messages to chat ${chatId} after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return mine();
    },
    async close() {
      for (const wake of [...waiting]) wake();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
