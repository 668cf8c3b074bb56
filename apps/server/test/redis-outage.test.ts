/**
 * Redis going away and coming back (a private redis-server of the test's own on a free port; the
 * machine's shared Redis is never touched): a real server process and BullMQ workers survive it,
 * request-path commands fail at once instead of waiting out the reconnect backoff, readiness says
 * Redis is down, and within seconds of Redis being back the workers take jobs again and the
 * schedules a Redis restarted empty lost are there again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createJobQueue, startJobWorkers } from '../src/jobs/queue';
import { closeRedis, createRedisConnection, isRedisUnavailable } from '../src/lib/redis';
import { createTestDatabase } from './helpers';
import { call, cleanupAfterAll, signInDemo, freePort, readiness, startServerChild, tempDir, until } from './server-child';

const REDIS_SERVER = '/usr/bin/redis-server';
// The clients first (closing on a Redis that is up), the Redis servers last.
const cleanups = cleanupAfterAll();

/** A private redis-server (nothing saved to disk: a restart comes back empty). */
async function startRedis(port: number): Promise<{ process: ChildProcess; kill(): Promise<void> }> {
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const probe = createRedisConnection({ url: `redis://127.0.0.1:${port}`, prefix: 'probe' }, { name: 'probe' });
  probe.on('error', () => undefined);
  try {
    await until(() => probe.ping(), (pong) => pong === 'PONG', 10_000, 'redis-server up');
  } finally {
    probe.disconnect();
  }
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  cleanups.last(kill);
  return { process: child, kill };
}

describe.skipIf(!existsSync(REDIS_SERVER))('Redis going away and coming back', () => {
  it('a request-path connection fails its commands at once while Redis is down, however long the outage', async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    const connection = createRedisConnection({ url: `redis://127.0.0.1:${port}`, prefix: 'sbt-fast' }, { name: 'cache' });
    cleanups.add(() => closeRedis(connection));
    let errors = 0;
    connection.on('error', () => (errors += 1));
    expect(await connection.ping()).toBe('PONG');
    await redis.kill();
    // A long outage: the reconnect backoff has grown to its 2 s cap (each failed try reports an error).
    await until(async () => errors, (count) => count >= 12, 30_000, 'reconnect tries');
    const started = performance.now();
    const error = await connection.get('anything').then(
      () => undefined,
      (failure: unknown) => failure,
    );
    const waitedMs = performance.now() - started;
    expect(isRedisUnavailable(error)).toBe(true);
    // Without failing fast the command waits in the offline queue through several 2 s tries.
    expect(waitedMs).toBeLessThan(500);
    await startRedis(port);
    await until(() => connection.ping(), (pong) => pong === 'PONG', 10_000, 'the connection back');
  }, 60_000);

  it('BullMQ workers resume and the lost schedules come back after Redis restarts empty', async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    const settings = { url: `redis://127.0.0.1:${port}`, prefix: 'sbt-jobs' };
    const warnings: string[] = [];
    const log = { info: () => undefined, warn: (message: string) => warnings.push(message) };
    const queue = createJobQueue(settings, { log });
    const ran: string[] = [];
    const workers = startJobWorkers(settings, {
      queue,
      log: { ...log, child: () => log },
      depthEveryMs: 0,
      handlers: {
        ping: async ({ data }) => void ran.push(String(data.n)),
        tick: async () => void ran.push('tick'),
      },
    });
    cleanups.add(async () => {
      await workers.close(1_000);
      await queue.close();
    });
    await queue.upsertSchedules([{ name: 'tick', everyMs: 300 }]);
    await queue.enqueue('ping', { n: 1 });
    await until(async () => ran.includes('1') && ran.includes('tick'), Boolean, 15_000, 'first job and tick');

    await redis.kill();
    // Enqueueing while Redis is down fails (the caller answers 503), it does not hang.
    await until(() => queue.enqueue('ping', { n: 0 }).then(() => 'added'), (outcome: unknown) => isRedisUnavailable(outcome), 15_000, 'enqueue failing');

    await startRedis(port); // empty: the schedule is gone from it
    const back = Date.now();
    await until(() => queue.enqueue('ping', { n: 2 }).then(() => 'added'), (outcome) => outcome === 'added', 15_000, 'enqueue again');
    await until(async () => ran.includes('2'), Boolean, 20_000, 'the workers running a job again');
    const ticksBefore = ran.filter((name) => name === 'tick').length;
    await until(async () => ran.filter((name) => name === 'tick').length, (ticks) => ticks > ticksBefore, 20_000, 'the schedule ticking again');
    expect((await queue.queue.getJobSchedulers(0, -1)).map((scheduler) => scheduler.key)).toEqual(['tick']);
    console.info(`BullMQ: jobs and schedule back ${Date.now() - back} ms after Redis restarted`);
    // Each distinct connection error is logged once per outage, not on every reconnect try.
    expect(new Set(warnings).size).toBe(warnings.length);
  }, 90_000);

  it('a server process on Redis: no crash, sign-in still works, readiness says redis down, and all is well again once Redis is back', async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    const database = await createTestDatabase();
    cleanups.add(database.drop);
    const temp = await tempDir('redis-outage');
    cleanups.add(temp.remove);
    const server = await startServerChild({ DATA_DIR: temp.dir, DATABASE_URL: database.url, REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_PREFIX: 'sbt-outage' });
    cleanups.add(() => server.stop());
    await until(() => readiness(server), (answer) => answer.status === 200, 30_000, 'ready');

    await redis.kill();
    const down = await until(() => readiness(server), (answer) => answer.status === 503, 15_000, 'readiness 503');
    expect(down.body).toMatchObject({ status: 'not_ready', checks: { redis: { state: 'down', required: true, msg: expect.stringContaining('not connected') }, database: { state: 'up' } } });
    // The sign-in limits fall back to this process's memory; the account is in the database.
    const signIn = await signInDemo(server.baseUrl);
    expect(signIn.status).toBe(200);
    const token = signIn.body.access_token as string;
    expect((await call(server.baseUrl, 'get_favorite_stocks', { token })).status).toBe(200);
    expect(server.alive()).toBe(true);

    await startRedis(port);
    const back = Date.now();
    // Ready (Redis answers) may come a moment before the queues' own connection is back: wait for both.
    const ready = await until(
      () => readiness(server),
      (answer) => answer.status === 200 && (answer.body as { checks?: { queues?: { state?: string } } }).checks?.queues?.state === 'up',
      15_000,
      'ready again, queues up',
    );
    expect(ready.body).toMatchObject({ checks: { redis: { state: 'up' }, queues: { state: 'up' } } });
    expect((await signInDemo(server.baseUrl)).status).toBe(200);
    expect(server.alive()).toBe(true);
    console.info(`server on Redis: ready again ${Date.now() - back} ms after Redis restarted`);
  }, 120_000);
});
