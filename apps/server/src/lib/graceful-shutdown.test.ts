import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { closeHttp, settledWithin } from './graceful-shutdown';

describe('closeHttp', () => {
  it('lets a request in flight finish, refuses new connections, and cuts a request still running after the drain', async () => {
    const app = Fastify();
    let finishSlow = () => undefined as void;
    let inFlight = 0;
    app.get('/slow', () => ((inFlight += 1), new Promise((resolve) => (finishSlow = () => resolve({ done: true })))));
    app.get('/never', () => ((inFlight += 1), new Promise(() => undefined)));
    app.get('/quick', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const slow = fetch(`${base}/slow`).then((response) => response.json());
    const never = fetch(`${base}/never`).then(
      () => 'answered',
      () => 'cut',
    );
    await expect.poll(() => inFlight).toBe(2);

    const started = Date.now();
    const closing = closeHttp(app, 1_500);
    // Closing: a new request is no longer served.
    const probe = () => fetch(`${base}/quick`, { headers: { connection: 'close' } }).then((response) => response.status, () => 'refused');
    await expect.poll(probe).not.toBe(200);
    finishSlow();
    expect(await slow).toEqual({ done: true });
    expect(await closing).toBe('cut');
    expect(await never).toBe('cut');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
  });

  it('answers drained when every request finished within the drain', async () => {
    const app = Fastify();
    app.get('/quick', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    expect(await (await fetch(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/quick`)).json()).toEqual({ ok: true });
    expect(await closeHttp(app, 5_000)).toBe('drained');
  });
});

describe('settledWithin', () => {
  it('is true when all settled in time (a rejection included), false past the limit', async () => {
    expect(await settledWithin(1_000, [Promise.resolve(1), Promise.reject(new Error('x')), undefined])).toBe(true);
    expect(await settledWithin(50, [new Promise(() => undefined)])).toBe(false);
  });
});
