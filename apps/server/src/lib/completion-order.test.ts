import { describe, expect, it } from 'vitest';
import { settleInCompletionOrder } from './completion-order';

/** A promise the test settles by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}
const tick = () => new Promise((resume) => setImmediate(resume));

describe('settleInCompletionOrder', () => {
  it('runs at most `limit` at once and yields outcomes as they settle, rejections included', async () => {
    const pending = Array.from({ length: 5 }, () => deferred<number>());
    const started: number[] = [];
    const outcomes = settleInCompletionOrder([0, 1, 2, 3, 4], 2, (index) => {
      started.push(index);
      return pending[index]!.promise;
    });
    const first = outcomes.next();
    await tick();
    expect(started).toEqual([0, 1]);
    pending[1]!.resolve(10);
    expect(await first).toEqual({ done: false, value: { item: 1, ok: true, value: 10 } });
    await tick();
    expect(started).toEqual([0, 1, 2]);
    pending[2]!.reject(new Error('down'));
    expect((await outcomes.next()).value).toMatchObject({ item: 2, ok: false, error: new Error('down') });
    pending[0]!.resolve(0);
    pending[3]!.resolve(3);
    pending[4]!.resolve(4);
    const rest: number[] = [];
    for await (const outcome of outcomes) rest.push(outcome.item);
    expect(rest.sort()).toEqual([0, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it('starts nothing new once the signal aborts, and yields what was running', async () => {
    const stop = new AbortController();
    const started: number[] = [];
    const seen: number[] = [];
    const work = async (index: number) => {
      started.push(index);
      if (index === 1) stop.abort();
    };
    for await (const outcome of settleInCompletionOrder([0, 1, 2, 3, 4, 5], 2, work, stop.signal)) seen.push(outcome.item);
    expect(started).toEqual([0, 1]);
    expect(seen).toEqual([0, 1]);
  });

  it('keeps the pipeline full (the next item starts before an outcome is yielded) and starts nothing after the consumer stops', async () => {
    const started: number[] = [];
    for await (const outcome of settleInCompletionOrder([0, 1, 2, 3], 1, async (index) => started.push(index))) {
      expect(outcome.item).toBe(0);
      break;
    }
    await tick();
    expect(started).toEqual([0, 1]);
  });
});
