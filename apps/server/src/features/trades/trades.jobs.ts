/**
 * The trade engines' jobs (docs/rules/conventions.md §0.3, §0.5), per engine:
 * - `trades-replay:<ruleVersion>`: on first start, for each new rule version and for new imported prices
 *   in its universe (trades.versions.ts), the engine runs over the daily history in the background;
 *   its ideas are 'replayed'. A process runs its replays one at a time (trades.replay-lane.ts). Progress is in trade_engine_versions (api/trade_ideas/replay_status).
 *   With REDIS_URL the tick enqueues it instead (`queueReplay`): a long job of its own on a worker
 *   (jobs/tasks.ts `trades-replay`, runReplay), which a worker that dies holding it hands to another
 *   within about half a minute (BullMQ's lock), the new holder taking the job_runs claim over.
 * - `trades-daily:<engine>`: after the US close (16:30 New York) on trading sessions, the sessions
 *   since the last one run, in order, through the same code; a session whose bars are not there yet
 *   fails the run, which is retried with backoff until they are. Once the replay is done.
 * - `trades-marks:<engine>`: while the market is open, every 5 minutes (simulated and file sources)
 *   or 15 minutes (live: Finnhub's quote limit), the open ideas' rows are folded again at the
 *   current quote. Marks are no events, and run after the engine's daily pass in a tick; a mark is
 *   written only over the row of the log it folded (a pass that has closed the idea since wins).
 * Crypto (trades.calendar.ts): every UTC day is a session, its pass at 00:05 UTC the next day, its
 * marks every minute around the clock (CoinGecko's quotes are held 10 minutes by its adapter).
 * Every run claims its slot in job_runs (jobs/), so any number of processes run each slot once.
 */
import { dayNumber, isoFromDayNumber, marketSession, type EngineId, type UniverseMember } from '@signalboard/core';
import type { JobRuns } from '../../jobs/job-runs';
import { createPacer, NO_FOREGROUND, type Foreground } from '../../lib/foreground';
import { runJob, sharedPass, type Job, type JobRunnerDeps, type QueuedRun, type RunOutcome, type TickOptions } from '../../jobs/registry';
import type { Clock } from '../../lib/clock';
import type { CachedMarket } from '../../providers/market/cached-market';
import { UnknownSymbolError } from '../../providers/market/types';
import { adapterOf } from './engines';
import { createExtrasFor, engineUniverse, markChains } from './trades.extras';
import { calendarOf } from './trades.calendar';
import { seriesOnData, seriesThrough } from './trades.market';
import type { TradesRepo } from './trades.repo';
import { createReplayLane, type ReplayLane } from './trades.replay-lane';
import { createSessionRunner, recordOf, replaySessions } from './trades.runner';
import type { AnyEngine } from './trades.types';
import { createEngineVersions } from './trades.versions';

const MINUTE_MS = 60_000;
/** Marks: every 5 minutes on the simulated and file sources, 15 on live ones (docs/rules/data-needs.md §7). */
export const MARK_INTERVAL_MS = { simulated: 5 * MINUTE_MS, file: 5 * MINUTE_MS, live: 15 * MINUTE_MS } as const;
/** A session runs once at least this share of the universe's series (those with any bars) has its bar. */
export const BARS_PRESENT_SHARE = 0.5;
/** Replay progress is written (and the claim kept fresh) every this many sessions. */
const PROGRESS_EVERY_SESSIONS = 10;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface TradeJobsDeps {
  engines: readonly AnyEngine[];
  repo: TradesRepo;
  runs: JobRuns;
  market: CachedMarket;
  /** The market's clock (MARKET_NOW when pinned): sessions, slots, `now` of the passes. */
  marketClock: Clock;
  /** Wall time: claims and backoff. */
  clock: Clock;
  log: { info(message: string): void; warn(message: string): void };
  /** An engine's universe (default: engineUniverse of the source). Tests pass a small one. */
  universe?: (survivorshipBiased: boolean, engine: EngineId) => Promise<UniverseMember[]>;
  /** Told after a daily pass or marks wrote ideas (the live updates tell the trade screens). */
  ideasChanged?: (engine: EngineId) => void;
  /**
   * REDIS_URL: a replay due is enqueued as a job (one per rule version, however many ticks) that a
   * worker runs with runReplay, instead of running in the background of this process's tick.
   */
  queueReplay?: (ruleVersion: string) => Promise<void>;
  /** This process's requests, which a replay and a daily pass give way to between slices of their work (none in a worker). */
  foreground?: Foreground;
  /** The lane the replays of this process take one at a time (trades.replay-lane.ts); tests pass one. */
  lane?: ReplayLane;
  /** Tests only: holds a claimed daily pass or marks run before it starts (JobRunnerDeps.hold). */
  hold?: JobRunnerDeps['hold'];
}

export const replayJobName = (engine: AnyEngine) => `trades-replay:${engine.ruleVersion}`;
export const dailyJobName = (engine: AnyEngine) => `trades-daily:${engine.id}`;
export const marksJobName = (engine: AnyEngine) => `trades-marks:${engine.id}`;

export function createTradeJobs(deps: TradeJobsDeps) {
  const { engines, repo, runs, market, marketClock, clock, log } = deps;
  const runner: JobRunnerDeps = { runs, marketClock, clock, log, ...(deps.hold ? { hold: deps.hold } : {}) };
  const universeOf = deps.universe ?? ((biased: boolean, engine: EngineId) => engineUniverse(market, engine, biased));
  /** The extras read the engines' universes through universeOf (drop's index members: the layered one). */
  const extrasDeps = { market, repo, log, universeOf, nowMs: () => marketClock.nowMs() };
  /** The replays under way in this process, by rule version (claimed: running, or waiting in the lane). */
  const replays = new Map<string, Promise<void>>();
  const lane = deps.lane ?? createReplayLane();
  const foreground = deps.foreground ?? NO_FOREGROUND;
  let stopping = false;

  // Each engine runs as its rule version on the data its universe has (trades.versions.ts): `engine` below is that one.
  const versions = createEngineVersions({ engines, market, universeOf });
  const currentOf = async (engine: AnyEngine) => (await versions.current(engine.id)) ?? engine;
  /** The engine run here (as it runs now) whose replay finishes before this one's (EngineAdapter.replayAfter: drop's, swing). */
  const replayFirst = async (engine: AnyEngine): Promise<AnyEngine | undefined> => {
    const after = adapterOf(engine).replayAfter;
    return after === undefined ? undefined : versions.current(after);
  };

  /**
   * The replay of the engine's current version over the source's daily history (claimed: see
   * claimReplay). False when another process took it over and is ahead: that one holds the claim now.
   */
  async function replay(engine: AnyEngine, nowMs: number, heartbeat: () => Promise<void>): Promise<boolean> {
    const base = { engine: engine.id, ruleVersion: engine.ruleVersion, paramHash: engine.paramHash };
    // Drop items link the swing trade open on their session (EngineAdapter.replayAfter): a swing
    // replay under way here finishes first (waited for outside the lane, which swing's replay needs).
    const before = await replayFirst(engine);
    const beforeReplay = before ? replays.get(before.ruleVersion) : undefined;
    if (beforeReplay) await beforeReplay;
    const leave = await lane.enter(heartbeat);
    try {
      if (stopping) throw new Error('the server stopped before the replay began; it runs at the next start');
      const calendar = calendarOf(engine.id);
      const lastDay = calendar.passDay(nowMs);
      const universe = await universeOf(true, engine.id);
      // Within a session too: its work is cut into slices of about SLICE_MS (lib/foreground.ts).
      const pace = createPacer(foreground);
      // An imported history is read whole: the replay covers its range (docs/data-in-and-out.md "Replays of new data").
      const { series, changed } = await seriesOnData(engine, market, universe, lastDay, { replay: true, shouldStop: () => stopping, pace });
      if (changed) throw new Error(changed);
      const all = replaySessions(calendar.sessionDays(series.values(), 0, lastDay), engine.warmupBars);
      // A replay taken up again (the server stopped, or an attempt failed, half-way) keeps the sessions the
      // store holds (each session's events, rows and lastSession are written in one transaction) and goes on
      // from the store's open ideas and cooldowns: the store ends as one uninterrupted run leaves it.
      const stored = (await repo.version(engine.id, engine.ruleVersion))?.lastSession ?? null;
      const sessions = stored === null ? all : all.filter((day) => day > dayNumber(stored));
      const skipped = all.length - sessions.length;
      await repo.saveVersion(repo.db, { ...base, sessionsTotal: all.length, sessionsDone: skipped }, clock.nowMs());
      const extrasFor = await createExtrasFor(engine, universe, { ...extrasDeps, series });
      const session = await createSessionRunner({ engine, repo, mode: 'replay', resume: stored !== null, universe, series, extrasFor, pace });
      for (const [index, day] of sessions.entries()) {
        // The replay is background work: between sessions the requests under way finish first
        // (lib/foreground.ts), so a first screen does not queue behind it.
        await foreground.turn();
        if (stopping) throw new Error('the server stopped during the replay; it goes on from there at the next start');
        const touched = await session.step(day, calendar.passTimeMs(day), { refoldAllOpen: false, claim: sessionClaim(engine, day), afterWrite: lastSessionWrite(engine, day) });
        if (touched === null) {
          // Another process took the replay over (this one's claim had gone stale) and is ahead: it finishes it.
          log.info(`Trade ideas: ${engine.ruleVersion}: another process has replayed ${isoFromDayNumber(day)}; it carries the replay on`);
          return false;
        }
        const done = skipped + index + 1;
        if (done % PROGRESS_EVERY_SESSIONS === 0 || index === sessions.length - 1) {
          await repo.saveVersion(repo.db, { ...base, sessionsDone: done }, clock.nowMs());
          await heartbeat();
        }
      }
      const last = all[all.length - 1];
      if (last !== undefined) await session.markOpenAtClose(last, nowMs);
      await repo.saveVersion(repo.db, { ...base, replayState: 'done', finishedAt: new Date(clock.nowMs()), lastSession: isoFromDayNumber(last ?? lastDay) }, clock.nowMs());
      log.info(`Trade ideas: ${engine.ruleVersion} replayed ${sessions.length} sessions (${session.openCount()} ideas still open)`);
      return true;
    } catch (error) {
      await repo.saveVersion(repo.db, { ...base, replayState: 'failed', finishedAt: new Date(clock.nowMs()), error: errorText(error).slice(0, 2000) }, clock.nowMs());
      throw error;
    } finally {
      leave();
    }
  }

  /**
   * A session's write goes ahead only while the version's last stored session is before it (its row
   * locked for the transaction): two processes running the same session (a claim taken over as stale
   * while its first holder still runs) store it once, and the later one stops, its open ideas being
   * behind the store.
   */
  const sessionClaim = (engine: AnyEngine, day: number) => async (tx: Parameters<Parameters<TradesRepo['transaction']>[0]>[0]) => {
    const last = await repo.lockedLastSession(tx, engine.id, engine.ruleVersion);
    return last === null || dayNumber(last) < day;
  };
  /** The session is the version's last stored one (written in the session's transaction). */
  const lastSessionWrite = (engine: AnyEngine, day: number) => (tx: Parameters<Parameters<TradesRepo['transaction']>[0]>[0]) =>
    repo.saveVersion(tx, { engine: engine.id, ruleVersion: engine.ruleVersion, paramHash: engine.paramHash, lastSession: isoFromDayNumber(day) }, clock.nowMs());

  function dailyJob(engine: AnyEngine): Job {
    const calendar = calendarOf(engine.id);
    return {
      name: dailyJobName(engine),
      slotOf: (nowMs) => new Date(calendar.passTimeMs(calendar.passDay(nowMs))),
      async run(_slot, nowMs) {
        const version = await repo.version(engine.id, engine.ruleVersion);
        if (version?.replayState !== 'done') return [`${engine.ruleVersion}: the history replay has not finished`];
        const lastDay = calendar.passDay(nowMs);
        const firstDay = version.lastSession ? dayNumber(version.lastSession) + 1 : lastDay;
        const sessions: number[] = [];
        for (let day = firstDay; day <= lastDay; day += 1) if (calendar.isSession(day)) sessions.push(day);
        if (sessions.length === 0) return [];
        const universe = await universeOf(false, engine.id);
        const pace = createPacer(foreground);
        // An import landed since this version was chosen: its data's replay (the next tick's) runs these sessions.
        const { series, changed } = await seriesOnData(engine, market, universe, lastDay, { replay: false, pace });
        if (changed) return [changed];
        const extrasFor = await createExtrasFor(engine, universe, { ...extrasDeps, series });
        const session = await createSessionRunner({ engine, repo, mode: 'live', universe, series, extrasFor, pace });
        let stored = false;
        for (const day of sessions) {
          const date = isoFromDayNumber(day);
          // A symbol the source has no daily bars for at all (one a dataset lists for its quote only) will not get this one: it does not count.
          const withBars = [...series.values()].filter((one) => one.day.length > 0);
          let present = 0;
          for (const one of withBars) if (seriesThrough(one, day).day.at(-1) === day) present += 1;
          if (withBars.length === 0 || present < BARS_PRESENT_SHARE * withBars.length) {
            throw new Error(`the bars of ${date} are not there yet (${present} of ${withBars.length} symbols); retried until they are`);
          }
          const touched = await session.step(day, nowMs, {
            refoldAllOpen: true,
            // A source with today's chains only quotes them for the session this pass decides.
            live: day === lastDay,
            claim: sessionClaim(engine, day),
            afterWrite: lastSessionWrite(engine, day),
          });
          // Another process (its claim taken over as stale) has stored this session: it runs the rest.
          if (touched === null) break;
          stored = true;
        }
        if (stored) deps.ideasChanged?.(engine.id);
        return [];
      },
    };
  }

  function marksJob(engine: AnyEngine): Job {
    const interval = MARK_INTERVAL_MS[market.source];
    const calendar = calendarOf(engine.id);
    return {
      name: marksJobName(engine),
      slotOf: (nowMs) => calendar.markSlot(nowMs, interval),
      async run(_slot, nowMs) {
        const rows = (await repo.openIdeas(repo.db, engine.id)).filter((row) => row.ruleVersion === engine.ruleVersion);
        if (rows.length === 0) return [];
        const events = await repo.eventsOf(
          repo.db,
          rows.map((row) => row.id),
        );
        const failures: string[] = [];
        const quotes = new Map<string, { price: number; at: Date }>();
        const symbols = [...new Set(rows.map((row) => row.symbol))];
        const worker = async () => {
          for (let symbol = symbols.shift(); symbol; symbol = symbols.shift()) {
            try {
              const quote = await market.getQuote(symbol);
              if (quote.stale) throw new Error('the provider is failing (only an older copy is cached)');
              quotes.set(symbol, { price: quote.value.price, at: new Date(Math.min(quote.value.timestamp * 1000, nowMs)) });
            } catch (error) {
              if (!(error instanceof UnknownSymbolError)) failures.push(`${symbol}: ${errorText(error)}`);
            }
          }
        };
        await Promise.all(Array.from({ length: market.source === 'live' ? 2 : 8 }, worker));
        // Contracts chosen from a chain are marked at its bid now (options) or its IV (drop's O items).
        const chains = await markChains(engine, market, events.values(), isoFromDayNumber(marketSession(nowMs).lastSessionDay), log);
        let marked = 0;
        for (const row of rows) {
          const mark = quotes.get(row.symbol);
          const log = events.get(row.id);
          if (!mark || !log?.length) continue;
          // A daily pass (this process's or another's) that stored events since these rows were read is
          // ahead of this fold: its row stands (saveMark checks it again as it writes).
          const lastSequence = log[log.length - 1]!.sequence;
          if (lastSequence !== row.lastSequence || engine.openState(log) === null) continue;
          const record = recordOf(engine, log, { price: mark.price, at: mark.at.toISOString() }, nowMs, chains);
          await repo.saveMark(row.id, lastSequence, { ...mark, optionValue: record.markOptionValue }, record.row, record.status, record.isActive, new Date(nowMs));
          marked += 1;
        }
        if (marked > 0) deps.ideasChanged?.(engine.id);
        return failures;
      },
    };
  }

  /**
   * Claims the engine's replay in job_runs (one process runs it; `queued`: see JobRuns.claim) and
   * records it as running, holding the version in `replays` from the start so a concurrent tick of
   * this process does not claim it twice. Answers the run (wrapped: an async function's answer would
   * wait for it), or null when not claimed. Never rejects.
   */
  async function claimReplay(engine: AnyEngine, queued?: QueuedRun): Promise<{ run: Promise<RunOutcome> } | null> {
    if (stopping || replays.has(engine.ruleVersion)) return null;
    const name = replayJobName(engine);
    const slot = new Date(0);
    let release = () => undefined as void;
    replays.set(engine.ruleVersion, new Promise<void>((resolve) => (release = resolve)));
    let attempt: number | null;
    try {
      attempt = await runs.claimAttempt(name, slot, clock.nowMs(), queued ? { queued } : {});
      if (attempt === null) {
        replays.delete(engine.ruleVersion);
        release();
        return null;
      }
      const base = { engine: engine.id, ruleVersion: engine.ruleVersion, paramHash: engine.paramHash };
      await repo.saveVersion(repo.db, { ...base, replayState: 'running', sessionsDone: 0, sessionsTotal: 0, startedAt: new Date(clock.nowMs()), finishedAt: null, error: null }, clock.nowMs());
    } catch (error) {
      log.warn(`Trade ideas: the ${engine.ruleVersion} replay could not start: ${errorText(error)}`);
      replays.delete(engine.ruleVersion);
      release();
      return null;
    }
    // Finished and heartbeats only under this claim's attempt: once another process took it over, the claim is that one's.
    const run = replay(engine, marketClock.nowMs(), () => runs.heartbeat(name, slot, clock.nowMs(), attempt))
      .then(async (finished): Promise<RunOutcome> => {
        // Handed over: the claim is the other process's now, and stays running until it finishes.
        if (!finished) return 'skipped';
        return (await runs.finish(name, slot, clock.nowMs(), undefined, attempt)) ? 'done' : 'skipped';
      })
      .catch(async (error: unknown): Promise<RunOutcome> => {
        log.warn(`Trade ideas: the ${engine.ruleVersion} replay failed (retried with backoff): ${errorText(error)}`);
        const recorded = await runs.finish(name, slot, clock.nowMs(), errorText(error), attempt).catch(() => false);
        return recorded ? 'failed' : 'skipped';
      })
      .finally(() => {
        replays.delete(engine.ruleVersion);
        release();
      });
    return { run };
  }

  /** Claims the engine's replay and goes on in the background (in-process); answers once it is claimed (or not). Never rejects. */
  async function startReplay(engine: AnyEngine): Promise<void> {
    void (await claimReplay(engine));
  }

  /**
   * The replay of this rule version, run to its end here (a queued job; jobs/tasks.ts). `queued`: the
   * job and its start; started before by a worker that died holding it (or an attempt failed), it
   * takes the claim its earlier start left over; the replay goes on from the last session stored. 'skipped': an
   * unknown version (another release's), already done, or held by another live process.
   */
  async function runReplay(ruleVersion: string, options: { queued?: QueuedRun } = {}): Promise<RunOutcome> {
    const engine = await versions.byVersion(ruleVersion);
    if (!engine) return 'skipped';
    const underWay = replays.get(ruleVersion);
    if (underWay) {
      // This process still runs it (the job's lock was lost while it ran): it finishes it.
      await underWay;
      return 'skipped';
    }
    if ((await repo.version(engine.id, engine.ruleVersion))?.replayState === 'done') return 'skipped';
    const claimed = await claimReplay(engine, options.queued);
    return claimed ? claimed.run : 'skipped';
  }

  /** REDIS_URL: the replay is a queued job; drop's waits for swing's (its items link the swing trade open on their session; EngineAdapter.replayAfter). */
  async function queueReplay(engine: AnyEngine, enqueue: (ruleVersion: string) => Promise<void>): Promise<void> {
    const before = await replayFirst(engine);
    if (before && (await repo.version(before.id, before.ruleVersion))?.replayState !== 'done') return;
    try {
      await enqueue(engine.ruleVersion);
    } catch (error) {
      log.warn(`Trade ideas: the ${engine.ruleVersion} replay could not be queued (the next tick tries again): ${errorText(error)}`);
    }
  }

  async function tickEngine(registered: AnyEngine, options: TickOptions): Promise<Record<string, RunOutcome>> {
    const engine = await currentOf(registered);
    const version = await repo.version(engine.id, engine.ruleVersion);
    if (version?.replayState !== 'done') {
      await (deps.queueReplay ? queueReplay(engine, deps.queueReplay) : startReplay(engine));
      return {};
    }
    // The marks after the daily pass: after a catch-up (a server down for days) they mark the ideas it
    // left open at the quote of now, not the rows of the sessions it has just run.
    const daily = await runJob(dailyJob(engine), runner, options);
    const marks = await runJob(marksJob(engine), runner, options);
    return { [dailyJobName(engine)]: daily, [marksJobName(engine)]: marks };
  }

  return {
    /** The engines as they run now (trades.versions.ts): the routes read the current version's ideas. */
    versions,
    /**
     * Runs every engine's due jobs (starting replays in the background); concurrent calls share one
     * pass. `queued` (TickOptions): the passes' and marks' claims; a queued replay has its own job.
     */
    tick: sharedPass(async (options) => {
      const outcomes = await Promise.all(engines.map((engine) => tickEngine(engine, options)));
      return Object.assign({}, ...outcomes) as Record<string, RunOutcome>;
    }),
    /** The daily pass or the marks of one engine now (tests, and a manual run). */
    runDaily: async (engine: AnyEngine, options: TickOptions = {}) => runJob(dailyJob(await currentOf(engine)), runner, options),
    runMarks: async (engine: AnyEngine, options: TickOptions = {}) => runJob(marksJob(await currentOf(engine)), runner, options),
    startReplay: async (engine: AnyEngine) => startReplay(await currentOf(engine)),
    runReplay,
    /** Waits for the replays under way in this process. */
    async replaysIdle(): Promise<void> {
      while (replays.size > 0) await Promise.all([...replays.values()]);
    },
    /** Stops between sessions and waits for the replays (the next start takes them up again). */
    async stop(): Promise<void> {
      stopping = true;
      await Promise.all([...replays.values()]);
    },
  };
}

export type TradeJobs = ReturnType<typeof createTradeJobs>;
