import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { PACED_MAX_WAIT_MS, createForeground, createPacer, trackForeground } from './foreground';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('foreground: requests before background work', () => {
  it('gives a turn at once when no request has been under way', async () => {
    const foreground = createForeground({ quietMs: 50, maxWaitMs: 1000 });
    const started = performance.now();
    await foreground.turn();
    expect(performance.now() - started).toBeLessThan(40);
  });

  it('waits while a request is under way, then for the quiet time after it', async () => {
    const foreground = createForeground({ quietMs: 30, maxWaitMs: 5000 });
    const end = foreground.begin();
    let turned = 0;
    const turn = foreground.turn().then(() => (turned = performance.now()));
    await sleep(60);
    expect(turned).toBe(0);
    const ended = performance.now();
    end();
    end(); // once only: a second call does not count another request out
    await turn;
    expect(turned - ended).toBeGreaterThanOrEqual(25);
    // Still counted right: a new request holds the next turn again.
    const next = foreground.begin();
    let again = false;
    const second = foreground.turn().then(() => (again = true));
    await sleep(40);
    expect(again).toBe(false);
    next();
    await second;
  });

  it('waits at most maxWaitMs under constant load', async () => {
    const foreground = createForeground({ quietMs: 10, maxWaitMs: 80 });
    foreground.begin(); // never ends
    const started = performance.now();
    await foreground.turn();
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(75);
    expect(waited).toBeLessThan(1000);
  });

  it("counts an app's requests from their arrival to their answer", async () => {
    const app = Fastify();
    const foreground = trackForeground(app);
    let answer = () => undefined as void;
    app.get('/slow', () => new Promise<{ ok: boolean }>((resolve) => (answer = () => resolve({ ok: true }))));
    await app.ready();
    const request = app.inject('/slow');
    await sleep(20);
    let turned = false;
    const turn = foreground.turn().then(() => (turned = true));
    await sleep(60);
    expect(turned).toBe(false);
    answer();
    expect((await request).json()).toEqual({ ok: true });
    await turn;
    expect(turned).toBe(true);
    await app.close();
  });

  it('stops counting a request whose client went away before its answer, and counts each request once', async () => {
    const app = Fastify({ forceCloseConnections: true }); // close() does not wait for the handler that never answers
    const foreground = trackForeground(app);
    let arrived = () => undefined as void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    app.get('/never', () => {
      arrived();
      return new Promise(() => undefined);
    });
    app.get('/quick', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    // Two answered requests on one kept-alive connection: each leaves once (a double count would never reach zero again).
    for (let i = 0; i < 2; i += 1) expect((await fetch(`http://127.0.0.1:${port}/quick`)).ok).toBe(true);
    const gone = new AbortController();
    const abandoned = fetch(`http://127.0.0.1:${port}/never`, { signal: gone.signal }).catch(() => 'aborted');
    await arrival;
    let turnedAt = 0;
    const turn = foreground.turn(5_000).then(() => (turnedAt = performance.now()));
    await sleep(60);
    expect(turnedAt).toBe(0);
    const abortedAt = performance.now();
    gone.abort();
    expect(await abandoned).toBe('aborted');
    await turn;
    // The quiet time after the client left, not the 5 s deadline (a request never left, or left twice).
    expect(turnedAt - abortedAt).toBeLessThan(2_000);
    await app.close();
  });
});

describe('pacer: background work cut into slices', () => {
  it('takes a turn once the slice has run sliceMs, and at once when asked for a fresh slice', async () => {
    let nowMs = 0;
    let turns = 0;
    const pace = createPacer({ begin: () => () => undefined, turn: async () => void (turns += 1) }, { sliceMs: 10, now: () => nowMs });
    nowMs = 9;
    await pace();
    expect(turns).toBe(0);
    nowMs = 10;
    await pace();
    expect(turns).toBe(1);
    // The slice starts again after the turn.
    nowMs = 15;
    await pace();
    expect(turns).toBe(1);
    await pace(true);
    expect(turns).toBe(2);
    nowMs = 24;
    await pace();
    expect(turns).toBe(2);
    nowMs = 25;
    await pace();
    expect(turns).toBe(3);
  });

  it('asks for a short wait (PACED_MAX_WAIT_MS), which a turn under requests without pause keeps to', async () => {
    const waits: Array<number | undefined> = [];
    const pace = createPacer({ begin: () => () => undefined, turn: async (wait) => void waits.push(wait) }, { sliceMs: 10, now: () => 0 });
    await pace(true);
    expect(waits).toEqual([PACED_MAX_WAIT_MS]);
    // A clock that moves 1 ms at each reading; a request that never ends; a default wait of ~forever.
    let nowMs = 0;
    const foreground = createForeground({ quietMs: 10, maxWaitMs: 1e9, now: () => (nowMs += 1) });
    foreground.begin();
    await foreground.turn(PACED_MAX_WAIT_MS);
    expect(nowMs).toBeGreaterThanOrEqual(PACED_MAX_WAIT_MS);
    expect(nowMs).toBeLessThan(PACED_MAX_WAIT_MS + 5);
  });
});
