// Turns a stream of file changes into rebuilds: a burst of saves makes one batch, and batches never run at once.

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface RebuildQueueOptions<T> {
  /** Quiet time after the last change before a batch starts, in ms. */
  delay: number;
  /** Runs one batch: every change since the last batch started, in arrival order. */
  run(batch: T[]): Promise<void>;
  /** Told when `run` rejects; the queue carries on. Default: rethrown asynchronously. */
  onError?(error: unknown): void;
  timers?: Timers;
}

export interface RebuildQueue<T> {
  /** Records a change: a batch starts `delay` ms after the last one, or once the running batch ends. */
  add(change: T): void;
  /** Starts a batch now (even an empty one), or right after the running one, with no quiet time; resolves when idle. */
  flush(): Promise<void>;
  /** Resolves once no batch is running or waiting. */
  idle(): Promise<void>;
  /** Drops waiting changes, accepts no more, and resolves when the running batch ends. */
  close(): Promise<void>;
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export function createRebuildQueue<T>(options: RebuildQueueOptions<T>): RebuildQueue<T> {
  const timers = options.timers ?? realTimers;
  const onError =
    options.onError ??
    ((error: unknown) =>
      queueMicrotask(() => {
        throw error;
      }));
  let pending: T[] = [];
  let timer: unknown;
  let running: Promise<void> | undefined;
  /** A flush asked for while a batch ran: start the next one without waiting for quiet. */
  let urgent = false;
  let closed = false;
  let waiters: Array<() => void> = [];

  const isIdle = () => !running && timer === undefined && pending.length === 0 && !urgent;

  function settle(): void {
    if (!isIdle()) return;
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
  }

  function cancelTimer(): void {
    if (timer === undefined) return;
    timers.clearTimeout(timer);
    timer = undefined;
  }

  function start(): void {
    cancelTimer();
    urgent = false;
    if (running || closed) return settle();
    const batch = pending;
    pending = [];
    running = options
      .run(batch)
      .catch(onError)
      .finally(() => {
        running = undefined;
        if (closed) return settle();
        if (urgent) start();
        else if (pending.length > 0) schedule();
        else settle();
      });
  }

  function schedule(): void {
    cancelTimer();
    if (running) return; // the running batch schedules the next when it ends
    timer = timers.setTimeout(start, options.delay);
  }

  return {
    add(change) {
      if (closed) return;
      pending.push(change);
      schedule();
    },
    flush() {
      if (!closed) {
        if (running) {
          urgent = true;
          cancelTimer();
        } else start();
      }
      return this.idle();
    },
    idle() {
      if (isIdle()) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    async close() {
      closed = true;
      urgent = false;
      pending = [];
      cancelTimer();
      await running;
      settle();
    },
  };
}
