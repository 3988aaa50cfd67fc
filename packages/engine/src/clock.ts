/** Time as the engine sees it. Tests pass a clock they can move; production uses the system's. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told: for tests of expiry, backoff and schedules. */
export function createManualClock(start = Date.parse('2026-01-01T00:00:00Z')): Clock & {
  advance(ms: number): void;
  set(ms: number): void;
} {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (ms) => {
      current = ms;
    },
  };
}
