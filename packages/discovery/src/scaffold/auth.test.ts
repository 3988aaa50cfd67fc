import { describe, expect, it } from 'vitest';
import { authFor } from './auth.js';

describe('authFor', () => {
  it('writes each kind of scheme as an env placeholder whose name the engine treats as secret', () => {
    const schemes = {
      bearerAuth: { type: 'http', scheme: 'bearer' },
      basic: { type: 'http', scheme: 'basic' },
      'partner-key': { type: 'apiKey', in: 'query', name: 'key' },
      session: { type: 'apiKey', in: 'cookie', name: 'sid' },
      oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://id.example.com' },
    };
    const auth = (name: string) => authFor({ security: [{ [name]: [] }], securitySchemes: schemes });
    expect(auth('bearerAuth').headers).toEqual({ Authorization: 'Bearer {{env.bearerAuthToken}}' });
    expect(auth('basic').headers).toEqual({ Authorization: 'Basic {{env.basicCredentials}}' });
    expect(auth('partner-key').query).toEqual({ key: '{{env.partnerApiKey}}' });
    expect(auth('session').cookies).toEqual(['sid={{env.sessionApiKey}}']);
    expect(auth('oidc').headers).toEqual({ Authorization: 'Bearer {{env.oidcToken}}' });
  });

  it('takes the first alternative it can write, and all schemes of a requirement together', () => {
    const schemes = {
      mtls: { type: 'mutualTLS' },
      key: { type: 'apiKey', in: 'header', name: 'X-Key' },
      app: { type: 'apiKey', in: 'header', name: 'X-App' },
    };
    const auth = authFor({ security: [{}, { mtls: [] }, { key: [], app: [] }], securitySchemes: schemes });
    expect(auth.headers).toEqual({ 'X-Key': '{{env.keyApiKey}}', 'X-App': '{{env.appApiKey}}' });
    expect(auth.env.map((variable) => variable.name)).toEqual(['keyApiKey', 'appApiKey']);
    expect(authFor({ security: [{ mtls: [] }], securitySchemes: schemes }).unsupported).toEqual(['mtls']);
    expect(authFor({ security: [], securitySchemes: {} })).toMatchObject({ headers: {}, env: [] });
  });
});
