import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSvc } from './cli.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-config-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('svc and svc serve read one configuration', () => {
  it('svc serve refuses a bad SVC_RATE_LIMIT_PER_MINUTE before it listens, naming the variable', async () => {
    const { stdout, stderr, code } = await spawnSvc(['serve', '--port', '0'], {
      SVC_DB: join(dir, 'serve.db'),
      SVC_RATE_LIMIT_PER_MINUTE: 'lots',
    }).done;
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('svc: SVC_RATE_LIMIT_PER_MINUTE must be a whole number of requests, not "lots"');
    expect(stderr).not.toContain('serving on');
  });

  it('svc resume refuses a bad SVC_LEASE_MS instead of falling back to the default', async () => {
    const { stderr, code } = await spawnSvc(['resume'], { SVC_DB: join(dir, 'cli.db'), SVC_LEASE_MS: '-1' }).done;
    expect(code).toBe(1);
    expect(stderr).toContain('svc: SVC_LEASE_MS must be a whole number of milliseconds (1 or more), not "-1"');
  });
});
