import { createServer, type Server } from 'node:http';
import type { LookupAddress } from 'node:dns';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcError } from '../errors.js';
import { createEgressPolicy, parseEgressRules, type EgressPolicy } from './egress-policy.js';
import { createUndiciHttpClient } from './undici-http-client.js';

let server: Server;
let port: number;
let received = 0;

beforeAll(async () => {
  // Listens on every loopback spelling: 127.0.0.1, ::1 and ::ffff:127.0.0.1.
  server = createServer((_request, response) => {
    received += 1;
    response.end('reached');
  });
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function send(
  url: string,
  egress: EgressPolicy,
  lookup?: typeof import('node:dns').lookup,
): Promise<{ status?: number; error?: SvcError }> {
  const client = createUndiciHttpClient({ egress, ...(lookup === undefined ? {} : { lookup }) });
  try {
    const response = await client.send({ method: 'GET', url, headers: {}, timeoutMs: 5_000 });
    return { status: response.status };
  } catch (error) {
    expect(error).toBeInstanceOf(SvcError);
    return { error: error as SvcError };
  } finally {
    await client.close();
  }
}

/** A resolver that answers `address` for every name, as a rebinding DNS server would. */
function resolvingTo(address: string, family: 4 | 6 = 4): typeof import('node:dns').lookup {
  return ((
    _hostname: string,
    options: { all?: boolean },
    callback: (error: null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as typeof import('node:dns').lookup;
}

describe('the egress policy in the connect step', () => {
  const service = createEgressPolicy({ mode: 'service' });

  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0.0.0.0', '0.0.0.0'],
    ['[::1]', '::1'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['[0:0:0:0:0:0:0:1]', '::1'],
  ])('refuses http://%s under service before connecting, naming the address and the rule', async (host, shown) => {
    const before = received;
    const { error } = await send(`http://${host}:${port}/secret`, service);
    expect(error?.code).toBe('EGRESS_DENIED');
    expect(error?.retryable).toBe(false);
    expect(error?.message).toContain(shown);
    expect(error?.message).toMatch(/(loopback|unspecified) address .* is refused under svc serve/);
    expect(received).toBe(before);
  });

  it('refuses the metadata address in every mode', async () => {
    const { error } = await send('http://169.254.169.254/latest/meta-data/', createEgressPolicy({ mode: 'local' }));
    expect(error?.code).toBe('EGRESS_DENIED');
    expect(error?.message).toContain('a cloud metadata address (169.254.169.254/32) is always refused');
  });

  it('checks the address a name resolves to: localhost and a rebinding name are refused', async () => {
    const before = received;
    const viaLocalhost = await send(`http://localhost:${port}/`, service);
    expect(viaLocalhost.error?.code).toBe('EGRESS_DENIED');
    expect(viaLocalhost.error?.message).toMatch(/localhost \((127\.0\.0\.1|::1)\)/);
    const rebinding = await send(`http://rebind.example.test:${port}/`, service, resolvingTo('127.0.0.1'));
    expect(rebinding.error?.code).toBe('EGRESS_DENIED');
    expect(rebinding.error?.message).toContain('rebind.example.test (127.0.0.1)');
    const metadata = await send(
      'http://metadata.example.test/',
      createEgressPolicy({ mode: 'local' }),
      resolvingTo('169.254.169.254'),
    );
    expect(metadata.error?.code).toBe('EGRESS_DENIED');
    expect(received).toBe(before);
  });

  it('connects only to the allowed addresses among those a name resolves to', async () => {
    const both = ((_hostname: string, _options: unknown, callback: (error: null, addresses: LookupAddress[]) => void) =>
      callback(null, [
        { address: '169.254.169.254', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ])) as unknown as typeof import('node:dns').lookup;
    const { status } = await send(`http://mixed.example.test:${port}/`, createEgressPolicy({ mode: 'local' }), both);
    expect(status).toBe(200);
  });

  it('lets an allow rule through, by address and port or by host name, and a deny rule refuses locally', async () => {
    const allowPort = createEgressPolicy({
      mode: 'service',
      allow: parseEgressRules(`127.0.0.1:${port}`, 'SVC_EGRESS_ALLOW'),
    });
    expect((await send(`http://127.0.0.1:${port}/`, allowPort)).status).toBe(200);
    expect((await send(`http://127.1:${port}/`, allowPort)).status).toBe(200);
    expect((await send(`http://[::1]:${port}/`, allowPort)).error?.code).toBe('EGRESS_DENIED');
    const allowName = createEgressPolicy({
      mode: 'service',
      allow: parseEgressRules('api.internal', 'SVC_EGRESS_ALLOW'),
    });
    expect((await send(`http://api.internal:${port}/`, allowName, resolvingTo('127.0.0.1'))).status).toBe(200);
    const local = createEgressPolicy({ mode: 'local' });
    expect((await send(`http://127.0.0.1:${port}/`, local)).status).toBe(200);
    expect((await send(`http://[::1]:${port}/`, local)).status).toBe(200);
    const denied = createEgressPolicy({ mode: 'local', deny: parseEgressRules(`localhost,[::1]`, 'SVC_EGRESS_DENY') });
    const byName = await send(`http://localhost:${port}/`, denied);
    expect(byName.error?.message).toContain('SVC_EGRESS_DENY entry "localhost" refuses it');
    expect((await send(`http://[::1]:${port}/`, denied)).error?.message).toContain(
      'SVC_EGRESS_DENY entry "[::1]" refuses it',
    );
  });

  it('does not follow a redirect to a refused address: the response is answered as it came', async () => {
    const redirecting = createServer((_request, response) => {
      response.writeHead(302, { location: 'http://169.254.169.254/' }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const { port: redirectPort } = redirecting.address() as AddressInfo;
      const { status } = await send(`http://127.0.0.1:${redirectPort}/`, createEgressPolicy({ mode: 'local' }));
      expect(status).toBe(302);
    } finally {
      await new Promise((resolve) => redirecting.close(resolve));
    }
  });
});
