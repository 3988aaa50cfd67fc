import { randomBytes } from 'node:crypto';

/**
 * A version 7 UUID (RFC 9562): the first 48 bits are the Unix time in milliseconds, so ids made
 * close in time sort close together. Executions created together then share index pages, which
 * keeps the store's writes small under concurrency.
 * @example uuidV7() // '019a4f8e-6c1d-7b3a-9f2e-1d5c8a7b6e4f'
 */
export function uuidV7(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
