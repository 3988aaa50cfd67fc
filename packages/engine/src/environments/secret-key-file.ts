import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { SvcError } from '../errors.js';
import { parseSecretKey, SECRET_KEY_BYTES } from './secret-cipher.js';

/**
 * The key that encrypts stored secrets when `SVC_SECRET_KEY` is not set: `<database>.key`
 * beside the store file, made on first start with mode 0600. Losing it makes the stored secrets
 * unreadable, so it is backed up with the database (and kept apart from copies of it that leave
 * the machine).
 *
 * @example
 * const key = loadOrCreateKeyFile('/var/lib/svc/svc.db.key');
 */
export function loadOrCreateKeyFile(path: string): Buffer {
  try {
    // `wx`: two processes starting on a new store at once make one key; the second reads it.
    writeFileSync(path, `${randomBytes(SECRET_KEY_BYTES).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) {
      throw new SvcError(
        'CONFIG_ERROR',
        `cannot create the secret key file ${path}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SvcError(
      'CONFIG_ERROR',
      `cannot read the secret key file ${path}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const key = parseSecretKey(text);
  if (key === undefined)
    throw new SvcError('CONFIG_ERROR', `the secret key file ${path} does not hold a 32-byte key (base64 or hex)`);
  tightenMode(path);
  return key;
}

/** A key file copied back from a backup may have lost its mode; only the owner should read it. */
function tightenMode(path: string): void {
  try {
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  } catch {
    // Not fatal: a file system without modes (some mounts) still holds the key.
  }
}
