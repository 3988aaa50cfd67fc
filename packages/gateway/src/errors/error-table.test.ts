import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES, silentLogger, SvcError } from '@svc/engine';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, statusForCode } from './error-table.js';
import { createErrorHandler } from './on-error.js';

const packagesDir = fileURLToPath(new URL('../../../', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every `new SvcError('CODE'` / `new HttpError('CODE'` in the packages' sources, with where it is. */
function codesThrown(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const name of readdirSync(packagesDir)) {
    let files: string[];
    try {
      files = sourceFiles(join(packagesDir, name, 'src'));
    } catch {
      continue;
    }
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/new (?:SvcError|HttpError)\(\s*'([A-Z][A-Z0-9_]*)'/g)) {
        const line = text.slice(0, match.index).split('\n').length;
        const where = `${relative(packagesDir, file)}:${line}`;
        found.set(match[1]!, [...(found.get(match[1]!) ?? []), where]);
      }
    }
  }
  return found;
}

describe('the error table', () => {
  it('finds the codes the packages throw (the scan itself works)', () => {
    const thrown = codesThrown();
    expect(thrown.size).toBeGreaterThan(40);
    expect(thrown.get('FLOW_NOT_FOUND')?.some((where) => where.startsWith('engine/src/'))).toBe(true);
    expect(thrown.get('TESTGEN_MODEL_TIMEOUT')?.some((where) => where.startsWith('discovery/src/'))).toBe(true);
  });

  it('has an HTTP status for every code a package throws', () => {
    const withoutStatus = [...codesThrown()].filter(([code]) => !(code in ERROR_STATUS)).map(([code, where]) => `${code} (${where.join(', ')})`);
    expect(withoutStatus).toEqual([]);
  });

  it('maps exactly the listed codes, each to an error status', () => {
    expect(Object.keys(ERROR_STATUS).sort()).toEqual([...ERROR_CODES].sort());
    for (const status of Object.values(ERROR_STATUS)) expect(status).toBeGreaterThanOrEqual(400);
  });

  it('answers a code that used to carry its own status with the status of the table', async () => {
    const app = new Hono();
    app.onError(createErrorHandler(silentLogger));
    app.get('/node', () => {
      throw new SvcError('NODE_NOT_FOUND', 'node "n1" is not in flow "f"');
    });
    app.get('/model', () => {
      throw new SvcError('TESTGEN_MODEL_TIMEOUT', 'the model service did not answer');
    });
    const node = await app.request('/node');
    expect(node.status).toBe(404);
    expect(await node.json()).toMatchObject({ success: false, error: { code: 'NODE_NOT_FOUND' } });
    expect((await app.request('/model')).status).toBe(504);
    expect(statusForCode('NOT_A_CODE')).toBe(500);
  });
});
