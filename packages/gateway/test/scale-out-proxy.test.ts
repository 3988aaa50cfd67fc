import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PROXY = fileURLToPath(new URL('../../../examples/scale-out/proxy.mjs', import.meta.url));

/** The round-robin proxy of examples/scale-out, in front of two live upstreams and a dead one. */
describe('examples/scale-out proxy', () => {
  const upstreams: Server[] = [];
  let proxyUrl: string;
  let stopProxy: () => void;

  beforeAll(async () => {
    for (const name of ['a', 'b']) {
      const server = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => response.end(JSON.stringify({ name, method: request.method, url: request.url, body })));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      upstreams.push(server);
    }
    // A port nothing listens on: a process that is down.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const ports = upstreams.map((server) => (server.address() as AddressInfo).port);
    const child = spawn(process.execPath, [PROXY], {
      env: {
        PATH: process.env.PATH ?? '',
        UPSTREAMS: `127.0.0.1:${ports[0]},127.0.0.1:${deadPort},127.0.0.1:${ports[1]}`,
        PORT: '0',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    stopProxy = () => child.kill('SIGTERM');
    proxyUrl = await new Promise<string>((resolve, reject) => {
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /proxy: (http:\/\/\S+)/.exec(stderr);
        if (match) resolve(match[1]!);
      });
      child.on('exit', (code) => reject(new Error(`proxy exited ${code}: ${stderr}`)));
    });
  });
  afterAll(async () => {
    stopProxy?.();
    for (const server of upstreams) await new Promise((resolve) => server.close(resolve));
  });

  it('spreads requests over the live upstreams, passes bodies through, and skips one that is down', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await fetch(`${proxyUrl}/api/x?i=${i}`, { method: 'POST', body: `body-${i}` });
      expect(response.status).toBe(200);
      const answer = (await response.json()) as { name: string; url: string; body: string };
      expect(answer).toMatchObject({ url: `/api/x?i=${i}`, body: `body-${i}` });
      seen.push(answer.name);
    }
    expect(new Set(seen)).toEqual(new Set(['a', 'b']));
  });
});
