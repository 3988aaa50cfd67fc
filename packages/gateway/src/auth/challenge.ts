import { HttpError } from '../errors/http-error.js';

export const REALM = 'svc';

/** A request with no credentials at all: RFC 6750 §3.1 answers the bare challenge. */
export function missingCredentials(): HttpError {
  return new HttpError(
    'UNAUTHORIZED',
    'credentials are required: an Authorization: Bearer token or an X-API-Key header',
    {
      headers: { 'WWW-Authenticate': `Bearer realm="${REALM}"` },
    },
  );
}

/** Credentials that were presented and do not hold: expired, revoked, forged or unknown. */
export function invalidCredentials(message: string): HttpError {
  return new HttpError('UNAUTHORIZED', message, {
    headers: {
      'WWW-Authenticate': `Bearer realm="${REALM}", error="invalid_token", error_description="${message.replaceAll('"', "'")}"`,
    },
  });
}
