import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Program } from 'acorn';

/*
 * acorn is loaded when a first script is checked: a run of flows without JavaScript never
 * compiles its 200 KB of source (every `svc` command would, at start).
 */
const requireHere = createRequire(
  typeof import.meta.url === 'string' ? import.meta.url : pathToFileURL(`${process.cwd()}/`).href,
);
const parse: typeof import('acorn').parse = (code, options) =>
  (requireHere('acorn') as typeof import('acorn')).parse(code, options);
import {
  findReferences,
  parseOrThrow as parseWith,
  PARSE_OPTIONS,
  renameNodeInJavaScriptWith,
  syntaxFailure,
} from './javascript-references.js';

/** Switch expression mode accepts exactly one JavaScript expression. */
export type JavaScriptCheck = { ok: true } | { ok: false; message: string; position: number };

const parseOrThrow = (code: string): Program => parseWith(parse, code);

/**
 * Checks that `code` is one JavaScript expression (ES2022), as Switch expression mode needs.
 *
 * @example
 * checkJavaScript("ResponseBinding.CreateOrder.body.total > 100 && flowVars.region === 'eu'") // { ok: true }
 * checkJavaScript('a >') // { ok: false, message: 'Unexpected token (1:3)', position: 3 }
 */
export function checkJavaScript(code: string): JavaScriptCheck {
  let program: Program;
  try {
    program = parse(code, PARSE_OPTIONS);
  } catch (error) {
    return syntaxFailure(error);
  }
  const [first, second] = program.body;
  if (first === undefined)
    return { ok: false, message: 'empty expression: write a condition such as flowVars.region === "eu"', position: 0 };
  if (first.type !== 'ExpressionStatement') {
    return {
      ok: false,
      message: `expected an expression, found ${describeStatement(first.type)}`,
      position: first.start,
    };
  }
  if (second !== undefined) {
    return {
      ok: false,
      message: `expected a single expression, found more code at position ${second.start}`,
      position: second.start,
    };
  }
  return { ok: true };
}

/**
 * Node names a JavaScript expression reads: free (undeclared) identifiers that are in `nodeNames`,
 * and every `ResponseBinding.<Name>` / `ResponseBinding['Name']` access, whether or not the name is
 * known, so a caller can report references to nodes that do not exist. Each name once, in order.
 *
 * @example
 * javascriptNodeReferences('Create.statusCode === 201 && ResponseBinding.Get.body.ok', new Set(['Create', 'Get']))
 * // ['Create', 'Get']
 */
export function javascriptNodeReferences(code: string, nodeNames: ReadonlySet<string>): string[] {
  const names: string[] = [];
  for (const reference of findReferences(parseOrThrow(code))) {
    const name = reference.name;
    if (reference.kind === 'global' && !nodeNames.has(name)) continue;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * Renames node `from` to `to` where the code reads it: free identifiers named `from` and
 * `ResponseBinding.<from>`. Local variables, property names and strings are left alone.
 *
 * @example
 * renameNodeInJavaScript('Create.body.total > 1 && x.Create', 'Create', 'CreateOrder')
 * // 'CreateOrder.body.total > 1 && x.Create'
 */
export function renameNodeInJavaScript(code: string, from: string, to: string): string {
  return renameNodeInJavaScriptWith(parse, code, from, to);
}

function describeStatement(type: string): string {
  const words = type
    .replace(/(Statement|Declaration)$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  const phrase = `${words} ${type.endsWith('Declaration') ? 'declaration' : 'statement'}`;
  return `${/^[aeiou]/.test(phrase) ? 'an' : 'a'} ${phrase}`;
}
