import type { Clock } from '../clock.js';
import { toErrorInfo } from '../errors.js';
import type { Logger } from '../logger.js';
import type { FiredRun, ScheduleService } from './schedule-service.js';

export interface SchedulerOptions {
  schedules: ScheduleService;
  clock: Clock;
  logger: Logger;
  /** How often a started scheduler looks for due runs (default 1 s). */
  intervalMs?: number;
}

/**
 * Fires due schedules. `svc serve` starts it; tests call `tick()` on a manual clock instead of
 * waiting. It holds no claim in memory: every tick reads the store and claims each due run with
 * a conditional update, so any number of processes can run one on the same store.
 */
export interface Scheduler {
  /** Fires every run due at `now` (default the clock's time) and answers what it fired or skipped. */
  tick(now?: number): Promise<FiredRun[]>;
  /** Ticks every `intervalMs` until `stop()`. */
  start(): void;
  /** Stops ticking and waits for a tick in progress. */
  stop(): Promise<void>;
  readonly running: boolean;
}

export const DEFAULT_SCHEDULER_INTERVAL_MS = 1_000;

/**
 * @example
 * const scheduler = createScheduler({ schedules: engine.schedules, clock, logger });
 * scheduler.start(); // or, in a test: clock.set(Date.parse('2026-01-05T08:30:00Z')); await scheduler.tick();
 */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const intervalMs = options.intervalMs ?? DEFAULT_SCHEDULER_INTERVAL_MS;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();
  let started = false;

  const tick = (now = options.clock.now()): Promise<FiredRun[]> => {
    // One tick at a time per process: a slow tick delays the next rather than overlapping it.
    const run = current.then(() => options.schedules.fireDue(now));
    current = run.catch(() => undefined);
    return run;
  };

  const loop = () => {
    timer = setTimeout(() => {
      void tick()
        .catch((error: unknown) => options.logger.error('scheduler tick failed', toErrorInfo(error)))
        .finally(() => {
          if (started) loop();
        });
    }, intervalMs);
    timer.unref();
  };

  return {
    tick,
    start() {
      if (started) return;
      started = true;
      loop();
    },
    async stop() {
      started = false;
      if (timer !== undefined) clearTimeout(timer);
      await current;
    },
    get running() {
      return started;
    },
  };
}
