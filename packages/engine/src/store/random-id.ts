import { randomBytes } from 'node:crypto';

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** `prefix` and 20 base32 characters (100 random bits), e.g. `sch_` + `…`. */
export function randomId(prefix: string): string {
  let id = prefix;
  for (const byte of randomBytes(20)) id += ID_ALPHABET[byte & 31];
  return id;
}
