import { parseArgs } from 'node:util';
import { startDemoApi } from './server.js';

/** Runs the demo API on its own: `node examples/dist/demo-api/main.js --port 4010`. */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write(`--port must be a port number, got ${values.port}\n`);
  process.exit(2);
}

const api = await startDemoApi({ port, host: values.host, recordRequests: false });
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
