import type { FileProblem } from '@svc/engine';

/**
 * Prints a document's problems on stderr, one a line, each where it is:
 * `flows/order.yaml:12: nodes[1].config.url: INVALID_TEMPLATE: …`, the form editors and CI logs
 * turn into a link to the line.
 */
export function printProblems(what: string, problems: readonly FileProblem[]): void {
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
  const lines = [`svc: ${what} does not validate (${count}):`];
  for (const problem of problems) {
    const where = problem.line === null ? problem.file : `${problem.file}:${problem.line}`;
    lines.push(`  ${where}: ${problem.path ? `${problem.path}: ` : ''}${problem.code}: ${problem.message}`);
  }
  process.stderr.write(`${lines.join('\n')}\n`);
}
