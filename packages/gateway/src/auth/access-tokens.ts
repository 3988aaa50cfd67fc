import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Clock } from '@svc/engine';
import type { SigningKeys } from './signing-keys.js';

/**
 * JWT access tokens (RFC 9068 profile: `typ: at+jwt`). jose rather than `hono/jwt`: it takes the
 * current time as an option (`currentDate`), so expiry follows the engine's injected clock, and
 * it checks `typ`, the algorithm allow-list, issuer and audience in one call.
 */
export const TOKEN_TYPE = 'at+jwt';
export const TOKEN_LIFETIME_SECONDS = 3600;

export interface AccessTokenClaims {
  clientId: string;
  tenantId: string;
  scopes: string[];
  /** Seconds since the epoch. */
  issuedAt: number;
  expiresAt: number;
  jti: string;
}

export interface AccessTokens {
  issue(subject: {
    clientId: string;
    tenantId: string;
    scopes: string[];
  }): Promise<{ token: string; claims: AccessTokenClaims }>;
  /** The token's claims; throws `InvalidTokenError` with a reason for anything that does not hold. */
  verify(token: string): Promise<AccessTokenClaims>;
}

export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

export interface AccessTokenOptions {
  keys: SigningKeys;
  clock: Clock;
  issuer: string;
  audience: string;
}

export function createAccessTokens(options: AccessTokenOptions): AccessTokens {
  const { keys, clock, issuer, audience } = options;
  return {
    async issue(subject) {
      const key = keys.current();
      const issuedAt = Math.floor(clock.now() / 1000);
      const claims: AccessTokenClaims = {
        ...subject,
        issuedAt,
        expiresAt: issuedAt + TOKEN_LIFETIME_SECONDS,
        jti: randomUUID(),
      };
      const token = await new SignJWT({
        client_id: subject.clientId,
        scope: subject.scopes.join(' '),
        tenant_id: subject.tenantId,
      })
        .setProtectedHeader({ alg: key.algorithm, typ: TOKEN_TYPE, kid: key.kid })
        .setIssuer(issuer)
        .setSubject(subject.clientId)
        .setAudience(audience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(claims.expiresAt)
        .setJti(claims.jti)
        .sign(key.privateKey);
      return { token, claims };
    },

    async verify(token) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(
          token,
          async (header) => {
            const key = header.kid === undefined ? undefined : await keys.find(header.kid);
            if (key === undefined) throw new InvalidTokenError('the token was not signed by a key of this service');
            // Pinned per key: a token may not choose its own algorithm (`none`, or HS256 keyed with a public key).
            if (header.alg !== key.algorithm)
              throw new InvalidTokenError(`the token's algorithm ${header.alg} is not accepted`);
            return key.publicKey;
          },
          {
            algorithms: [keys.current().algorithm],
            typ: TOKEN_TYPE,
            issuer,
            audience,
            currentDate: new Date(clock.now()),
            requiredClaims: ['iss', 'sub', 'aud', 'exp', 'iat', 'jti', 'client_id', 'scope', 'tenant_id'],
          },
        ));
      } catch (error) {
        if (error instanceof InvalidTokenError) throw error;
        if (error instanceof errors.JWTExpired) throw new InvalidTokenError('the access token has expired');
        if (error instanceof errors.JOSEError)
          throw new InvalidTokenError(`the access token is not valid (${error.code})`);
        throw error;
      }
      const { client_id: clientId, tenant_id: tenantId, scope, iat, exp, jti } = payload;
      if (
        typeof clientId !== 'string' ||
        typeof tenantId !== 'string' ||
        typeof scope !== 'string' ||
        clientId !== payload.sub
      ) {
        throw new InvalidTokenError('the access token is not valid (claims)');
      }
      return {
        clientId,
        tenantId,
        scopes: scope.split(' ').filter(Boolean),
        issuedAt: iat!,
        expiresAt: exp!,
        jti: jti!,
      };
    },
  };
}
