/**
 * `npm start`: starts the demo API, runs the example order flow on the embedded store through
 * the `svc` command line, and prints its trace.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startDemoApi } from './demo-api/server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const flow = process.argv[2] ?? 'examples/flows/order-lifecycle.yaml';

const api = await startDemoApi({ port: 0 });
process.stdout.write(`demo API on ${api.url}\n$ svc run flow ${flow} --env baseUrl=${api.url}\n\n`);
const child = spawn(
  process.execPath,
  ['packages/gateway/dist/cli/main.js', 'run', 'flow', flow, '--env', `baseUrl=${api.url}`],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
const code = await new Promise<number>((resolve) => child.on('close', (exitCode) => resolve(exitCode ?? 1)));
await api.close();
process.exitCode = code;
