import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES, silentLogger, SvcError } from '@svc/engine';
import { Hono } from 'hono';
import ts from 'typescript';
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

const UPPER_SNAKE = /^[A-Z][A-Z0-9_]*$/;

/** The UPPER_SNAKE string literals an expression can be: `'X'`, or either branch of `c ? 'X' : 'Y'`. */
function literalCodes(node: ts.Node | undefined): string[] {
  if (node === undefined) return [];
  if (ts.isParenthesizedExpression(node)) return literalCodes(node.expression);
  if (ts.isConditionalExpression(node)) return [...literalCodes(node.whenTrue), ...literalCodes(node.whenFalse)];
  return ts.isStringLiteralLike(node) && UPPER_SNAKE.test(node.text) ? [node.text] : [];
}

function propertyName(property: ts.ObjectLiteralElementLike): string | undefined {
  return property.name !== undefined && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))
    ? property.name.text
    : undefined;
}

/**
 * Every code the packages' sources give an error, with where it is: the first argument of
 * `new SvcError(…)` / `new HttpError(…)`, and the `code` of an error literal `{ code: 'X',
 * message, … }` — how executions, steps, jobs and suite results get theirs, shown through REST
 * too. A validation problem (`{ code, message, path }`) lives inside a `VALIDATION_ERROR`'s
 * details and is not an error code of its own.
 */
function codesThrown(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const add = (code: string, file: string, source: ts.SourceFile, node: ts.Node) => {
    const where = `${relative(packagesDir, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
    found.set(code, [...(found.get(code) ?? []), where]);
  };
  for (const name of readdirSync(packagesDir)) {
    let files: string[];
    try {
      files = sourceFiles(join(packagesDir, name, 'src'));
    } catch {
      continue;
    }
    for (const file of files) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (
          ts.isNewExpression(node) &&
          ts.isIdentifier(node.expression) &&
          (node.expression.text === 'SvcError' || node.expression.text === 'HttpError')
        ) {
          for (const code of literalCodes(node.arguments?.[0])) add(code, file, source, node);
        }
        if (ts.isObjectLiteralExpression(node)) {
          const names = node.properties.map(propertyName);
          const code = node.properties.find((property) => propertyName(property) === 'code');
          if (
            code !== undefined &&
            ts.isPropertyAssignment(code) &&
            names.includes('message') &&
            !names.includes('path')
          ) {
            for (const each of literalCodes(code.initializer)) add(each, file, source, node);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
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
    // Error literals: a step's failed assertions, a loop's failed iteration, a suite's flow.
    expect(thrown.get('ASSERTION_FAILED')?.some((where) => where.startsWith('engine/src/nodes/'))).toBe(true);
    expect(thrown.get('LOOP_FAILED')).toBeDefined();
    expect(thrown.get('SUITE_FLOW_TIMEOUT')).toBeDefined();
    // Validation problems are not error codes.
    expect(thrown.get('TOO_DEEP')).toBeUndefined();
  });

  it('has an HTTP status for every code a package throws', () => {
    const withoutStatus = [...codesThrown()]
      .filter(([code]) => !(code in ERROR_STATUS))
      .map(([code, where]) => `${code} (${where.join(', ')})`);
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
    app.get('/egress', () => {
      throw new SvcError('EGRESS_DENIED', 'egress to 10.0.0.1 port 80 refused: a private address');
    });
    const node = await app.request('/node');
    expect(node.status).toBe(404);
    expect(await node.json()).toMatchObject({ success: false, error: { code: 'NODE_NOT_FOUND' } });
    expect((await app.request('/model')).status).toBe(504);
    const egress = await app.request('/egress');
    expect(egress.status).toBe(403);
    expect(await egress.json()).toMatchObject({ success: false, error: { code: 'EGRESS_DENIED' } });
    expect(statusForCode('NOT_A_CODE')).toBe(500);
  });
});
