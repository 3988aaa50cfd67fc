/**
 * The webhook-trigger section of `npm run bench` alone (`node examples/dist/bench/trigger-alone.js`),
 * for iterating on the trigger path: `BENCH_TRIGGER_SECONDS` sets the window, and
 * `BENCH_SERVE_NODE_ARGS='--cpu-prof --cpu-prof-dir=prof'` profiles `svc serve`.
 */
import { loadavg } from 'node:os';
import { startDemoServerProcess } from './demo-server-process.js';
import { benchWebhookTrigger, formatWebhookTriggerBench } from './webhook-trigger-bench.js';

const seconds = Number(process.env.BENCH_TRIGGER_SECONDS ?? 20);
const demo = await startDemoServerProcess();
try {
  process.stdout.write(`webhook-triggered executions, ${seconds} s, load average ${loadavg()[0]!.toFixed(1)}\n`);
  const result = await benchWebhookTrigger({
    demoUrl: demo.url,
    seconds,
    senders: 10,
    warmupSeconds: 2,
    drainTimeoutSeconds: 120,
  });
  process.stdout.write(`${formatWebhookTriggerBench(result)}\n`);
} finally {
  demo.stop();
}
