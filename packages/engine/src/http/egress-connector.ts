import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { buildConnector } from 'undici';
import type { SvcError } from '../errors.js';
import { egressDenied, type EgressPolicy, type EgressTarget } from './egress-policy.js';

type Lookup = typeof dnsLookup;

/** Keeps the refusal a lookup answered, so the connect step fails with it rather than as a DNS error. */
class EgressRefusal extends Error {
  readonly code = 'EGRESS_DENIED';
  constructor(readonly refusal: SvcError) {
    super(refusal.message);
  }
}

/**
 * A `lookup` for `net.connect` that resolves as usual, then keeps only the addresses the policy
 * allows. The socket connects to an address from this answer and no other, so a name that
 * resolves (or re-resolves, DNS rebinding) to a refused address never reaches it.
 */
function filteringLookup(policy: EgressPolicy, host: string, port: number, resolve: Lookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...(options as LookupOptions), all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      let refusal: SvcError | undefined;
      const allowed: LookupAddress[] = [];
      for (const each of addresses as LookupAddress[]) {
        const target: EgressTarget = { host, port, address: each.address };
        const verdict = policy.check(target);
        if (verdict.allowed) allowed.push(each);
        else refusal ??= egressDenied(target, verdict.reason);
      }
      if (allowed.length === 0) {
        const denied = new EgressRefusal(
          refusal ?? egressDenied({ host, port, address: hostname }, 'the name resolved to no address'),
        );
        return callback(denied, '', 0);
      }
      if ((options as LookupOptions).all === true)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

/**
 * Undici's connector with the egress policy in its connect step. An IP literal in the URL is
 * checked before any socket is opened; a name is resolved through a lookup that drops refused
 * addresses; and the address the socket did connect to is checked once more before the
 * connection is used. Every connection (first request, reconnect, any redirect a caller
 * follows) passes through here.
 * @example
 * const agent = new Agent({ connect: egressConnector(policy) });
 */
export function egressConnector(
  policy: EgressPolicy,
  options: { resolve?: Lookup; connector?: buildConnector.BuildOptions } = {},
): buildConnector.connector {
  const resolve = options.resolve ?? dnsLookup;
  const connectors = new Map<string, buildConnector.connector>();
  const connectorFor = (host: string, port: number): buildConnector.connector => {
    // One connector per host and port, like one lookup per origin: undici gives the connector
    // its options once, and the lookup needs to know which host it resolves for.
    const key = `${host}\n${port}`;
    let connector = connectors.get(key);
    if (connector === undefined) {
      if (connectors.size > 1_000) connectors.clear();
      connector = buildConnector({
        ...options.connector,
        lookup: filteringLookup(policy, host, port, resolve),
      } as buildConnector.BuildOptions);
      connectors.set(key, connector);
    }
    return connector;
  };

  return (connectOptions, callback) => {
    const { hostname, protocol } = connectOptions;
    const port = Number(connectOptions.port) || (protocol === 'https:' ? 443 : 80);
    const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    const refuse = (error: SvcError) => queueMicrotask(() => callback(error, null));

    const byName = policy.checkHost(host, port);
    if (!byName.allowed) return refuse(egressDenied({ host, port, address: host }, byName.reason));
    if (isIP(host) !== 0) {
      const verdict = policy.check({ host, port, address: host });
      if (!verdict.allowed) return refuse(egressDenied({ host, port, address: host }, verdict.reason));
    }

    connectorFor(host, port)(connectOptions, (error, socket) => {
      if (error !== null) {
        callback(error instanceof EgressRefusal ? error.refusal : error, null);
        return;
      }
      // What the socket reached, whatever resolved it: the last word on where the request goes.
      const address = (socket as Socket).remoteAddress;
      const verdict =
        address === undefined
          ? { allowed: false as const, reason: 'the connected address is unknown' }
          : policy.check({ host, port, address });
      if (!verdict.allowed) {
        socket!.destroy();
        callback(egressDenied({ host, port, address: address ?? host }, verdict.reason), null);
        return;
      }
      callback(null, socket);
    });
  };
}
