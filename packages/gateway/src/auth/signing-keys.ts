import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { isSvcError, type Clock, type SigningKeyRecord, type SigningKeyRepository } from '@svc/engine';
import { randomId } from './secrets.js';

/**
 * Access tokens are signed with Ed25519 (`EdDSA`): small keys and signatures, fast to verify,
 * and no parameter choices to get wrong. Verification accepts this algorithm only.
 */
export const TOKEN_ALGORITHM = 'EdDSA';

export interface SigningKey {
  kid: string;
  algorithm: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

async function toSigningKey(record: SigningKeyRecord): Promise<SigningKey> {
  const jwk = JSON.parse(record.jwk) as JWK;
  const { d: _private, ...publicJwk } = jwk;
  return {
    kid: record.kid,
    algorithm: record.algorithm,
    privateKey: (await importJWK(jwk, record.algorithm)) as CryptoKey,
    publicKey: (await importJWK(publicJwk, record.algorithm)) as CryptoKey,
  };
}

/** The store's signing keys: the newest signs; any known kid verifies. */
export interface SigningKeys {
  current(): SigningKey;
  /** The key with this kid; one another process made since start is read from the store. */
  find(kid: string): Promise<SigningKey | undefined>;
}

/**
 * Loads the signing keys from the store, generating the first one on first start. Two processes
 * starting at once may each generate one; both are kept and both verify, so that race is harmless.
 */
export async function loadSigningKeys(repository: SigningKeyRepository, clock: Clock): Promise<SigningKeys> {
  const records = await repository.list();
  let newest = records.find((record) => record.algorithm === TOKEN_ALGORITHM);
  if (newest === undefined) {
    const { privateKey } = await generateKeyPair(TOKEN_ALGORITHM, { crv: 'Ed25519', extractable: true });
    newest = {
      kid: randomId('key_'),
      algorithm: TOKEN_ALGORITHM,
      jwk: JSON.stringify(await exportJWK(privateKey)),
      createdAt: clock.now(),
    };
    try {
      await repository.create(newest);
    } catch (error) {
      if (!isSvcError(error) || error.code !== 'CONFLICT') throw error;
    }
  }
  const current = await toSigningKey(newest);
  const known = new Map<string, SigningKey>([[current.kid, current]]);
  return {
    current: () => current,
    async find(kid) {
      const cached = known.get(kid);
      if (cached !== undefined) return cached;
      const record = await repository.get(kid);
      if (record === undefined) return undefined;
      const key = await toSigningKey(record);
      known.set(kid, key);
      return key;
    },
  };
}
