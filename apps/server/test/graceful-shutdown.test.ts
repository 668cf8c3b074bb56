/**
 * SIGTERM while a job runs (a real server process, test/server-child.ts): the server takes no new
 * ticks, lets the job finish and record its job_runs row (within SHUTDOWN_DRAIN_SECONDS, here 30 s),
 * and only then closes the pool, and exits 0. The job here is the dashboard's overall-sentiment
 * refresh, held after its claim (TEST_CONTROL_FILE holdJobs) and let go 21 s after the signal: past
 * everything the shutdown used to wait for (the scheduler's pass 5 s, the whole shutdown 20 s).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { jobRuns } from '../src/db/schema';
import { createTestDatabase } from './helpers';
import { startServerChild, tempDir } from './server-child';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

async function until(test: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('SIGTERM while a job runs', () => {
  it('the job finishes and records its job_runs row before the pool closes; the server exits 0', async () => {
    const temp = await tempDir('graceful-shutdown');
    cleanups.push(temp.remove);
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const control = path.join(temp.dir, 'control.json');
    await fs.writeFile(control, JSON.stringify({ holdJobs: ['overall-sentiment'] }));
    const server = await startServerChild({ DATA_DIR: path.join(temp.dir, 'data'), DATABASE_URL: database.url, NODE_ENV: 'test', TEST_CONTROL_FILE: control, SHUTDOWN_DRAIN_SECONDS: '30' });
    cleanups.push(() => server.stop());
    const claim = async () => (await database.db.select().from(jobRuns).where(eq(jobRuns.job, 'overall-sentiment')))[0];
    await until(async () => (await claim())?.status === 'running', 'the job claimed');

    const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));
    server.process.kill('SIGTERM');
    await until(async () => server.output().includes('SIGTERM received'), 'the signal seen', 10_000);
    // The job goes on past the signal (a pass that takes a while), within the drain.
    await new Promise((resolve) => setTimeout(resolve, 21_000));
    expect(server.alive()).toBe(true);
    await fs.writeFile(control, JSON.stringify({ holdJobs: [] }));

    expect({ code: await exited, output: server.output().slice(-2000) }).toMatchObject({ code: 0 });
    expect(await claim()).toMatchObject({ status: 'done', error: null });
    expect(server.output()).not.toMatch(/Job overall-sentiment failed|Cannot use a pool after calling end/);
  }, 180_000);
});
