/**
 * The in-process scheduler (croner): once a minute, and once at start, it asks the job registry
 * (registry.ts: the dashboard's refreshes, the trade engines' passes and marks) to run whatever slot
 * is due. The jobs claim their slots in the database (job-runs.ts), so several server processes on
 * one database each run this scheduler and still do every slot once.
 */
import { Cron } from 'croner';

export interface SchedulerLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface Scheduler {
  /** Stops the timer and waits (at most `waitMs`, default 5 s) for a pass under way. */
  stop(waitMs?: number): Promise<void>;
}

export function startScheduler(jobs: { tick(): Promise<Record<string, string>> }, log: SchedulerLog, options: { pattern?: string } = {}): Scheduler {
  let current: Promise<void> | undefined;
  const pass = async () => {
    try {
      const outcome = await jobs.tick();
      const ran = Object.entries(outcome).filter(([, result]) => result !== 'skipped');
      if (ran.length > 0) log.info(`Jobs: ${ran.map(([job, result]) => `${job} ${result}`).join(', ')}`);
    } catch (error) {
      log.warn(`Jobs failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const run = () => {
    current ??= pass().finally(() => {
      current = undefined;
    });
    return current;
  };
  // protect: a pass still running when the next minute starts is not overlapped.
  const cron = new Cron(options.pattern ?? '* * * * *', { protect: true, timezone: 'UTC' }, run);
  void run();
  return {
    async stop(waitMs = 5_000) {
      cron.stop();
      // A pass cut short by the exit leaves its claim 'running'; another tick takes it over once stale.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([current, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
      clearTimeout(timer);
    },
  };
}
