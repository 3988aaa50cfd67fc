import { SvcError } from '../errors.js';
import type { PathExpression, PathSegment, Template, TemplatePart } from './types.js';

/** Where the pieces of one expression sit in the template source, for rewrites that keep the rest. */
export interface ExpressionSpans {
  root: { start: number; end: number };
  /** One per segment: for a key, the name or the quoted string including its quotes. */
  segments: { start: number; end: number; quote: '' | "'" | '"' }[];
}

export interface ScannedTemplate {
  template: Template;
  /** Parallel to the template's expression parts, in order. */
  spans: ExpressionSpans[];
}

/**
 * Parses a string that may mix text and `{{ … }}` expressions.
 *
 * @example
 * parseTemplate('{{env.baseUrl}}/orders/{{Create.response.body.id}}').parts.length // 3
 * parseTemplate('{{ X.body.nick ?? "anon" }}').single // true
 */
export function parseTemplate(source: string): Template {
  return scanTemplate(source).template;
}

/** Keys a path never reads: following them would reach prototypes, not data. */
export const UNREADABLE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function isIdentifier(text: string): boolean {
  return IDENTIFIER.test(text);
}

/** Parses a template and also answers where each expression's root and segments are. */
export function scanTemplate(source: string): ScannedTemplate {
  const parts: TemplatePart[] = [];
  const spans: ExpressionSpans[] = [];
  let open = source.indexOf('{{');
  if (open === -1) return { template: { source, parts: [{ kind: 'text', text: source }], single: false }, spans };

  let textStart = 0;
  while (open !== -1) {
    if (open > textStart) parts.push({ kind: 'text', text: source.slice(textStart, open) });
    const parser = new ExpressionParser(source, open);
    const { expression, expressionSpans, end } = parser.parse();
    parts.push({ kind: 'expression', expression });
    spans.push(expressionSpans);
    textStart = end;
    open = source.indexOf('{{', textStart);
  }
  if (textStart < source.length) parts.push({ kind: 'text', text: source.slice(textStart) });
  const single = parts.length === 1 && parts[0]?.kind === 'expression';
  return { template: { source, parts, single }, spans };
}

function isIdentifierStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36;
}

function isIdentifierPart(code: number): boolean {
  return isIdentifierStart(code) || isDigit(code);
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/** The source quoted for a message; long sources are cut around the position that matters. */
function quoteSource(source: string, position: number): string {
  if (source.length <= 120) return JSON.stringify(source);
  const from = Math.max(0, position - 50);
  const to = Math.min(source.length, position + 50);
  return `"${from > 0 ? '…' : ''}${JSON.stringify(source.slice(from, to)).slice(1, -1)}${to < source.length ? '…' : ''}"`;
}

/** Recursive descent over one `{{ … }}`, starting at its `{{`; positions are offsets into the whole source. */
class ExpressionParser {
  private pos: number;

  constructor(
    private readonly source: string,
    private readonly open: number,
  ) {
    this.pos = open + 2;
  }

  parse(): { expression: PathExpression; expressionSpans: ExpressionSpans; end: number } {
    const { source } = this;
    if (source.indexOf('}}', this.pos) === -1) {
      this.fail(
        `unclosed "{{" at position ${this.open} in ${quoteSource(source, this.open)}: add the closing "}}"`,
        this.open,
      );
    }
    this.skipSpaces();
    const exprStart = this.pos;
    if (source.startsWith('}}', this.pos)) {
      this.fail(
        `empty expression "${source.slice(this.open, this.pos + 2)}" at position ${this.open} in ${quoteSource(source, this.open)}: write a path such as {{flowVars.name}}`,
        this.open,
      );
    }

    const rootStart = this.pos;
    const root = this.readIdentifier();
    if (root === undefined) {
      this.fail(
        `expected a name at position ${this.pos} in ${quoteSource(source, this.pos)}: an expression starts with a node name, ResponseBinding, flowVars, env, execution or a loop name`,
        this.pos,
      );
    }
    this.checkReadable(root, rootStart);
    const spans: ExpressionSpans = { root: { start: rootStart, end: this.pos }, segments: [] };
    const segments: PathSegment[] = [];
    this.readSegments(segments, spans);

    if (root === 'ResponseBinding' && segments[0]?.kind !== 'key') {
      this.fail(
        `expected a node name after "ResponseBinding" at position ${spans.root.end} in ${quoteSource(source, spans.root.end)}: write ResponseBinding.<Node>.body…`,
        spans.root.end,
      );
    }

    let pathEnd = this.pos;
    let optional = false;
    let fallback: { value: unknown } | undefined;
    this.skipSpaces();
    if (source.charCodeAt(this.pos) === 63 /* ? */ && source.charCodeAt(this.pos + 1) !== 63) {
      optional = true;
      this.pos += 1;
      pathEnd = this.pos;
      this.skipSpaces();
    }
    if (source.startsWith('??', this.pos)) {
      this.pos += 2;
      this.skipSpaces();
      fallback = { value: this.readLiteral() };
      pathEnd = this.pos;
      this.skipSpaces();
    }

    if (!source.startsWith('}}', this.pos)) {
      if (this.pos >= source.length) {
        this.fail(
          `unclosed "{{" at position ${this.open} in ${quoteSource(source, this.open)}: add the closing "}}"`,
          this.open,
        );
      }
      this.fail(
        `unexpected ${JSON.stringify(source[this.pos])} at position ${this.pos} in ${quoteSource(source, this.pos)}: expected "}}"${
          optional || fallback ? '' : ', ".name", "[index]", "?" or "?? default"'
        }`,
        this.pos,
      );
    }
    const expression: PathExpression = {
      kind: 'path',
      root,
      segments,
      optional,
      source: source.slice(exprStart, pathEnd),
    };
    if (fallback) expression.fallback = fallback;
    return { expression, expressionSpans: spans, end: this.pos + 2 };
  }

  private readSegments(segments: PathSegment[], spans: ExpressionSpans): void {
    const { source } = this;
    for (;;) {
      const code = source.charCodeAt(this.pos);
      if (code === 46 /* . */) {
        this.pos += 1;
        const start = this.pos;
        const key = this.readIdentifier();
        if (key === undefined) {
          const hint = isDigit(source.charCodeAt(this.pos))
            ? ': use [0] for an index'
            : ": use ['key'] for a key that is not a plain name";
          this.fail(
            `expected a name after "." at position ${this.pos} in ${quoteSource(source, this.pos)}${hint}`,
            this.pos,
          );
        }
        this.checkReadable(key, start);
        segments.push({ kind: 'key', key });
        spans.segments.push({ start, end: this.pos, quote: '' });
      } else if (code === 91 /* [ */) {
        const bracket = this.pos;
        this.pos += 1;
        this.skipSpaces();
        const start = this.pos;
        const next = source.charCodeAt(this.pos);
        if (next === 39 || next === 34) {
          const key = this.readString();
          this.checkReadable(key, start);
          segments.push({ kind: 'key', key });
          spans.segments.push({ start, end: this.pos, quote: next === 39 ? "'" : '"' });
        } else if (isDigit(next)) {
          while (isDigit(source.charCodeAt(this.pos))) this.pos += 1;
          const digits = source.slice(start, this.pos);
          if (digits.length > 1 && digits.startsWith('0')) {
            this.fail(
              `index ${digits} at position ${start} in ${quoteSource(source, start)} has a leading zero: write ${Number(digits)}`,
              start,
            );
          }
          const index = Number(digits);
          if (!Number.isSafeInteger(index)) {
            this.fail(`index ${digits} at position ${start} in ${quoteSource(source, start)} is too large`, start);
          }
          segments.push({ kind: 'index', index });
          spans.segments.push({ start, end: this.pos, quote: '' });
        } else {
          this.fail(
            `expected an index or a quoted key after "[" at position ${this.pos} in ${quoteSource(source, this.pos)}: write [0] or ['key']`,
            this.pos,
          );
        }
        this.skipSpaces();
        if (source.charCodeAt(this.pos) !== 93 /* ] */) {
          this.fail(
            `expected "]" at position ${this.pos} to close the "[" at position ${bracket} in ${quoteSource(source, this.pos)}`,
            this.pos,
          );
        }
        this.pos += 1;
      } else {
        return;
      }
    }
  }

  private readIdentifier(): string | undefined {
    const { source } = this;
    const start = this.pos;
    if (!isIdentifierStart(source.charCodeAt(start))) return undefined;
    let end = start + 1;
    while (isIdentifierPart(source.charCodeAt(end))) end += 1;
    this.pos = end;
    return source.slice(start, end);
  }

  /** A single- or double-quoted string; `\\`, `\'` and `\"` are the only escapes. */
  private readString(): string {
    const { source } = this;
    const start = this.pos;
    const quote = source.charCodeAt(start);
    let value = '';
    let chunkStart = start + 1;
    let i = chunkStart;
    for (;;) {
      if (i >= source.length) {
        this.fail(
          `unterminated string starting at position ${start} in ${quoteSource(source, start)}: add the closing ${source[start]}`,
          start,
        );
      }
      const code = source.charCodeAt(i);
      if (code === quote) break;
      if (code === 92 /* \ */) {
        const escaped = source[i + 1];
        if (escaped !== '\\' && escaped !== "'" && escaped !== '"') {
          this.fail(
            `unsupported escape "\\${escaped ?? ''}" at position ${i} in ${quoteSource(source, i)}: only \\\\, \\' and \\" are allowed in quoted keys and strings`,
            i,
          );
        }
        value += source.slice(chunkStart, i) + escaped;
        i += 2;
        chunkStart = i;
        continue;
      }
      i += 1;
    }
    value += source.slice(chunkStart, i);
    this.pos = i + 1;
    return value;
  }

  /** The default after `??`: a JSON-like literal, never an expression. */
  private readLiteral(): unknown {
    const { source } = this;
    const start = this.pos;
    const code = source.charCodeAt(start);
    if (code === 39 || code === 34) return this.readString();
    const number = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(source.slice(start, start + 64));
    if (number) {
      this.pos += number[0].length;
      if (isIdentifierPart(source.charCodeAt(this.pos))) this.failLiteral(start);
      return Number(number[0]);
    }
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (source.startsWith(word, start) && !isIdentifierPart(source.charCodeAt(start + word.length))) {
        this.pos += word.length;
        return value;
      }
    }
    return this.failLiteral(start);
  }

  private failLiteral(position: number): never {
    return this.fail(
      `expected a default value after "??" at position ${position} in ${quoteSource(this.source, position)}: use a quoted string, a number, true, false or null`,
      position,
    );
  }

  private checkReadable(name: string, position: number): void {
    if (UNREADABLE_KEYS.has(name)) {
      this.fail(
        `"${name}" at position ${position} in ${quoteSource(this.source, position)} cannot be read: expressions read data, not prototypes`,
        position,
      );
    }
  }

  private skipSpaces(): void {
    while (isSpace(this.source.charCodeAt(this.pos))) this.pos += 1;
  }

  private fail(message: string, position: number): never {
    throw new SvcError('EXPRESSION_SYNTAX', message, { details: { source: this.source, position } });
  }
}
