/**
 * A job worker in a child process for jobs/queue.test.ts (run with `node --import tsx`): it runs the
 * queue's `slow` jobs, says `running <jobId>` on stdout and never finishes them, so the test can kill
 * it mid-job. Settings from the environment: REDIS_URL, JOB_TEST_PREFIX, JOB_TEST_LOCK_MS.
 */
import { createJobQueue, startJobWorkers } from '../src/jobs/queue';

const settings = { url: process.env.REDIS_URL ?? '', prefix: process.env.JOB_TEST_PREFIX ?? '' };
const log = { info: () => undefined, warn: () => undefined };
const queue = createJobQueue(settings);
startJobWorkers(settings, {
  queue,
  log: { ...log, child: () => log },
  lockDurationMs: Number(process.env.JOB_TEST_LOCK_MS ?? 2_000),
  depthEveryMs: 0,
  handlers: {
    slow: ({ jobId }) => {
      process.stdout.write(`running ${jobId}\n`);
      return new Promise(() => undefined);
    },
  },
});
