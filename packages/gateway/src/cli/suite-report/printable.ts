/**
 * One line of text safe to print on a terminal: whitespace runs become one space, and control
 * characters (an escape sequence in an API's answer could move the cursor, retitle the window or
 * hide lines) are written out as `\u001b`. Cut to `max` characters.
 */
export function printable(text: string, max = 300): string {
  const line = text
    .replace(/[\t\n\r ]+/g, ' ')
    .replace(
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      /[\u0000-\u001f\u007f-\u009f]/g,
      (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
    )
    .trim();
  return line.length <= max ? line : `${line.slice(0, max)}…`;
}
