import { createCipheriv, createDecipheriv, createHash, createHmac } from 'node:crypto';

/** The wait a callback token belongs to: one webhook node of one execution, in one loop scope. */
export interface CallbackTarget {
  tenantId: string;
  executionId: string;
  nodeId: string;
  scope: string;
}

export interface CallbackTokens {
  /** The token of a wait; the same target always yields the same token. */
  tokenFor(target: CallbackTarget): string;
  /** The wait a token belongs to, or undefined for a token this store's key did not make. */
  open(token: string): CallbackTarget | undefined;
}

const PREFIX = 'cb_';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Longer tokens are refused before any work: no target needs more. */
export const MAX_TOKEN_LENGTH = 1024;

/**
 * Callback tokens are the wait's identity sealed with AES-256-GCM under a key derived from the
 * store's secret key. Nothing is stored when a token is made, so a token exists as soon as its
 * execution does (`{{Wait.callbackUrl}}` can be sent before the wait is reached, and in every loop
 * iteration), any process on the store can open it, and a guessed or altered token fails the
 * authentication tag. The IV is derived from the target (a synthetic IV): a template that renders
 * the URL twice yields the same token, and equal IVs only ever come with equal plaintexts.
 *
 * @example
 * const tokens = createCallbackTokens(store.deriveKey('callback-tokens'));
 * const token = tokens.tokenFor({ tenantId, executionId, nodeId: 'n3', scope: '' });
 * tokens.open(token); // { tenantId, executionId, nodeId: 'n3', scope: '' }
 */
export function createCallbackTokens(key: Buffer): CallbackTokens {
  const encryptionKey = createHmac('sha256', key).update('encrypt').digest();
  const ivKey = createHmac('sha256', key).update('iv').digest();
  return {
    tokenFor(target) {
      const plain = Buffer.from(JSON.stringify([target.tenantId, target.executionId, target.nodeId, target.scope]));
      const iv = createHmac('sha256', ivKey).update(plain).digest().subarray(0, IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return PREFIX + sealed.toString('base64url');
    },
    open(token) {
      if (!token.startsWith(PREFIX) || token.length > MAX_TOKEN_LENGTH) return undefined;
      const sealed = Buffer.from(token.slice(PREFIX.length), 'base64url');
      if (sealed.length <= IV_BYTES + TAG_BYTES) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', encryptionKey, sealed.subarray(0, IV_BYTES));
        decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
        const plain = Buffer.concat([
          decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)),
          decipher.final(),
        ]);
        const parts = JSON.parse(plain.toString('utf8')) as unknown;
        if (!Array.isArray(parts) || parts.length !== 4 || !parts.every((part) => typeof part === 'string')) {
          return undefined;
        }
        const [tenantId, executionId, nodeId, scope] = parts as [string, string, string, string];
        return { tenantId, executionId, nodeId, scope };
      } catch {
        return undefined;
      }
    },
  };
}

/** What the store keeps of a token: its SHA-256, so a leaked store file holds no usable token. */
export function hashCallbackToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
