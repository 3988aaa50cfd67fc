import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { xmlAttribute, xmlText } from './xml-text.js';

/** Parses with a strict XML 1.0 parser: the text of `<a>` and its attribute `v`, or the parser's error. */
function roundTrip(text: string, attribute: string): { text: string; attribute: string } {
  const parser = new SaxesParser({ xmlns: false });
  let read = '';
  let value = '';
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => (value = String(tag.attributes.v)));
  parser.on('text', (chunk) => (read += chunk));
  parser.write(`<?xml version="1.0" encoding="UTF-8"?><a v="${xmlAttribute(attribute)}">${xmlText(text)}</a>`).close();
  return { text: read, attribute: value };
}

describe('xmlText and xmlAttribute', () => {
  it('keep markup, entities and CDATA ends as the text they are', () => {
    const hostile = `]]></failure></testcase><testcase name="forged"><![CDATA[ &amp; &#0; <!-- --> <?pi?>`;
    expect(roundTrip(hostile, hostile)).toEqual({ text: hostile, attribute: hostile });
  });

  it('write out every character XML 1.0 cannot hold, so a strict parser reads the document', () => {
    const controls = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).join('');
    const hostile = `a${controls}\u007f\ud800 lone high, \udc00 lone low, \ufffe\uffff, 😀 stays`;
    const { text, attribute } = roundTrip(hostile, hostile);
    expect(text).toContain('a\\u0000\\u0001');
    expect(text).toContain('\\u001b');
    expect(text).toContain('\t\n');
    expect(text).toContain('\\ud800 lone high, \\udc00 lone low, \\ufffe\\uffff, 😀 stays');
    // Tabs and line breaks in an attribute survive as themselves (a parser would make them spaces).
    expect(attribute).toContain('\t\n');
    expect(attribute).toContain('\\u0000');
  });

  it('keeps quotes inside an attribute', () => {
    expect(roundTrip('x', `he said "stop" & 'go'`).attribute).toBe(`he said "stop" & 'go'`);
  });
});
