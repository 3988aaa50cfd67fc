/**
 * Characters XML 1.0 cannot hold at all, not even as a character reference: the C0 controls but
 * tab, newline and carriage return, lone UTF-16 surrogates, and U+FFFE/U+FFFF. A response body may
 * hold any of them; one of them in a report makes the whole file unreadable to a CI server.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** A character XML cannot hold, as text a reader recognises: `\u001b`. */
const shown = (character: string) => `\\u${character.codePointAt(0)!.toString(16).padStart(4, '0')}`;

/**
 * Text as XML character data: `&`, `<` and `>` escaped (so `]]>` and markup in a response body stay
 * text), characters XML cannot hold written out as `\uXXXX`.
 * @example xmlText('a < b & </failure>\u0000'); // 'a &lt; b &amp; &lt;/failure&gt;\\u0000'
 */
export function xmlText(value: string): string {
  return value.replace(NOT_XML, shown).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Text as a double-quoted attribute value: as `xmlText`, and quotes escaped; tabs and line breaks
 * as character references, since a parser turns them into spaces otherwise.
 */
export function xmlAttribute(value: string): string {
  return xmlText(value)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}
