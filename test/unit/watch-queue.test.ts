// `site-gen watch`: bursts of saves make one rebuild, rebuilds never overlap, a change during a rebuild queues one more.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createRebuildQueue, type Timers } from '../../src/dev/queue.ts';

/** Timers that fire only when the test moves the clock. */
function fakeClock() {
  let now = 0;
  let next = 0;
  const pending = new Map<number, { at: number; callback: () => void }>();
  const timers: Timers = {
    setTimeout(callback, ms) {
      next += 1;
      pending.set(next, { at: now + ms, callback });
      return next;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
  };
  return {
    timers,
    /** Moves the clock by `ms`, firing what falls due, then lets promise callbacks run. */
    async tick(ms: number) {
      now += ms;
      for (const [id, timer] of [...pending].sort((a, b) => a[1].at - b[1].at)) {
        if (timer.at > now) continue;
        pending.delete(id);
        timer.callback();
      }
      await settle();
    },
  };
}

/** Lets every queued promise callback run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
}

/** A build the test finishes by hand; records every batch it was given and whether two ever ran at once. */
function controlledRun() {
  const batches: string[][] = [];
  const finishers: Array<() => void> = [];
  let running = 0;
  let overlapped = false;
  return {
    batches,
    get running() {
      return running;
    },
    get overlapped() {
      return overlapped;
    },
    run(batch: string[]) {
      batches.push(batch);
      running += 1;
      if (running > 1) overlapped = true;
      return new Promise<void>((resolve) =>
        finishers.push(() => {
          running -= 1;
          resolve();
        }),
      );
    },
    async finish() {
      finishers.shift()!();
      await settle();
    },
  };
}

const queue = suite('createRebuildQueue');

queue('a burst of saves within the quiet time makes one batch with every change, in order', async () => {
  const clock = fakeClock();
  const build = controlledRun();
  const q = createRebuildQueue<string>({ delay: 20, run: (b) => build.run(b), timers: clock.timers });
  q.add('a.ts');
  await clock.tick(10);
  q.add('b.css');
  await clock.tick(10);
  q.add('a.ts');
  await clock.tick(19);
  assert.equal(build.batches, [], 'nothing runs while saves keep coming');
  await clock.tick(1);
  assert.equal(build.batches, [['a.ts', 'b.css', 'a.ts']]);
  await build.finish();
});

queue('a change during a rebuild queues exactly one more, which starts only after the first ends', async () => {
  const clock = fakeClock();
  const build = controlledRun();
  const q = createRebuildQueue<string>({ delay: 20, run: (b) => build.run(b), timers: clock.timers });
  q.add('one.ts');
  await clock.tick(20);
  assert.is(build.running, 1);
  q.add('two.ts');
  await clock.tick(20);
  q.add('three.ts');
  await clock.tick(500);
  assert.equal(build.batches, [['one.ts']], 'no second rebuild while the first runs, however long it takes');
  await build.finish();
  assert.equal(build.batches.length, 1, 'the next batch waits for quiet after the first ends');
  await clock.tick(20);
  assert.equal(build.batches, [['one.ts'], ['two.ts', 'three.ts']], 'the changes made meanwhile form one batch');
  await build.finish();
  assert.not.ok(build.overlapped, 'two rebuilds never ran at once');
});

queue('flush starts a batch at once, even an empty one, and resolves when it is done', async () => {
  const clock = fakeClock();
  const build = controlledRun();
  const q = createRebuildQueue<string>({ delay: 20, run: (b) => build.run(b), timers: clock.timers });
  let flushed = false;
  void q.flush().then(() => (flushed = true));
  await settle();
  assert.equal(build.batches, [[]]);
  assert.not.ok(flushed, 'not before the batch ends');
  await build.finish();
  assert.ok(flushed);
});

queue('flush during a rebuild runs the waiting changes right after it, without the quiet time', async () => {
  const clock = fakeClock();
  const build = controlledRun();
  const q = createRebuildQueue<string>({ delay: 20, run: (b) => build.run(b), timers: clock.timers });
  void q.flush();
  await settle();
  q.add('saved-during-first-build.ts');
  void q.flush();
  await build.finish();
  assert.equal(build.batches, [[], ['saved-during-first-build.ts']]);
  await build.finish();
});

queue('idle resolves once nothing runs or waits', async () => {
  const clock = fakeClock();
  const build = controlledRun();
  const q = createRebuildQueue<string>({ delay: 20, run: (b) => build.run(b), timers: clock.timers });
  let idle = false;
  await q.idle();
  q.add('a.ts');
  void q.idle().then(() => (idle = true));
  await clock.tick(20);
  assert.not.ok(idle, 'a batch is running');
  await build.finish();
  assert.ok(idle);
});

queue('a batch that throws is reported and the queue carries on', async () => {
  const clock = fakeClock();
  const errors: unknown[] = [];
  const batches: string[][] = [];
  const q = createRebuildQueue<string>({
    delay: 20,
    run: async (batch) => {
      batches.push(batch);
      if (batch.includes('bad')) throw new Error('crashed');
    },
    onError: (error) => errors.push(error),
    timers: clock.timers,
  });
  q.add('bad');
  await clock.tick(20);
  q.add('good');
  await clock.tick(20);
  assert.equal(batches, [['bad'], ['good']]);
  assert.is(errors.length, 1);
  assert.is((errors[0] as Error).message, 'crashed');
});

queue('close drops waiting changes, refuses new ones and waits for the running batch', async () => {
  const clock = fakeClock();
  const build = controlledRun();
  const q = createRebuildQueue<string>({ delay: 20, run: (b) => build.run(b), timers: clock.timers });
  q.add('a.ts');
  await clock.tick(20);
  q.add('waiting.ts');
  let closed = false;
  void q.close().then(() => (closed = true));
  q.add('after-close.ts');
  await settle();
  assert.not.ok(closed, 'the running batch is not cut short');
  await build.finish();
  assert.ok(closed);
  await clock.tick(100);
  assert.equal(build.batches, [['a.ts']], 'nothing runs after close');
});

queue.run();
