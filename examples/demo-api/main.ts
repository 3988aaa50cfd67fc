import { parseArgs } from 'node:util';
import { startDemoApi } from './server.js';

/**
 * Runs the demo API on its own: `node examples/dist/demo-api/main.js --port 4010`
 * (`--latency-ms 2` delays every answer, as a remote API would).
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    'latency-ms': { type: 'string', default: '0' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write(`--port must be a port number, got ${values.port}\n`);
  process.exit(2);
}

const latencyMs = Number(values['latency-ms']);
if (!Number.isFinite(latencyMs) || latencyMs < 0) {
  process.stderr.write(`--latency-ms must be a number of milliseconds >= 0, got ${values['latency-ms']}\n`);
  process.exit(2);
}

const api = await startDemoApi({ port, host: values.host, recordRequests: false, latencyMs });
process.stdout.write(`demo API listening on ${api.url}\n`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  api.close().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
// Started by another Node process with an IPC channel (the benchmark does): stop with it, even
// when it exits without a word.
if (process.send !== undefined) process.on('disconnect', stop);
