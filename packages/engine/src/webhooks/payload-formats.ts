import type { Format, FormatDefinition } from 'ajv';
import { loadFormats } from './lazy-libraries.js';
import { compileLinearRegExp } from './linear-regexp.js';

/**
 * Longest string a `format` is checked on; a longer one does not have the format. Dates, e-mail
 * addresses, URIs and ids are far shorter, and the bound keeps any regular expression inside a
 * format check (ajv-formats writes some as functions over native RegExps) to a bounded cost
 * whatever a sender puts in the body.
 */
export const MAX_FORMAT_INPUT_LENGTH = 4096;

type StringCheck = (text: string) => boolean;

function bounded(check: StringCheck): StringCheck {
  return (text) => text.length <= MAX_FORMAT_INPUT_LENGTH && check(text);
}

/** A format's regular expression on the linear-time engine when it fits RE2, else bounded native. */
function fromRegExp(regexp: RegExp): StringCheck {
  if (/^[iu]*$/.test(regexp.flags)) {
    try {
      const linear = compileLinearRegExp(regexp.source, { ignoreCase: regexp.flags.includes('i') });
      return bounded((text) => linear.test(text));
    } catch {
      // Uses lookahead or the like: the length bound alone keeps it cheap.
    }
  }
  return bounded((text) => regexp.test(text));
}

function safeFormat(format: Format): Format {
  if (format === true) return true;
  if (typeof format === 'string') return fromRegExp(new RegExp(format, 'u'));
  if (format instanceof RegExp) return fromRegExp(format);
  if (typeof format === 'function') return bounded(format as StringCheck);
  const definition = format as FormatDefinition<string> | FormatDefinition<number>;
  if (definition.type === 'number') return definition;
  const validate = (definition as FormatDefinition<string>).validate;
  if (definition.async) return definition;
  return {
    ...(definition as FormatDefinition<string>),
    validate:
      validate instanceof RegExp
        ? fromRegExp(validate)
        : typeof validate === 'string'
          ? fromRegExp(new RegExp(validate, 'u'))
          : bounded(validate as StringCheck),
  } as FormatDefinition<string>;
}

let formats: Readonly<Record<string, Format>> | undefined;

/**
 * The formats a payload schema may name (`date-time`, `email`, `uri`, `uuid`, `ipv4` … as
 * ajv-formats defines them in full mode), each made safe for text from anyone: regular
 * expressions run on the linear-time engine where they fit it, and every check is refused past
 * `MAX_FORMAT_INPUT_LENGTH` characters. Made on first use: compiling them takes longer than a
 * short command that has no payload schema spends on anything else (`svc run` loads this module).
 */
export function payloadFormats(): Readonly<Record<string, Format>> {
  formats ??= Object.freeze(
    Object.fromEntries(Object.entries(loadFormats().fullFormats).map(([name, format]) => [name, safeFormat(format)])),
  );
  return formats;
}
