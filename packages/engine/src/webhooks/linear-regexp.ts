import { loadRe2 } from './lazy-libraries.js';

/** What ajv needs of a regular expression: `test`, and a `toString` it keys compiled patterns by. */
export interface LinearRegExp {
  test(text: string): boolean;
  toString(): string;
}

/**
 * Compiles a JSON Schema `pattern` (ECMAScript syntax) for RE2JS, a pure-JavaScript port of RE2
 * that matches in time linear in the input: a pattern such as `^(a+)+$`, which makes a
 * backtracking engine run for hours on `aaaa…!`, answers at once. The price is RE2's syntax:
 * lookahead, lookbehind and backreferences are not supported, and such a pattern throws here
 * (so a flow that uses one is refused when it is saved). `\s` matches ASCII white space only.
 *
 * @example
 * compileLinearRegExp('^[a-z]+-\\d+$').test('order-42'); // true
 * compileLinearRegExp('^(a)\\1$'); // throws: backreferences are not supported
 */
export function compileLinearRegExp(pattern: string, options: { ignoreCase?: boolean } = {}): LinearRegExp {
  assertNoNamedBackreference(pattern);
  const { RE2JS } = loadRe2();
  const compiled = RE2JS.compile(RE2JS.translateRegExp(pattern), options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  const text = `/${pattern}/${options.ignoreCase ? 'i' : ''}`;
  return { test: (input) => compiled.test(input), toString: () => text };
}

/**
 * `\k<name>` is a backreference in ECMAScript, but the RE2JS translation turns it into the
 * literal text `k<name>` instead of refusing it: refused here, so no pattern silently changes
 * meaning. (Numbered backreferences, `\1`, are refused by RE2JS itself.)
 */
function assertNoNamedBackreference(pattern: string): void {
  for (let index = 0; index < pattern.length; index += 1) {
    if (pattern[index] !== '\\') continue;
    if (pattern[index + 1] === 'k') throw new SyntaxError('backreferences (\\k<name>) are not supported');
    index += 1;
  }
}

/** The ajv `code.regExp` engine: every `pattern` and `patternProperties` key runs on RE2JS. */
export const linearRegExpEngine = Object.assign((pattern: string) => compileLinearRegExp(pattern), {
  code: 'compileLinearRegExp',
});
