/** A small OpenAI-compatible chat-completions server on loopback, for tests: each reply is scripted. */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ScriptedReply {
  status: number;
  body: unknown;
  /** Wait this long before answering (a slow provider). */
  delayMs?: number;
}

export interface OpenAiTestServer {
  /** The base URL to give the SDK, ending in /v1. */
  baseURL: string;
  /** Bodies of the chat-completions requests received, parsed. */
  requests: Array<{ path: string; authorization: string | undefined; body: Record<string, unknown> }>;
  /** The reply to the next requests (until changed). */
  reply: ScriptedReply;
  close(): Promise<void>;
}

/** A recorded chat-completions success, as api.openai.com answers it. */
export function completion(content: string): ScriptedReply {
  return {
    status: 200,
    body: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 1_763_900_000,
      model: 'gpt-4o-mini-2024-07-18',
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 120, completion_tokens: 60, total_tokens: 180 },
    },
  };
}

/** An OpenAI-style error answer. */
export function apiError(status: number, message: string, type = 'invalid_request_error'): ScriptedReply {
  return { status, body: { error: { message, type, param: null, code: null } } };
}

export async function startOpenAiTestServer(): Promise<OpenAiTestServer> {
  const sockets = new Set<Socket>();
  const state: OpenAiTestServer = {
    baseURL: '',
    requests: [],
    reply: completion('ok'),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      state.requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
      const { status, body, delayMs } = req.url === '/v1/chat/completions' ? state.reply : apiError(404, `Unknown path ${req.url}`);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (delayMs) setTimeout(send, delayMs).unref();
      else send();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  state.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}
