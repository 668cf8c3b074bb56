/**
 * The few Bot API calls Telegram alerts need (issue 27; docs/rules/alerts.md §4.8 "Telegram"): who the bot is
 * (getMe), the updates that bind and unbind chats (getUpdates, or setWebhook with a secret token), and
 * sendMessage in HTML mode. The token is the admin's (TELEGRAM_BOT_TOKEN) and the origin is fixed
 * (TELEGRAM_API_BASE), so these are not user URLs: no outbound URL rules, and the token never
 * appears in an error or a log line.
 */
import type { TelegramUpdate } from '@signalboard/core';

export interface TelegramAnswer {
  status: number;
  ok: boolean;
  /** Telegram's own error text ('Forbidden: bot was blocked by the user'). */
  description: string | null;
  /** 429: seconds to wait (parameters.retry_after). */
  retryAfterSeconds: number | null;
  result: unknown;
  durationMs: number;
}

/** No answer from Telegram (network, timeout, not JSON): the message says which, without the token. */
export class TelegramNetworkError extends Error {}

export interface TelegramBotApi {
  call(method: string, params: Record<string, unknown>, options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<TelegramAnswer>;
  getMe(): Promise<{ username: string }>;
  getUpdates(offset: number, waitSeconds: number, signal?: AbortSignal): Promise<TelegramUpdate[]>;
  setWebhook(url: string, secretToken: string): Promise<void>;
  deleteWebhook(): Promise<void>;
}

export function createTelegramBotApi(options: { token: string; apiBase: string; fetch?: typeof fetch }): TelegramBotApi {
  const base = `${options.apiBase.replace(/\/+$/, '')}/bot${options.token}`;
  const doFetch = options.fetch ?? fetch;

  async function call(method: string, params: Record<string, unknown>, callOptions: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<TelegramAnswer> {
    const started = performance.now();
    const timeout = AbortSignal.timeout(callOptions.timeoutMs ?? 5_000);
    const signal = callOptions.signal ? AbortSignal.any([timeout, callOptions.signal]) : timeout;
    let response: Response;
    let text: string;
    try {
      response = await doFetch(`${base}/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params), signal, redirect: 'manual' });
      text = await response.text();
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError') throw new TelegramNetworkError(`Telegram did not answer within ${Math.round((callOptions.timeoutMs ?? 5_000) / 1000)} s`);
      if (name === 'AbortError') throw error;
      const code = ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code;
      throw new TelegramNetworkError(`Telegram could not be reached${code ? ` (${code})` : ''}`);
    }
    let body: { ok?: unknown; description?: unknown; result?: unknown; parameters?: { retry_after?: unknown } } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // A proxy's HTML error page: the status says enough.
    }
    const retryAfter = Number(body.parameters?.retry_after);
    return {
      status: response.status,
      ok: response.ok && body.ok === true,
      description: typeof body.description === 'string' ? body.description : null,
      retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null,
      result: body.result,
      durationMs: performance.now() - started,
    };
  }

  const fail = (method: string, answer: TelegramAnswer) => new TelegramNetworkError(`Telegram ${method}: ${answer.status}${answer.description ? ` ${answer.description}` : ''}`);

  return {
    call,
    async getMe() {
      const answer = await call('getMe', {});
      const username = (answer.result as { username?: unknown } | undefined)?.username;
      if (!answer.ok || typeof username !== 'string') throw fail('getMe', answer);
      return { username };
    },
    async getUpdates(offset, waitSeconds, signal) {
      const answer = await call('getUpdates', { offset, timeout: waitSeconds, allowed_updates: ['message'] }, { timeoutMs: (waitSeconds + 10) * 1000, ...(signal ? { signal } : {}) });
      if (!answer.ok || !Array.isArray(answer.result)) throw fail('getUpdates', answer);
      return answer.result as TelegramUpdate[];
    },
    async setWebhook(url, secretToken) {
      const answer = await call('setWebhook', { url, secret_token: secretToken, allowed_updates: ['message'], drop_pending_updates: false });
      if (!answer.ok) throw fail('setWebhook', answer);
    },
    async deleteWebhook() {
      const answer = await call('deleteWebhook', { drop_pending_updates: false });
      if (!answer.ok) throw fail('deleteWebhook', answer);
    },
  };
}
