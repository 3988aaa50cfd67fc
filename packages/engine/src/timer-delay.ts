/**
 * The longest delay a Node timer holds: 2^31-1 ms (about 24.8 days). Node sets a longer one to
 * 1 ms and prints a TimeoutOverflowWarning, so a timer re-armed on firing would spin.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * `ms` as a timer can hold it: from 0 to `MAX_TIMER_MS`. A timer for a longer wait fires early,
 * at the bound; its owner finds nothing due yet and arms again.
 * @example setTimeout(wake, timerDelay(at - Date.now()));
 */
export function timerDelay(ms: number): number {
  return Math.min(Math.max(0, ms), MAX_TIMER_MS);
}
