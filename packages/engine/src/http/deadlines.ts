import { performance } from 'node:perf_hooks';
import { timerDelay } from '../timer-delay.js';

export interface Deadline {
  /** The deadline no longer fires. */
  cancel(): void;
}

export interface Deadlines {
  /** Calls `onExpire` `ms` milliseconds from now, unless cancelled first. */
  add(ms: number, onExpire: () => void): Deadline;
  /** Deadlines not yet due nor cancelled. */
  readonly pending: number;
  /** Whether the timer keeps the process alive: only while a deadline is pending. */
  readonly keepsProcessAlive: boolean;
}

interface Entry {
  at: number;
  /** Cleared when the entry fires or is cancelled. */
  onExpire: (() => void) | undefined;
}

/** Entries of one length: they fall due in the order they were added. */
class Queue {
  private entries: Entry[] = [];
  private first = 0;

  push(entry: Entry): void {
    this.entries.push(entry);
  }

  /** The first entry still pending; the settled ones before it are let go. */
  peek(): Entry | undefined {
    while (this.first < this.entries.length && this.entries[this.first]!.onExpire === undefined) this.first += 1;
    if (this.first > 64 && this.first * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.first);
      this.first = 0;
    }
    return this.entries[this.first];
  }

  /** Drops settled entries anywhere in the queue (one slow request holds up those behind it). */
  compact(): void {
    this.entries = this.entries.slice(this.first).filter((entry) => entry.onExpire !== undefined);
    this.first = 0;
  }

  get length(): number {
    return this.entries.length - this.first;
  }
}

/**
 * Request deadlines on one timer. A timer per request costs more than a short request's own
 * bookkeeping, and most requests end long before their deadline; here a deadline is an entry in
 * a queue per length (30 s deadlines fall due in the order they were set) and one timer is armed
 * for the earliest. While nothing is pending the timer does not keep the process alive.
 * @example
 * const deadlines = createDeadlines();
 * const deadline = deadlines.add(30_000, () => abort());
 * deadline.cancel(); // the request ended in time
 */
export function createDeadlines(now: () => number = () => performance.now()): Deadlines {
  const queues = new Map<number, Queue>();
  let pending = 0;
  let timer: NodeJS.Timeout | undefined;
  let armedAt = Infinity;

  function arm(): void {
    let earliest = Infinity;
    for (const [ms, queue] of queues) {
      const head = queue.peek();
      if (head === undefined) queues.delete(ms);
      else earliest = Math.min(earliest, head.at);
    }
    if (earliest === armedAt) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    armedAt = earliest;
    if (earliest !== Infinity) {
      // A deadline past a timer's reach (a request timeout of weeks) is armed at that reach: the
      // timer then fires with nothing due and arms again, rather than every millisecond.
      timer = setTimeout(fire, timerDelay(Math.ceil(earliest - now())));
      if (pending === 0) timer.unref();
    }
  }

  function fire(): void {
    timer = undefined;
    armedAt = Infinity;
    const at = now();
    for (const queue of queues.values()) {
      for (let head = queue.peek(); head !== undefined && head.at <= at; head = queue.peek()) {
        const onExpire = head.onExpire!;
        head.onExpire = undefined;
        pending -= 1;
        onExpire();
      }
    }
    arm();
  }

  // With nothing pending the timer stays armed but lets the process end: one request after
  // another (a sequential run) then costs no timer each.
  function settle(entry: Entry): void {
    if (entry.onExpire === undefined) return;
    entry.onExpire = undefined;
    pending -= 1;
    if (pending === 0) timer?.unref();
  }

  return {
    add(ms, onExpire) {
      const entry: Entry = { at: now() + ms, onExpire };
      let queue = queues.get(ms);
      if (queue === undefined) queues.set(ms, (queue = new Queue()));
      queue.peek();
      queue.push(entry);
      pending += 1;
      if (pending === 1) timer?.ref();
      if (queue.length > 1_024 && queue.length > 4 * pending) queue.compact();
      if (entry.at < armedAt) arm();
      return { cancel: () => settle(entry) };
    },
    get pending() {
      return pending;
    },
    get keepsProcessAlive() {
      return timer?.hasRef() ?? false;
    },
  };
}
