import type { Binding, BoundWrite } from './execution-writes.js';

/*
 * A record of the execution log is one bound write (execution-writes.ts) as text:
 *
 *   <epoch>;<kind>;<shape>;<types and lengths>;<values, one after another>
 *
 * where each value is declared as `s<length>` (a string), `n<length>` (a number, in decimal) or
 * `z` (null), comma-separated. Values are not escaped: a record is cut apart by those lengths, so
 * writing it costs no more than concatenating its strings, and reading it no more than slicing
 * them. The log's epoch is inside as well as in the record's header, and the declared lengths
 * must add up to exactly what follows: a record that lost its payload (a power cut between pages)
 * and shows an older one's instead does not pass for a write of this epoch.
 */

const KINDS: ReadonlySet<string> = new Set<BoundWrite['kind']>(['create', 'update', 'step']);

export function encodeRecord(write: BoundWrite, epoch: number): string {
  let types = '';
  let payload = '';
  for (const value of write.values) {
    if (value === null) {
      types += 'z,';
    } else if (typeof value === 'number') {
      const text = String(value);
      types += `n${text.length},`;
      payload += text;
    } else {
      types += `s${value.length},`;
      payload += value;
    }
  }
  return `${epoch};${write.kind};${write.shape};${types};${payload}`;
}

/** The write a record holds; undefined when it is not one of `epoch` (torn, or not ours). */
export function decodeRecord(text: string, epoch: number): BoundWrite | undefined {
  const kindAt = text.indexOf(';') + 1;
  const shapeAt = text.indexOf(';', kindAt) + 1;
  const typesAt = text.indexOf(';', shapeAt) + 1;
  const payloadAt = text.indexOf(';', typesAt) + 1;
  if (kindAt === 0 || shapeAt === 0 || typesAt === 0 || payloadAt === 0) return undefined;
  if (text.slice(0, kindAt - 1) !== String(epoch)) return undefined;
  const kind = text.slice(kindAt, shapeAt - 1);
  if (!KINDS.has(kind)) return undefined;
  const values: Binding[] = [];
  let at = payloadAt;
  let type = typesAt;
  while (type < payloadAt - 1) {
    const comma = text.indexOf(',', type);
    if (comma === -1 || comma > payloadAt) return undefined;
    const tag = text[type];
    if (tag === 'z') {
      values.push(null);
    } else {
      const length = Number(text.slice(type + 1, comma));
      if (!Number.isInteger(length) || length < 0 || at + length > text.length) return undefined;
      const value = text.slice(at, at + length);
      at += length;
      if (tag === 's') values.push(value);
      else if (tag === 'n' && value !== '') values.push(Number(value));
      else return undefined;
    }
    type = comma + 1;
  }
  if (at !== text.length) return undefined;
  return { kind: kind as BoundWrite['kind'], shape: text.slice(shapeAt, typesAt - 1), values };
}
