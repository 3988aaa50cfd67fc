import { isIPv4, isIPv6 } from 'node:net';

/**
 * An IP address as 16 bytes. IPv4 addresses are held in their IPv4-mapped IPv6 form
 * (`::ffff:a.b.c.d`), so one prefix comparison covers both families and `::ffff:127.0.0.1`
 * is the same address as `127.0.0.1`.
 */
export type IpBytes = Uint8Array;

/** An address range: the first `prefix` bits of `bytes`. */
export interface IpRange {
  readonly bytes: IpBytes;
  /** Bits, counted on the 128-bit form (an IPv4 `/8` is 104 here). */
  readonly prefix: number;
}

const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

function fromIpv4(text: string): IpBytes {
  const bytes = new Uint8Array(16);
  bytes.set(MAPPED_PREFIX);
  text.split('.').forEach((part, index) => {
    bytes[12 + index] = Number(part);
  });
  return bytes;
}

function fromIpv6(text: string): IpBytes {
  const groups: number[] = [];
  const [head = '', tail] = text.split('::');
  const parse = (part: string): number[] => {
    if (part === '') return [];
    const out: number[] = [];
    for (const group of part.split(':')) {
      if (group.includes('.')) {
        const v4 = fromIpv4(group);
        out.push((v4[12]! << 8) | v4[13]!, (v4[14]! << 8) | v4[15]!);
      } else out.push(parseInt(group, 16));
    }
    return out;
  };
  const first = parse(head);
  const last = tail === undefined ? [] : parse(tail);
  groups.push(...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last);
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  });
  return bytes;
}

/**
 * IPv4 addresses carried inside IPv6 ones reach the IPv4 host: NAT64 (`64:ff9b::/96`), 6to4
 * (`2002::/16`) and the deprecated IPv4-compatible form (`::a.b.c.d`). They are answered as the
 * IPv4-mapped address they stand for, so a policy on `127.0.0.0/8` also holds for
 * `64:ff9b::7f00:1`.
 */
function unwrapEmbeddedIpv4(bytes: IpBytes): IpBytes {
  const mapped = (a: number, b: number, c: number, d: number): IpBytes => {
    const out = new Uint8Array(16);
    out.set(MAPPED_PREFIX);
    out.set([a, b, c, d], 12);
    return out;
  };
  const zeroUpTo = (end: number) => bytes.subarray(0, end).every((byte) => byte === 0);
  if (
    bytes[0] === 0x00 &&
    bytes[1] === 0x64 &&
    bytes[2] === 0xff &&
    bytes[3] === 0x9b &&
    bytes.subarray(4, 12).every((byte) => byte === 0)
  ) {
    return mapped(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!);
  }
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return mapped(bytes[2]!, bytes[3]!, bytes[4]!, bytes[5]!);
  // `::` and `::1` are IPv6's own unspecified and loopback addresses, not IPv4-compatible ones.
  if (zeroUpTo(12) && !zeroUpTo(15)) return mapped(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!);
  return bytes;
}

/**
 * Parses an address in the canonical text forms Node and the URL parser produce: dotted-quad
 * IPv4, or IPv6 (brackets and a zone id allowed). Anything else — a host name, `127.1` — is
 * undefined: such forms are first normalised by the WHATWG URL parser (see `normaliseHost`).
 * @example
 * parseIp('::ffff:7f00:1'); // the same bytes as parseIp('127.0.0.1')
 */
export function parseIp(text: string): IpBytes | undefined {
  let bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = bare.indexOf('%');
  if (zone >= 0) bare = bare.slice(0, zone);
  if (isIPv4(bare)) return fromIpv4(bare);
  if (isIPv6(bare)) return unwrapEmbeddedIpv4(fromIpv6(bare));
  return undefined;
}

/**
 * A range from `address/bits` (`10.0.0.0/8`, `fc00::/7`), or a single address.
 * @example
 * inRange(parseIp('10.1.2.3')!, parseRange('10.0.0.0/8')!); // true
 */
export function parseRange(text: string): IpRange | undefined {
  const slash = text.indexOf('/');
  const addressText = slash < 0 ? text : text.slice(0, slash);
  const bytes = parseIp(addressText);
  if (bytes === undefined) return undefined;
  const v4 = isIPv4(addressText);
  const max = v4 ? 32 : 128;
  if (slash < 0) return { bytes, prefix: 128 };
  const bitsText = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bitsText) || Number(bitsText) > max) return undefined;
  return { bytes, prefix: Number(bitsText) + (v4 ? 96 : 0) };
}

/** Whether `address` lies in `range`. */
export function inRange(address: IpBytes, range: IpRange): boolean {
  const whole = Math.floor(range.prefix / 8);
  for (let index = 0; index < whole; index += 1) if (address[index] !== range.bytes[index]) return false;
  const rest = range.prefix % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (address[whole]! & mask) === (range.bytes[whole]! & mask);
}

/** Whether two parsed addresses are the same. */
export function sameIp(a: IpBytes, b: IpBytes): boolean {
  return a.every((byte, index) => byte === b[index]);
}
