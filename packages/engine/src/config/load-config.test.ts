import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSvcError } from '../errors.js';
import { CONFIG_VARIABLES } from './config-variables.js';
import { loadConfig } from './load-config.js';

function refusal(env: Record<string, string>): { message: string; problems: { variable: string; message: string }[] } {
  try {
    loadConfig(env);
  } catch (error) {
    if (!isSvcError(error) || error.code !== 'CONFIG_ERROR') throw error;
    return {
      message: error.message,
      problems: (error.details as { problems: { variable: string; message: string }[] }).problems,
    };
  }
  throw new Error('expected CONFIG_ERROR');
}

describe('loadConfig', () => {
  it('gives every default when nothing is set', () => {
    expect(loadConfig({})).toEqual({
      db: resolve('.svc/svc.db'),
      dbSync: 'normal',
      leaseMs: 30_000,
      logLevel: 'warn',
      logFormat: 'text',
      rateLimitPerMinute: undefined,
      egressAllow: [],
      egressDeny: [],
      bootstrapClientId: undefined,
      bootstrapClientSecret: undefined,
      apiUrl: undefined,
      apiKey: undefined,
      testgenOpenAiUrl: undefined,
      testgenOpenAiKey: undefined,
      testgenOpenAiModel: undefined,
      testgenOpenAiTimeoutMs: 120_000,
    });
  });

  it('reads each variable, trimmed, and counts blank as unset', () => {
    const config = loadConfig({
      SVC_DB: ' data/svc.db ',
      SVC_DB_SYNC: 'FULL',
      SVC_LEASE_MS: '5000',
      SVC_LOG_LEVEL: 'debug',
      SVC_LOG_FORMAT: 'json',
      SVC_RATE_LIMIT_PER_MINUTE: '120',
      SVC_BOOTSTRAP_CLIENT_ID: 'ci-admin',
      SVC_BOOTSTRAP_CLIENT_SECRET: 'svc_sk_x',
      SVC_API_URL: 'https://svc.example.com',
      SVC_API_KEY: 'svc_sk_y',
      SVC_TESTGEN_OPENAI_URL: 'http://127.0.0.1:11434/v1',
      SVC_TESTGEN_OPENAI_MODEL: 'llama3.1',
      SVC_TESTGEN_OPENAI_TIMEOUT_MS: '',
    });
    expect(config).toMatchObject({
      db: resolve('data/svc.db'),
      dbSync: 'full',
      leaseMs: 5000,
      logLevel: 'debug',
      logFormat: 'json',
      rateLimitPerMinute: 120,
      bootstrapClientId: 'ci-admin',
      bootstrapClientSecret: 'svc_sk_x',
      apiUrl: 'https://svc.example.com',
      apiKey: 'svc_sk_y',
      testgenOpenAiUrl: 'http://127.0.0.1:11434/v1',
      testgenOpenAiModel: 'llama3.1',
      testgenOpenAiTimeoutMs: 120_000,
    });
    expect(loadConfig({ SVC_DB: ':memory:' }).db).toBe(':memory:');
    expect(loadConfig({ SVC_RATE_LIMIT_PER_MINUTE: '0' }).rateLimitPerMinute).toBeUndefined();
  });

  it.each([
    ['SVC_DB_SYNC', 'fast', 'SVC_DB_SYNC must be "normal" or "full", not "fast"'],
    ['SVC_LEASE_MS', 'soon', 'SVC_LEASE_MS must be a whole number of milliseconds (1 or more), not "soon"'],
    ['SVC_LEASE_MS', '0', 'SVC_LEASE_MS must be a whole number of milliseconds (1 or more), not "0"'],
    ['SVC_LEASE_MS', '1.5', 'SVC_LEASE_MS must be a whole number of milliseconds (1 or more), not "1.5"'],
    ['SVC_LOG_LEVEL', 'verbose', 'SVC_LOG_LEVEL must be one of "error", "warn", "info" or "debug", not "verbose"'],
    ['SVC_LOG_FORMAT', 'xml', 'SVC_LOG_FORMAT must be "text" or "json", not "xml"'],
    ['SVC_RATE_LIMIT_PER_MINUTE', '-5', 'SVC_RATE_LIMIT_PER_MINUTE must be a whole number of requests, not "-5"'],
    [
      'SVC_API_URL',
      'ftp://svc.example.com',
      'SVC_API_URL must be an http or https address, e.g. https://svc.example.com, not "ftp://svc.example.com"',
    ],
    ['SVC_TESTGEN_OPENAI_URL', 'localhost:11434', 'SVC_TESTGEN_OPENAI_URL must be an http or https address'],
    [
      'SVC_TESTGEN_OPENAI_TIMEOUT_MS',
      'a minute',
      'SVC_TESTGEN_OPENAI_TIMEOUT_MS must be a whole number of milliseconds (1 or more), not "a minute"',
    ],
  ])('refuses a bad %s (%s), naming the variable and what it takes', (name, value, message) => {
    const { message: said, problems } = refusal({ [name]: value });
    expect(said).toContain(message);
    expect(problems).toEqual([{ variable: name, message: expect.stringContaining(message) }]);
  });

  it('names every bad variable at once', () => {
    const { problems } = refusal({ SVC_LEASE_MS: 'x', SVC_DB_SYNC: 'y' });
    expect(problems.map((problem) => problem.variable).sort()).toEqual(['SVC_DB_SYNC', 'SVC_LEASE_MS']);
  });

  it('wants both bootstrap variables or neither', () => {
    expect(refusal({ SVC_BOOTSTRAP_CLIENT_ID: 'ci-admin' }).problems).toEqual([
      {
        variable: 'SVC_BOOTSTRAP_CLIENT_SECRET',
        message: 'set both SVC_BOOTSTRAP_CLIENT_ID and SVC_BOOTSTRAP_CLIENT_SECRET, or neither',
      },
    ]);
  });

  it('reads the egress rules, and names the variable and the entry it cannot read', () => {
    const config = loadConfig({
      SVC_EGRESS_ALLOW: '127.0.0.1:4010, 10.0.0.0/8,api.internal',
      SVC_EGRESS_DENY: '10.1.0.0/16',
    });
    expect(config.egressAllow.map((rule) => rule.entry)).toEqual(['127.0.0.1:4010', '10.0.0.0/8', 'api.internal']);
    expect(config.egressDeny.map((rule) => rule.entry)).toEqual(['10.1.0.0/16']);
    expect(refusal({ SVC_EGRESS_DENY: '10.0.0.0/99' }).problems).toEqual([
      {
        variable: 'SVC_EGRESS_DENY',
        message: expect.stringMatching(/^SVC_EGRESS_DENY entry "10\.0\.0\.0\/99" is not a host/),
      },
    ]);
  });

  it('never echoes the value of a secret', () => {
    const secrets = Object.values(CONFIG_VARIABLES).filter((variable) => 'secret' in variable && variable.secret);
    expect(secrets.map((variable) => variable.name)).toEqual([
      'SVC_SECRET_KEY',
      'SVC_BOOTSTRAP_CLIENT_SECRET',
      'SVC_API_KEY',
      'SVC_TESTGEN_OPENAI_KEY',
    ]);
    // The pairing rule and a malformed key refuse secrets; their messages name variables, not values.
    expect(refusal({ SVC_SECRET_KEY: 'not-a-key-private' }).message).not.toContain('not-a-key-private');
    expect(refusal({ SVC_BOOTSTRAP_CLIENT_SECRET: 'svc_sk_private' }).message).not.toContain('svc_sk_private');
  });

  it('lists only SVC_ variables, each once, with a meaning', () => {
    const names = Object.values(CONFIG_VARIABLES).map((variable) => variable.name);
    expect(new Set(names).size).toBe(names.length);
    for (const variable of Object.values(CONFIG_VARIABLES)) {
      expect(variable.name).toMatch(/^SVC_[A-Z0-9_]+$/);
      expect(variable.description.length).toBeGreaterThan(10);
    }
  });
});
