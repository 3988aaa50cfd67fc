import { jsonTextNestsDeeper } from '../../model/json-depth.js';

/** A body that is not text, kept exact. */
export interface BinaryBody {
  base64: string;
  contentType: string;
}

export type BodyKind = 'json' | 'text' | 'binary';

const TEXT_APPLICATION_TYPES = new Set([
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/javascript',
  'application/ecmascript',
  'application/x-ndjson',
  'application/graphql',
  'application/yaml',
  'application/x-yaml',
]);

/** The media type without parameters, lower-cased: `application/json; charset=utf-8` → `application/json`. */
export function mediaType(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const semicolon = contentType.indexOf(';');
  const type = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return type === '' ? undefined : type;
}

export function bodyKind(contentType: string | undefined): BodyKind | undefined {
  const type = mediaType(contentType);
  if (type === undefined) return undefined;
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type.startsWith('text/') || type.endsWith('+xml') || TEXT_APPLICATION_TYPES.has(type)) return 'text';
  return 'binary';
}

function charsetOf(contentType: string | undefined): string {
  const match = contentType === undefined ? null : /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return match?.[1]?.toLowerCase() ?? 'utf-8';
}

/** A decoder per charset label seen (decoding without `stream` keeps no state between calls). */
const decoders = new Map<string, InstanceType<typeof TextDecoder>>();

function decoderFor(label: string): InstanceType<typeof TextDecoder> {
  let decoder = decoders.get(label);
  if (decoder === undefined) {
    try {
      decoder = new TextDecoder(label);
    } catch {
      // An unknown charset label: UTF-8 is the best guess the web has.
      decoder = new TextDecoder();
    }
    if (decoders.size < 64) decoders.set(label, decoder);
  }
  return decoder;
}

function decodeText(bytes: Uint8Array, contentType: string | undefined): string {
  return decoderFor(charsetOf(contentType)).decode(bytes);
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** Levels of objects and arrays a JSON response body may nest and still be parsed (real APIs use under 20). */
export const MAX_RESPONSE_JSON_DEPTH = 512;

/**
 * The response body as later nodes read it: JSON parsed (invalid JSON, or JSON nested deeper
 * than `MAX_RESPONSE_JSON_DEPTH`, stays text), text decoded
 * with its charset, anything else as base64. An empty body is `null`. Without a content type,
 * valid UTF-8 is taken as text.
 */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined): unknown {
  if (bytes.byteLength === 0) return null;
  const kind = bodyKind(contentType);
  if (kind === 'json') {
    const text = decodeText(bytes, contentType);
    // A body nested past what traces, assertions and the store handle stays text: serialising
    // it again (JSON.stringify recurses) would end the stack.
    if (jsonTextNestsDeeper(text, MAX_RESPONSE_JSON_DEPTH)) return text;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  if (kind === 'text') return decodeText(bytes, contentType);
  if (kind === undefined) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      // not text: fall through to base64
    }
  }
  const binary: BinaryBody = {
    base64: toBase64(bytes),
    contentType: mediaType(contentType) ?? 'application/octet-stream',
  };
  return binary;
}
