// A small round-robin HTTP proxy for several `svc serve` processes: each request goes to the next
// upstream; one that refuses the connection (a process down) is skipped and the request goes to
// the next. Enough to try scale-out on one machine; in production, use your load balancer.
//
//   UPSTREAMS=127.0.0.1:8081,127.0.0.1:8082 PORT=8080 node proxy.mjs
import { Buffer } from 'node:buffer';
import { createServer, request as forward } from 'node:http';

const upstreams = (process.env.UPSTREAMS ?? '')
  .split(',')
  .map((entry) => entry.trim())
  .filter(Boolean)
  .map((entry) => {
    const [host, port] = entry.split(':');
    return { host, port: Number(port) };
  });
if (upstreams.length === 0 || upstreams.some((upstream) => !upstream.host || !(upstream.port > 0))) {
  console.error('proxy: set UPSTREAMS to host:port,host:port,…');
  process.exit(2);
}
const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
/** Bodies are held so that a request refused by one process can go to the next. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;
let next = 0;

function send(incoming, body, outgoing, tried) {
  const upstream = upstreams[(next = (next + 1) % upstreams.length)];
  const proxied = forward(
    {
      host: upstream.host,
      port: upstream.port,
      method: incoming.method,
      path: incoming.url,
      headers: incoming.headers,
    },
    (response) => {
      outgoing.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(outgoing);
    },
  );
  proxied.on('error', (error) => {
    // Nothing was answered yet: another process can take the request.
    if (!outgoing.headersSent && error.code === 'ECONNREFUSED' && tried + 1 < upstreams.length) {
      send(incoming, body, outgoing, tried + 1);
      return;
    }
    if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'application/json' });
    outgoing.end(JSON.stringify({ success: false, error: { code: 'BAD_GATEWAY', message: String(error.message) } }));
  });
  proxied.end(body);
}

const proxy = createServer((incoming, outgoing) => {
  const chunks = [];
  let size = 0;
  incoming.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      outgoing.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
      outgoing.end(JSON.stringify({ success: false, error: { code: 'PAYLOAD_TOO_LARGE', message: 'body too large' } }));
      incoming.destroy();
      return;
    }
    chunks.push(chunk);
  });
  incoming.on('end', () => send(incoming, Buffer.concat(chunks), outgoing, 0));
});
proxy.listen(port, host, () => {
  const listening = `http://${host}:${proxy.address().port}`;
  console.error(`proxy: ${listening} -> ${upstreams.map((u) => `${u.host}:${u.port}`).join(', ')}`);
});
