import { describe, expect, it } from 'vitest';
import { createFramePacer } from './pacer.js';

/** A clock that only moves when the pacer waits (by `overshoot(n)` more than asked) or when told. */
const fakeClock = (overshoot: (wait: number) => number = () => 0) => {
  let now = 1000;
  let waits = 0;
  return {
    now: () => now,
    wait: async (ms: number) => {
      now += ms + overshoot(waits++);
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
};

describe('createFramePacer', () => {
  it('ticks every frameMs from the first call, on time', async () => {
    const clock = fakeClock();
    const pacer = createFramePacer({ now: clock.now, wait: clock.wait });
    const ticks: number[] = [];
    for (let i = 0; i < 5; i++) {
      expect(await pacer.next()).toBe(0);
      ticks.push(clock.now());
    }
    expect(ticks).toEqual([1000, 1020, 1040, 1060, 1080]);
  });

  it('keeps the absolute schedule after a late tick: the lateness is reported and not carried on', async () => {
    const clock = fakeClock((wait) => (wait === 1 ? 50 : 0)); // the second wait wakes 50 ms late
    const pacer = createFramePacer({ now: clock.now, wait: clock.wait });
    const lateness: number[] = [];
    const ticks: number[] = [];
    for (let i = 0; i < 7; i++) {
      lateness.push(await pacer.next());
      ticks.push(clock.now());
    }
    expect(lateness).toEqual([0, 0, 50, 30, 10, 0, 0]);
    expect(ticks).toEqual([1000, 1020, 1090, 1090, 1090, 1100, 1120]);
  });

  it('does not add the time spent between ticks to the schedule', async () => {
    const clock = fakeClock();
    const pacer = createFramePacer({ frameMs: 10, now: clock.now, wait: clock.wait });
    const ticks: number[] = [];
    for (let i = 0; i < 4; i++) {
      await pacer.next();
      ticks.push(clock.now());
      clock.advance(7); // encoding and sending the frame
    }
    expect(ticks).toEqual([1000, 1010, 1020, 1030]);
  });

  it('runs on real timers, resolving each tick in turn', async () => {
    const pacer = createFramePacer({ frameMs: 5 });
    const order: number[] = [];
    const lateness = await Promise.all([0, 1, 2, 3, 4].map((i) => pacer.next().finally(() => order.push(i))));
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(lateness.every((late) => Number.isFinite(late) && late >= 0)).toBe(true);
  });

  it('resolves overlapping ticks in order, a late one after an earlier one still waiting', async () => {
    // tick 1 waits on a timer that fires after a macrotask; ticks 2 and 3 are late by the time
    // they are asked for, which alone would resolve them first
    let now = 1000;
    const wait = (ms: number) =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          now += ms;
          resolve();
        }, 5),
      );
    const pacer = createFramePacer({ frameMs: 20, now: () => now, wait });
    const order: number[] = [];
    const first = pacer.next().finally(() => order.push(0));
    const second = pacer.next().finally(() => order.push(1));
    now += 100;
    await Promise.all([first, second, ...[2, 3].map((i) => pacer.next().finally(() => order.push(i)))]);
    expect(order).toEqual([0, 1, 2, 3]);
  });

  it('lets pending I/O run before a late tick, and not before an early one', async () => {
    const clock = fakeClock();
    const pacer = createFramePacer({ now: clock.now, wait: clock.wait });
    await pacer.next();
    const seen: string[] = [];
    setImmediate(() => seen.push('io'));
    await pacer.next(); // on time: it waits (on the fake clock), which runs no I/O
    seen.push('on-time tick');
    clock.advance(100);
    await pacer.next(); // late: I/O first
    seen.push('late tick');
    expect(seen).toEqual(['on-time tick', 'io', 'late tick']);
  });

  it('rejects the pending and later ticks once aborted', async () => {
    const controller = new AbortController();
    const pacer = createFramePacer({ frameMs: 60_000, signal: controller.signal });
    await pacer.next();
    const pending = pacer.next();
    controller.abort(new Error('call ended'));
    await expect(pending).rejects.toThrow('call ended');
    await expect(pacer.next()).rejects.toThrow('call ended');
  });
});
