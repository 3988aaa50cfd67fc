import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { SvcError } from '../errors.js';

/** AES-256 takes a 32-byte key. */
export const SECRET_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Names the format, so that a later one (another cipher, a rotated key id) can be told apart. */
const PREFIX = 'v1';

/**
 * Encrypts and decrypts secret values at rest with AES-256-GCM. Each value gets a fresh random
 * 12-byte IV; `context` (tenant, environment, variable) is authenticated with it, so a value
 * copied into another row does not decrypt there.
 */
export interface SecretCipher {
  /** `v1:<iv>:<tag>:<ciphertext>`, base64 parts. */
  encrypt(plaintext: string, context: string): string;
  /** Throws `SECRET_UNREADABLE` when the key is not the one the value was written with. */
  decrypt(sealed: string, context: string): string;
}

/**
 * @example
 * const cipher = createSecretCipher(randomBytes(32));
 * cipher.decrypt(cipher.encrypt('s3cret', 'acme/env_1/apiToken'), 'acme/env_1/apiToken'); // 's3cret'
 */
export function createSecretCipher(key: Buffer): SecretCipher {
  if (key.length !== SECRET_KEY_BYTES)
    throw new SvcError('CONFIG_ERROR', `the secret key must be ${SECRET_KEY_BYTES} bytes, not ${key.length}`);
  return {
    encrypt(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [
        PREFIX,
        iv.toString('base64'),
        cipher.getAuthTag().toString('base64'),
        ciphertext.toString('base64'),
      ].join(':');
    },
    decrypt(sealed, context) {
      const parts = sealed.split(':');
      const unreadable = (cause?: unknown) =>
        new SvcError(
          'SECRET_UNREADABLE',
          'a stored secret cannot be decrypted with this secret key: the store was written with another SVC_SECRET_KEY or key file; restore that key (see docs/security.md)',
          cause === undefined ? {} : { cause },
        );
      if (parts.length !== 4 || parts[0] !== PREFIX) throw unreadable();
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(parts[1]!, 'base64'), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(Buffer.from(parts[2]!, 'base64'));
        return Buffer.concat([decipher.update(Buffer.from(parts[3]!, 'base64')), decipher.final()]).toString('utf8');
      } catch (error) {
        throw unreadable(error);
      }
    },
  };
}

/**
 * Reads a 32-byte key written as base64 or hex (64 hex digits); undefined for anything else.
 * @example
 * parseSecretKey(randomBytes(32).toString('base64')); // a 32-byte Buffer
 */
export function parseSecretKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return undefined;
  const key = Buffer.from(trimmed.replaceAll('-', '+').replaceAll('_', '/'), 'base64');
  return key.length === SECRET_KEY_BYTES ? key : undefined;
}
