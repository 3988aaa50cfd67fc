import { isIPv4, isIPv6 } from 'node:net';
import type { Clock } from '@svc/engine';

export interface TokenThrottleOptions {
  /** Failed token requests one address may make for one client id within the window (default 10). */
  failuresPerClient?: number;
  /** Failed token requests one address may make, whatever the client ids, within the window (default 50). */
  failuresPerAddress?: number;
  /** The sliding window over which failures count, in ms (default 15 minutes). */
  windowMs?: number;
  /** Counters kept at most (default 10,000); the least recently touched are forgotten first. */
  maxTracked?: number;
}

export const TOKEN_THROTTLE_DEFAULTS = {
  failuresPerClient: 10,
  failuresPerAddress: 50,
  windowMs: 15 * 60 * 1000,
  maxTracked: 10_000,
} as const;

/**
 * Failed attempts at the token endpoint, counted per (client id, address) and per address.
 * Nothing is counted per client id alone: that would let anyone lock a valid client out by
 * sending wrong secrets under its id from elsewhere. Failures from one address therefore never
 * refuse another address, and a success is never counted. (Guessing a 256-bit secret from many
 * addresses gets nowhere anyway; the throttle bounds the noise and the work.)
 */
export interface TokenThrottle {
  /** Seconds until this address may try this client id again, or undefined when it may now. */
  retryAfter(clientId: string, address: string): number | undefined;
  failed(clientId: string, address: string): void;
  /** Clears this address's failures for this client id (its per-address count stays). */
  succeeded(clientId: string, address: string): void;
}

/**
 * Counters live in this process's memory: with several gateway processes each throttles on its
 * own, and a restart forgets them.
 * @example
 * const throttle = createTokenThrottle({}, systemClock);
 * if (throttle.retryAfter(clientId, address) === undefined) { … }
 */
export function createTokenThrottle(options: TokenThrottleOptions, clock: Clock): TokenThrottle {
  const { failuresPerClient, failuresPerAddress, windowMs, maxTracked } = { ...TOKEN_THROTTLE_DEFAULTS, ...options };
  // Each key keeps the times of its recent failures, at most its limit of them, oldest first.
  const failures = new Map<string, number[]>();
  // A client id is at most 128 characters, so longer ones (never valid) are cut: a counter key
  // stays small however long the id an attacker sends.
  const pairKey = (clientId: string, address: string) => `c\u0000${addressKey(address)}\u0000${clientId.slice(0, 129)}`;
  const ownKey = (address: string) => `a\u0000${addressKey(address)}`;

  const recent = (key: string, now: number): number[] => {
    const times = (failures.get(key) ?? []).filter((at) => at > now - windowMs);
    if (times.length === 0) failures.delete(key);
    return times;
  };
  const wait = (key: string, limit: number, now: number): number | undefined => {
    const times = recent(key, now);
    return times.length < limit
      ? undefined
      : Math.max(1, Math.ceil((times[times.length - limit]! + windowMs - now) / 1000));
  };
  const add = (key: string, limit: number, now: number) => {
    const times = [...recent(key, now), now].slice(-limit);
    // Re-inserted, so the map's order is least recently touched first.
    failures.delete(key);
    failures.set(key, times);
    while (failures.size > maxTracked) failures.delete(failures.keys().next().value!);
  };

  return {
    retryAfter(clientId, address) {
      const now = clock.now();
      const waits = [
        wait(pairKey(clientId, address), failuresPerClient, now),
        wait(ownKey(address), failuresPerAddress, now),
      ].filter((s) => s !== undefined);
      return waits.length === 0 ? undefined : Math.max(...waits);
    },
    failed(clientId, address) {
      const now = clock.now();
      add(pairKey(clientId, address), failuresPerClient, now);
      add(ownKey(address), failuresPerAddress, now);
    },
    succeeded(clientId, address) {
      failures.delete(pairKey(clientId, address));
    },
  };
}

/**
 * The unit an address is counted as: an IPv4 address (IPv4-mapped IPv6 included) as itself, an
 * IPv6 address by its /64, since one host commonly holds a whole /64 and could otherwise take a
 * fresh address for every attempt.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return mapped[1]!;
  if (isIPv4(address) || !isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
