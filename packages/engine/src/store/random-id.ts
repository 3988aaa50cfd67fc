import { randomBytes } from 'node:crypto';

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** `prefix` and 20 base32 characters (100 random bits), lowercase so ids survive case-folding URLs. */
export function randomId(prefix: string): string {
  let id = prefix;
  // 32 symbols divide 256 evenly, so masking a byte keeps every symbol equally likely.
  for (const byte of randomBytes(20)) id += ID_ALPHABET[byte & 31];
  return id;
}
