import type { FileProblem } from '@svc/engine';
import { printable } from './suite-report/printable.js';

/**
 * Prints a document's problems on stderr, one a line, each where it is:
 * `flows/order.yaml:12: nodes[1].config.url: INVALID_TEMPLATE: …`, the form editors and CI logs
 * turn into a link to the line. What the file says (a node's name in a message) is printed with
 * its control characters written out, so a file cannot send escape sequences to the terminal.
 */
/** A problem's line is cut past this (a message may quote a whole value). */
const MAX_PROBLEM_CHARS = 2_000;

export function printProblems(what: string, problems: readonly FileProblem[]): void {
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
  const lines = [`svc: ${what} does not validate (${count}):`];
  for (const problem of problems) {
    const where = problem.line === null ? problem.file : `${problem.file}:${problem.line}`;
    const text = `${where}: ${problem.path ? `${problem.path}: ` : ''}${problem.code}: ${problem.message}`;
    lines.push(`  ${printable(text, MAX_PROBLEM_CHARS)}`);
  }
  process.stderr.write(`${lines.join('\n')}\n`);
}
