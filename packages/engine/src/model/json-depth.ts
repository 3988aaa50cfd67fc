import { SvcError } from '../errors.js';
import { formatJsonPath, type JsonPath } from './walk-strings.js';

/**
 * How deep a JSON value may nest where it enters svc (REST bodies, MCP tool input, flow files,
 * a run's env and inputs): 64 objects or arrays, far more than any flow or API payload needs and
 * far less than would exhaust the stack of code that walks it.
 */
export const MAX_JSON_DEPTH = 64;

export type JsonShapeProblem =
  | { kind: 'too-deep'; path: JsonPath; maxDepth: number }
  | { kind: 'cycle'; path: JsonPath }
  | { kind: 'too-many-values'; maxValues: number };

export interface JsonShapeLimits {
  /** Objects and arrays nested inside each other; the outermost one is level 1. */
  maxDepth: number;
  /**
   * Values visited, counting a value reached twice (a YAML alias) twice: bounds the time any walk
   * over the value takes. Unbounded when absent.
   */
  maxValues?: number;
}

/** A container on the walk, with how it was reached (its path is rebuilt only on failure). */
interface Frame {
  value: object;
  depth: number;
  parent: Frame | undefined;
  key: string | number | undefined;
  /** Set once its children are pushed: popping it again means leaving it. */
  entered: boolean;
}

function pathOf(frame: Frame): JsonPath {
  const path: JsonPath = [];
  for (let at: Frame | undefined = frame; at?.parent !== undefined; at = at.parent) path.push(at.key!);
  return path.reverse();
}

/**
 * Walks a value without recursion and answers the first place it nests deeper than
 * `maxDepth`, refers to itself (only a parsed YAML document can), or holds more than
 * `maxValues` values; undefined when it does none of these.
 * @example
 * checkJsonShape({ a: [[1]] }, { maxDepth: 2 }); // { kind: 'too-deep', path: ['a', 0], maxDepth: 2 }
 */
export function checkJsonShape(value: unknown, limits: JsonShapeLimits): JsonShapeProblem | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const maxValues = limits.maxValues ?? Infinity;
  const open = new Set<object>();
  const stack: Frame[] = [{ value, depth: 1, parent: undefined, key: undefined, entered: false }];
  let visited = 1;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.entered) {
      stack.pop();
      open.delete(frame.value);
      continue;
    }
    frame.entered = true;
    if (frame.depth > limits.maxDepth) return { kind: 'too-deep', path: pathOf(frame), maxDepth: limits.maxDepth };
    open.add(frame.value);
    // Children pushed as they are found, without an array of entries per container: this walk
    // runs over every file, body and argument that enters svc, and takes half the time so.
    const container = frame.value as Record<string, unknown> | unknown[];
    const isArray = Array.isArray(container);
    const keys = isArray ? undefined : Object.keys(container);
    const count = isArray ? container.length : keys!.length;
    for (let index = 0; index < count; index += 1) {
      visited += 1;
      if (visited > maxValues) return { kind: 'too-many-values', maxValues };
      const key = isArray ? index : keys![index]!;
      const child = isArray ? container[index] : (container as Record<string, unknown>)[key];
      if (child === null || typeof child !== 'object') continue;
      const next: Frame = { value: child, depth: frame.depth + 1, parent: frame, key, entered: false };
      if (open.has(child)) return { kind: 'cycle', path: pathOf(next) };
      stack.push(next);
    }
  }
  return undefined;
}

/**
 * Describes a problem for a message: `body.env.a.a.a…: nests deeper than 64 levels`.
 * `root` names where the value came from (`body`, `env`, `arguments`).
 */
export function describeJsonShapeProblem(problem: JsonShapeProblem, root: string): { path: string; message: string } {
  const where = (path: JsonPath) => {
    const shown = formatJsonPath(path);
    if (root === '' || shown === '') return shown === '' ? root : shown;
    return shown.startsWith('[') ? `${root}${shown}` : `${root}.${shown}`;
  };
  switch (problem.kind) {
    case 'too-deep':
      return {
        path: where(problem.path),
        message: `nests deeper than ${problem.maxDepth} levels of objects and arrays`,
      };
    case 'cycle':
      return { path: where(problem.path), message: 'refers to itself' };
    case 'too-many-values':
      return { path: root, message: `holds more than ${problem.maxValues} values` };
  }
}

/**
 * Throws `VALIDATION_ERROR` (status 400) when `value` nests deeper than `MAX_JSON_DEPTH`, with
 * the path where it got too deep in the message and in `details.problems`.
 * @example
 * assertJsonDepth(JSON.parse(body), 'body'); // throws for '[[[[…]]]]' 65 levels deep
 */
export function assertJsonDepth(value: unknown, root: string, maxDepth = MAX_JSON_DEPTH): void {
  const problem = checkJsonShape(value, { maxDepth });
  if (problem === undefined) return;
  const { path, message } = describeJsonShapeProblem(problem, root);
  // The path of a value nested thousands deep is long; the first levels locate it.
  const shownPath = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  throw new SvcError('VALIDATION_ERROR', `${shownPath}: ${message}`, {
    details: { problems: [{ code: 'TOO_DEEP', message, path: shownPath }] },
  });
}

/** Before a YAML parser sees it, text may nest at most this deep (its composer recurses per level). */
export const MAX_YAML_TEXT_DEPTH = 256;

/**
 * Scans YAML (or JSON) text, without parsing it, for nesting past `maxDepth`: flow collections
 * (`[`, `{`) outside quoted scalars and comments, plus block levels (deeper indentation and
 * `- ` entries). The `yaml` package composes recursively, and text nested tens of thousands deep
 * exhausts its stack or its memory, so such text must be refused before it is parsed. The scan
 * is an over-estimate in rare cases (an unclosed `[` in a plain scalar), which is why its limit
 * is far above the 64 levels checked on the parsed value.
 * @example
 * yamlTextTooDeep('a: ' + '['.repeat(300), 256); // { line: 1 }
 */
export function yamlTextTooDeep(text: string, maxDepth = MAX_YAML_TEXT_DEPTH): { line: number } | undefined {
  let flow = 0;
  let line = 1;
  const indents: number[] = [];
  let atLineStart = true;
  let quote: '"' | "'" | undefined;
  let previous = '\n';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quote !== undefined) {
      if (char === '\n') line += 1;
      if (quote === '"' && char === '\\') index += 1;
      else if (char === quote) {
        if (quote === "'" && text[index + 1] === "'") index += 1;
        else quote = undefined;
      }
      previous = char;
      continue;
    }
    if (atLineStart) {
      atLineStart = false;
      if (flow === 0) {
        // Block structure: the indentation, then any `- ` entries that open a level each.
        let column = index;
        while (text[column] === ' ') column += 1;
        const indent = column - index;
        let dashes = 0;
        while (
          (text[column] === '-' || text[column] === '?') &&
          (text[column + 1] === ' ' || text[column + 1] === '\n')
        ) {
          dashes += 1;
          column += 2;
          while (text[column] === ' ') column += 1;
        }
        const blank =
          dashes === 0 &&
          (column >= text.length || text[column] === '\n' || text[column] === '\r' || text[column] === '#');
        if (!blank) {
          while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
          indents.push(indent);
          if (indents.length + dashes > maxDepth) return { line };
        }
        if (column > index) {
          index = column - 1;
          previous = ' ';
          continue;
        }
      }
    }
    if (char === '\n') {
      line += 1;
      atLineStart = true;
    } else if (char === '#' && /\s/.test(previous)) {
      while (index + 1 < text.length && text[index + 1] !== '\n') index += 1;
    } else if ((char === '"' || char === "'") && /[\s[{,:]/.test(previous)) {
      quote = char;
    } else if (char === '[' || char === '{') {
      flow += 1;
      if (flow + indents.length > maxDepth) return { line };
    } else if ((char === ']' || char === '}') && flow > 0) {
      flow -= 1;
    }
    previous = char;
  }
  return undefined;
}

/**
 * Whether JSON text nests deeper than `maxDepth`, by a scan of its brackets outside strings (no
 * parse). Text shorter than `2 × maxDepth` cannot, and is answered at once.
 * @example
 * jsonTextNestsDeeper('[[[]]]', 2); // true
 */
export function jsonTextNestsDeeper(text: string, maxDepth: number): boolean {
  if (text.length <= 2 * maxDepth) return false;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index += 1; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (code === 0x5d || code === 0x7d) depth -= 1;
  }
  return false;
}
