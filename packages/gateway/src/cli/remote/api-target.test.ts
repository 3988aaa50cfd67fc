import { describe, expect, it } from 'vitest';
import { resolveApiTarget } from './api-target.js';

function resolve(flag: string | undefined, env: Record<string, string>) {
  const warnings: string[] = [];
  const target = resolveApiTarget(flag, (line) => warnings.push(line), env);
  return { target, warnings };
}

describe('resolveApiTarget', () => {
  it('is the embedded store unless --api-url or SVC_API_URL names a service; the flag wins', () => {
    expect(resolve(undefined, {}).target).toBeUndefined();
    expect(resolve(undefined, { SVC_API_URL: 'https://a.example.com', SVC_API_KEY: 'k' }).target).toEqual({
      url: 'https://a.example.com',
      apiKey: 'k',
    });
    expect(resolve('https://b.example.com', { SVC_API_URL: 'https://a.example.com' }).target).toEqual({
      url: 'https://b.example.com',
    });
  });

  it('warns when the key would cross a network in clear text, not on loopback or https', () => {
    const key = { SVC_API_KEY: 'svc_sk_x' };
    expect(resolve('http://10.0.0.5:8080', key).warnings).toEqual([
      'svc: warning: SVC_API_KEY is sent to 10.0.0.5 over plain http; use https beyond this machine\n',
    ]);
    for (const safe of ['http://127.0.0.1:8080', 'http://localhost:8080', 'http://[::1]:8080', 'https://10.0.0.5']) {
      expect(resolve(safe, key).warnings, safe).toEqual([]);
    }
    expect(resolve('http://10.0.0.5:8080', {}).warnings).toEqual([]);
  });

  it('stops on a malformed SVC_API_URL, naming it', () => {
    expect(() => resolve(undefined, { SVC_API_URL: 'ftp://x' })).toThrow(/SVC_API_URL/);
  });
});
