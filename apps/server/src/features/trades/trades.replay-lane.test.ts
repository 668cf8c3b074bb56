import { afterEach, describe, expect, it } from 'vitest';
import { createFakeEngine, testUniverse } from '../../../test/fake-engine';
import { createTestApp, REPLAY_TIMEOUT_MS, type TestApp } from '../../../test/helpers';
import { createReplayLane } from './trades.replay-lane';
import type { AnyEngine } from './trades.types';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('the replay lane', { timeout: REPLAY_TIMEOUT_MS }, () => {
  it('lets one replay in at a time, in order, keeping the waiting ones alive', async () => {
    const lane = createReplayLane(5);
    const order: string[] = [];
    let keptAlive = 0;
    const leaveA = await lane.enter(async () => undefined);
    const b = lane.enter(async () => void (keptAlive += 1)).then((leave) => (order.push('b'), leave));
    const c = lane.enter(async () => undefined).then((leave) => (order.push('c'), leave));
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(order).toEqual([]);
    expect(lane.waiting()).toBe(2);
    expect(keptAlive).toBeGreaterThan(1);
    leaveA();
    leaveA(); // a second call releases nothing more
    const leaveB = await b;
    expect(order).toEqual(['b']);
    expect(lane.waiting()).toBe(1);
    const seen = keptAlive;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(keptAlive).toBe(seen); // in the lane, its own heartbeat (per sessions) takes over
    leaveB();
    (await c)();
    expect(order).toEqual(['b', 'c']);
    // Free again: the next one goes straight in.
    (await lane.enter(async () => undefined))();
  });

  it("runs a process's replays one after the other, each as it would alone", async () => {
    // Which engine's session each runSession call was: replays side by side interleave them.
    const sessions: string[] = [];
    const traced = (engine: ReturnType<typeof createFakeEngine>): AnyEngine =>
      ({
        ...engine,
        runSession(input: Parameters<typeof engine.runSession>[0]) {
          sessions.push(engine.id);
          return engine.runSession(input);
        },
      }) as unknown as AnyEngine;
    const engines = [traced(createFakeEngine({ id: 'swing' })), traced(createFakeEngine({ id: 'layered' }))];
    t = await createTestApp({}, { tradeEngines: engines, tradeUniverse: testUniverse });
    await t.app.tradeJobs.tick();
    await t.app.tradeJobs.replaysIdle();
    const runs = sessions.filter((id, index) => id !== sessions[index - 1]);
    expect(new Set(sessions)).toEqual(new Set(['swing', 'layered']));
    expect(runs).toHaveLength(2);
  });
});
