import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const SECRET_PREFIX = 'svc_sk_';

/**
 * A new client secret: `svc_sk_` and 32 random bytes (base64url). The prefix lets secret scanners
 * and people recognise a leaked one.
 */
export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * SHA-256, hex. A slow password hash (scrypt, argon2) protects low-entropy secrets that people
 * choose; these are 256 random bits, which no amount of guessing reaches, so a fast hash is as
 * safe here. It is also deterministic (no per-row salt), which lets an `X-API-Key` be found by an
 * indexed lookup of its hash instead of trying every client's hash in turn.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Compares a presented secret with a stored hash in time that does not depend on where they differ. */
export function secretMatches(secret: string, storedHash: string | null): boolean {
  if (storedHash === null) return false;
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** `prefix` and 20 base32 characters (100 random bits): client and tenant ids. */
export function randomId(prefix: string): string {
  let id = prefix;
  // 32 symbols divide 256 evenly, so masking a byte keeps every symbol equally likely.
  for (const byte of randomBytes(20)) id += ID_ALPHABET[byte & 31];
  return id;
}
