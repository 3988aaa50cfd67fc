import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '@svc/engine/sqlite';
import { spawnSvc } from './cli.js';

const SECRET = 'cli-secret-greeting-9e2d';

let target: Server;
let targetUrl: string;
const greetings: (string | undefined)[] = [];
let dir: string;

beforeAll(async () => {
  target = createServer((request, response) => {
    greetings.push(request.headers['x-greeting'] as string | undefined);
    response
      .setHeader('content-type', 'application/json')
      .end(JSON.stringify({ ok: true, heard: request.headers['x-greeting'] }));
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'svc-env-cli-'));
});

afterAll(async () => {
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
});

function svc(args: string[], env: Record<string, string> = {}) {
  return spawnSvc(args, { SVC_DB: join(dir, 'svc.db'), ...env }).done;
}

describe('svc env', () => {
  it('sets, lists, unsets and deletes environments, printing secrets as ***, and runs a flow on one with --env overrides', async () => {
    const set = await svc([
      'env',
      'set',
      'staging',
      'baseUrl=http://127.0.0.1:9',
      'region=eu',
      '--secret',
      `greeting=${SECRET}`,
    ]);
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(
      /^created staging \(envr_[a-z2-7]{20}\): baseUrl=http:\/\/127\.0\.0\.1:9, region=eu, greeting=\*\*\*\n$/,
    );
    expect((await svc(['env', 'unset', 'staging', 'region'])).stdout).toMatch(
      /^updated staging .*: baseUrl=http:\/\/127\.0\.0\.1:9, greeting=\*\*\*\n$/,
    );

    const list = await svc(['env', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/staging +envr_\w+ +baseUrl=http:\/\/127\.0\.0\.1:9, greeting=\*\*\*/);
    const json = JSON.parse((await svc(['env', 'list', '--json'])).stdout) as {
      environments: { name: string; secretKeys: string[] }[];
    };
    expect(json.environments).toMatchObject([{ name: 'staging', secretKeys: ['greeting'] }]);
    for (const output of [set.stdout, list.stdout, JSON.stringify(json)]) expect(output).not.toContain(SECRET);

    // The key file sits beside the store, readable by its owner only; the store holds no secret in the clear.
    expect(statSync(join(dir, 'svc.db.key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'svc.db')).toString('latin1')).not.toContain(SECRET);

    const flowFile = join(dir, 'greet.json');
    writeFileSync(
      flowFile,
      JSON.stringify({
        name: 'cli-greet',
        nodes: [
          {
            id: 'g',
            name: 'Greet',
            type: 'endpoint',
            config: { url: '{{env.baseUrl}}/hi', headers: { 'x-greeting': '{{env.greeting}}' } },
          },
        ],
      }),
    );
    const before = greetings.length;
    const run = await svc([
      'run',
      'flow',
      flowFile,
      '--environment',
      'staging',
      '--env',
      `baseUrl=${targetUrl}`,
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(greetings.slice(before)).toEqual([SECRET]);
    expect(run.stdout).not.toContain(SECRET);
    expect(run.stderr).not.toContain(SECRET);
    expect(JSON.parse(run.stdout).steps[0].request.headers['x-greeting']).toBe('***');

    // A suite of the saved flow, run the same way.
    const saved = JSON.parse((await svc(['flows', 'list', '--json'])).stdout) as {
      flows?: { id: string; name: string }[];
      items?: { id: string; name: string }[];
    };
    const flowId = (saved.flows ?? saved.items ?? []).find((flow) => flow.name === 'cli-greet')!.id;
    const store = openSqliteStore({ path: join(dir, 'svc.db') });
    await store.suites.create('default', {
      name: 'greetings',
      description: '',
      mode: 'sequential',
      flowIds: [flowId],
      kind: 'regression',
      source: null,
    });
    await store.close();
    const suite = await svc(['run', 'suite', 'greetings', '--environment', 'staging', '--env', `baseUrl=${targetUrl}`]);
    expect(suite.code, suite.stderr).toBe(0);
    expect(greetings.at(-1)).toBe(SECRET);
    expect(suite.stdout + suite.stderr).not.toContain(SECRET);

    const unknown = await svc(['run', 'flow', flowFile, '--environment', 'nowhere']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/ENVIRONMENT_NOT_FOUND: environment "nowhere" not found/);

    expect((await svc(['env', 'delete', 'staging'])).stdout).toMatch(/^deleted staging/);
    const gone = await svc(['env', 'delete', 'staging']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^svc: ENVIRONMENT_NOT_FOUND: /);
  });

  it('refuses a bad name with exit 2, and a wrong SVC_SECRET_KEY with SECRET_UNREADABLE', async () => {
    const bad = await svc(['env', 'set', 'bad name!', 'a=1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^svc: VALIDATION_ERROR: .*name: must be/);

    const keyed = { SVC_DB: join(dir, 'keyed.db'), SVC_SECRET_KEY: randomBytes(32).toString('base64') };
    expect((await svc(['env', 'set', 'prod', '--secret', `greeting=${SECRET}`], keyed)).code).toBe(0);
    const flowFile = join(dir, 'greet-prod.json');
    writeFileSync(
      flowFile,
      JSON.stringify({
        name: 'cli-greet-prod',
        nodes: [
          {
            id: 'g',
            name: 'Greet',
            type: 'endpoint',
            config: { url: `${targetUrl}/hi`, headers: { 'x-greeting': '{{env.greeting}}' } },
          },
        ],
      }),
    );
    const wrong = await svc(['run', 'flow', flowFile, '--environment', 'prod'], {
      ...keyed,
      SVC_SECRET_KEY: randomBytes(32).toString('hex'),
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/SECRET_UNREADABLE: a stored secret cannot be decrypted/);
    const malformed = await svc(['env', 'list'], { ...keyed, SVC_SECRET_KEY: 'not-a-key' });
    expect(malformed.code).not.toBe(0);
    expect(malformed.stderr).toMatch(/SVC_SECRET_KEY must be a 32-byte key/);
    expect(malformed.stderr).not.toContain('not-a-key');
  });
});
