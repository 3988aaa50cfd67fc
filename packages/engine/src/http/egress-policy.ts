import { SvcError } from '../errors.js';
import { inRange, parseIp, parseRange, sameIp, type IpBytes, type IpRange } from './ip-address.js';

/**
 * Where a process's flows may send requests.
 * - `service` (`svc serve`): tenants' flows must not reach the service's own host or its
 *   network, so loopback, unspecified, private, shared (CGNAT) and reserved addresses are
 *   refused unless an allow rule names them.
 * - `local` (`svc run`, local `svc-mcp`): a developer's tool whose point is testing what runs
 *   on the same machine or network; those addresses are allowed.
 * In both, link-local and cloud metadata addresses are always refused.
 */
export type EgressMode = 'service' | 'local';

/** One entry of `SVC_EGRESS_ALLOW` / `SVC_EGRESS_DENY`, parsed. */
export interface EgressRule {
  /** The entry as written, for messages. */
  readonly entry: string;
  /** The variable (or other source) it came from, for messages. */
  readonly source: string;
  /** A host name, lower case; with `*.` in front, any name under that domain. */
  readonly host?: string;
  /** An address range (a single IP is a /32 or /128). */
  readonly range?: IpRange;
  /** Only this port; any port when absent. */
  readonly port?: number;
}

/** What a connection is about to reach: the URL's host, its port, and the resolved address. */
export interface EgressTarget {
  /** The host as the URL names it (a name or an address). */
  host: string;
  port: number;
  /** The address the socket would connect to. */
  address: string;
}

export type EgressVerdict = { allowed: true } | { allowed: false; reason: string };

export interface EgressPolicy {
  readonly mode: EgressMode;
  /** Decides for one resolved address. */
  check(target: EgressTarget): EgressVerdict;
  /** Decides on the host name alone, before any lookup: only deny rules naming hosts can refuse here. */
  checkHost(host: string, port: number): EgressVerdict;
}

export interface EgressPolicyOptions {
  mode: EgressMode;
  /** Rules that let a request through what the mode refuses (never link-local or metadata). */
  allow?: readonly EgressRule[];
  /** Rules that refuse more; a deny rule wins over an allow rule. */
  deny?: readonly EgressRule[];
}

interface NamedRange {
  name: string;
  range: IpRange;
}

function ranges(name: string, ...texts: string[]): NamedRange[] {
  return texts.map((text) => ({ name: `${name} (${text})`, range: parseRange(text)! }));
}

/** Refused in every mode, whatever the rules say: the cloud's keys live behind these. */
const ALWAYS_REFUSED: NamedRange[] = [
  ...ranges(
    'a cloud metadata address',
    '169.254.169.254/32',
    '169.254.170.2/32',
    'fd00:ec2::254/128',
    '100.100.100.200/32',
    '168.63.129.16/32',
  ),
  ...ranges('a link-local address', '169.254.0.0/16', 'fe80::/10'),
];

/** Refused under `svc serve` unless an allow rule names them: the service's own host and network. */
const SERVICE_REFUSED: NamedRange[] = [
  ...ranges('a loopback address', '127.0.0.0/8', '::1/128'),
  ...ranges('an unspecified address', '0.0.0.0/8', '::/128'),
  ...ranges('a private address', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7', 'fec0::/10'),
  ...ranges('a shared (CGNAT) address', '100.64.0.0/10'),
  ...ranges('a reserved address', '192.0.0.0/24', '198.18.0.0/15', '240.0.0.0/4'),
  ...ranges('a multicast address', '224.0.0.0/4', 'ff00::/8'),
];

/**
 * Parses one entry (already trimmed): `host`, `host:port`, `*.domain`, `IP`, `IP:port`,
 * `[IPv6]:port`, or a CIDR range. Answers undefined when it is none of them.
 */
function parseEntry(entry: string): Omit<EgressRule, 'entry' | 'source'> | undefined {
  if (entry.includes('/')) {
    const range = parseRange(entry.replace(/^\[([^\]]*)\]/, '$1'));
    return range === undefined ? undefined : { range };
  }
  let hostText = entry;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed !== null) {
    hostText = bracketed[1]!;
    portText = bracketed[2];
  } else if (entry.split(':').length === 2) {
    [hostText, portText] = entry.split(':') as [string, string];
  }
  let port: number | undefined;
  if (portText !== undefined) {
    if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) return undefined;
    port = Number(portText);
  }
  const portPart = port === undefined ? {} : { port };
  const address = parseIp(hostText);
  if (address !== undefined) return { range: { bytes: address, prefix: 128 }, ...portPart };
  const wildcard = hostText.startsWith('*.');
  const name = normaliseHost(wildcard ? hostText.slice(2) : hostText);
  if (name === undefined) return undefined;
  // The URL parser turns IPv4 spellings (`127.1`, `0x7f.1`, `2130706433`) into dotted quads.
  const normalisedAddress = wildcard ? undefined : parseIp(name);
  if (normalisedAddress !== undefined) return { range: { bytes: normalisedAddress, prefix: 128 }, ...portPart };
  if (name.startsWith('[')) return undefined;
  return { host: wildcard ? `*.${name}` : name, ...portPart };
}

/**
 * The host as the WHATWG URL parser normalises it (lower case, IPv4 spellings as dotted quads,
 * IPv6 compressed in brackets); undefined when it is not a bare host.
 */
export function normaliseHost(text: string): string | undefined {
  if (text === '' || /[\s/?#@\\]/.test(text)) return undefined;
  try {
    const url = new URL(`http://${text}/`);
    return url.port === '' && url.username === '' ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Parses the text of `SVC_EGRESS_ALLOW` or `SVC_EGRESS_DENY`: entries separated by commas (or
 * white space), each a host (`api.internal`, `*.internal`), `host:port`, an IP (any spelling the
 * URL parser accepts: `127.1` is `127.0.0.1`), `IP:port`, `[IPv6]:port`, or a CIDR range
 * (`10.0.0.0/8`, `fc00::/7`). Empty or unset text is no rule.
 * @throws SvcError `CONFIG_ERROR` naming the variable and the entry it could not read.
 * @example
 * const allow = parseEgressRules(process.env.SVC_EGRESS_ALLOW, 'SVC_EGRESS_ALLOW');
 * // '127.0.0.1:4010,10.0.0.0/8,api.internal' → three rules
 */
export function parseEgressRules(text: string | undefined, variableName: string): EgressRule[] {
  if (text === undefined) return [];
  const rules: EgressRule[] = [];
  for (const entry of text.split(/[,\s]+/)) {
    if (entry === '') continue;
    const parsed = parseEntry(entry);
    if (parsed === undefined) {
      const problem = `entry "${entry}" is not a host, host:port, IP address, IP:port or CIDR range (e.g. 127.0.0.1:4010,10.0.0.0/8,api.internal)`;
      throw new SvcError('CONFIG_ERROR', `${variableName} ${problem}`, {
        details: { variable: variableName, entry, problem },
      });
    }
    rules.push({ entry, source: variableName, ...parsed });
  }
  return rules;
}

function hostMatches(ruleHost: string, host: string): boolean {
  const name = host.toLowerCase();
  if (ruleHost.startsWith('*.')) return name.endsWith(ruleHost.slice(1));
  return name === ruleHost;
}

function ruleMatches(rule: EgressRule, host: string, port: number, address: IpBytes | undefined): boolean {
  if (rule.port !== undefined && rule.port !== port) return false;
  if (rule.host !== undefined) return hostMatches(rule.host, host);
  if (rule.range === undefined || address === undefined) return false;
  return rule.range.prefix === 128 ? sameIp(rule.range.bytes, address) : inRange(address, rule.range);
}

function named(list: readonly NamedRange[], address: IpBytes): string | undefined {
  return list.find((each) => inRange(address, each.range))?.name;
}

/**
 * The egress policy a process gives its HTTP client. Decisions, in order: link-local and cloud
 * metadata addresses are refused (no rule allows them); a deny rule refuses; an allow rule lets
 * through; under `service`, loopback, unspecified, private, shared and reserved addresses are
 * refused; anything else goes.
 * @example
 * const policy = createEgressPolicy({ mode: 'service', allow: parseEgressRules('127.0.0.1:4010', 'SVC_EGRESS_ALLOW') });
 * policy.check({ host: 'localhost', port: 4010, address: '127.0.0.1' }); // { allowed: true }
 * policy.check({ host: 'localhost', port: 22, address: '127.0.0.1' });   // refused: a loopback address
 */
export function createEgressPolicy(options: EgressPolicyOptions): EgressPolicy {
  const allow = options.allow ?? [];
  const deny = options.deny ?? [];
  const { mode } = options;
  const hint = (port: number, address: string) => {
    const shown = address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
    return `; an operator may allow it with SVC_EGRESS_ALLOW=${shown}`;
  };
  return {
    mode,
    check({ host, port, address }) {
      const bytes = parseIp(address);
      if (bytes === undefined) return { allowed: false, reason: `"${address}" is not an IP address` };
      const always = named(ALWAYS_REFUSED, bytes);
      if (always !== undefined) return { allowed: false, reason: `${always} is always refused` };
      const denied = deny.find((rule) => ruleMatches(rule, host, port, bytes));
      if (denied !== undefined)
        return { allowed: false, reason: `${denied.source} entry "${denied.entry}" refuses it` };
      if (allow.some((rule) => ruleMatches(rule, host, port, bytes))) return { allowed: true };
      if (mode === 'service') {
        const refused = named(SERVICE_REFUSED, bytes);
        if (refused !== undefined)
          return { allowed: false, reason: `${refused} is refused under svc serve${hint(port, address)}` };
      }
      return { allowed: true };
    },
    checkHost(host, port) {
      const denied = deny.find((rule) => rule.host !== undefined && ruleMatches(rule, host, port, undefined));
      if (denied !== undefined)
        return { allowed: false, reason: `${denied.source} entry "${denied.entry}" refuses it` };
      return { allowed: true };
    },
  };
}

/**
 * The policy of a configuration's `SVC_EGRESS_ALLOW` and `SVC_EGRESS_DENY` rules, for the
 * `service` (svc serve) or `local` (svc run, local svc-mcp) mode.
 */
export function egressPolicyOf(
  config: { egressAllow: EgressRule[]; egressDeny: EgressRule[] },
  mode: EgressMode,
): EgressPolicy {
  return createEgressPolicy({ mode, allow: config.egressAllow, deny: config.egressDeny });
}

/**
 * The error a refused connection fails with: not retryable (the same policy refuses again).
 */
export function egressDenied(target: EgressTarget, reason: string): SvcError {
  const where =
    target.host === target.address || `[${target.address}]` === target.host
      ? target.host
      : `${target.host} (${target.address})`;
  return new SvcError('EGRESS_DENIED', `egress to ${where} port ${target.port} refused: ${reason}`);
}
