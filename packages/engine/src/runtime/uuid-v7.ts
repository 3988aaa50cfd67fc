import { randomUUID } from 'node:crypto';

/**
 * A version 7 UUID (RFC 9562): the first 48 bits are the Unix time in milliseconds, so ids made
 * close in time sort close together. Executions created together then share index pages, which
 * keeps the store's writes small under concurrency.
 * @example uuidV7() // '019a4f8e-6c1d-7b3a-9f2e-1d5c8a7b6e4f'
 */
export function uuidV7(now: number = Date.now()): string {
  // randomUUID draws from a buffered entropy pool and already sets the variant bits; the time
  // replaces its first 48 bits and the version nibble becomes 7.
  const random = randomUUID();
  const time = now.toString(16).padStart(12, '0').slice(-12);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
}
