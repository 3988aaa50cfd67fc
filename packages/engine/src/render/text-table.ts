/**
 * Plain-text helpers for the command line's and the MCP tools' output; the subpath export
 * `@svc/engine/text-table`, kept out of the engine's main face, which is about flows and runs.
 */
/** Rows as aligned columns; the last column is not padded, so lines carry no trailing spaces. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** One line of a value, cut to `max` characters. */
export function oneLine(value: unknown, max: number): string {
  const text = (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')).replace(/\s+/g, ' ');
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
