import { describe, expect, it } from 'vitest';
import { startScheduler } from './scheduler';

const log = () => {
  const lines: string[] = [];
  return { lines, info: (message: string) => lines.push(`info ${message}`), warn: (message: string) => lines.push(`warn ${message}`) };
};

describe('the scheduler', () => {
  it('runs a first pass at once and logs the jobs that ran', async () => {
    const logged = log();
    let ticks = 0;
    const scheduler = startScheduler({ tick: async () => (ticks++, { 'overall-sentiment': 'done', 'sector-sentiment': 'skipped', 'economic-indicators': 'failed' }) }, logged);
    await scheduler.stop();
    expect(ticks).toBe(1);
    expect(logged.lines).toEqual(['info Jobs: overall-sentiment done, economic-indicators failed']);
  });

  it('a pass that throws is logged, never an unhandled rejection', async () => {
    const logged = log();
    const scheduler = startScheduler({ tick: async () => Promise.reject(new Error('database is down')) }, logged);
    await scheduler.stop();
    expect(logged.lines).toEqual(['warn Jobs failed: database is down']);
  });

  it('ticks on its pattern, and stop() waits for a pass under way (at most its limit)', async () => {
    const logged = log();
    let ticks = 0;
    let finishPass = () => undefined as void;
    const scheduler = startScheduler(
      {
        tick: () =>
          new Promise((resolve) => {
            ticks += 1;
            finishPass = () => resolve({ 'overall-sentiment': 'skipped' });
          }),
      },
      logged,
      { pattern: '* * * * * *' }, // every second
    );
    // The first pass is still running when the next second starts: it is not overlapped.
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(ticks).toBe(1);
    finishPass();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(ticks).toBe(2);
    const started = Date.now();
    await scheduler.stop(200); // the second pass never finishes: stop gives up after 200 ms
    expect(Date.now() - started).toBeLessThan(5_000); // not forever
    expect(logged.lines).toEqual([]);
  });
});
