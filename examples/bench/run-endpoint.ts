import { Agent, request } from 'undici';
import { measure, median } from './measure.js';
import { startServeProcess } from './serve-process.js';

export interface RunEndpointResult {
  plainRate: number;
  serveRate: number;
}

/**
 * Runs per second of `POST /api/gateway/flows/{id}/run` on a one-step flow (GET /health with a
 * status assertion) against `svc serve`, `concurrency` clients at a time, beside the rate of the
 * same clients calling the demo server's /health directly.
 */
export async function benchRunEndpoint(options: {
  demoUrl: string;
  runs: number;
  concurrency: number;
  rounds: number;
}): Promise<RunEndpointResult> {
  const serve = await startServeProcess();
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: options.concurrency });
  const headers = { 'content-type': 'application/json', 'x-api-key': serve.apiKey };
  try {
    const created = await request(`${serve.url}/api/gateway/flows`, {
      method: 'POST',
      headers,
      dispatcher: agent,
      body: JSON.stringify({
        name: 'bench-health',
        nodes: [
          {
            id: 'h',
            name: 'Health',
            type: 'endpoint',
            config: {
              url: '{{env.baseUrl}}/health',
              assertions: [{ target: 'statusCode', operator: '==', value: 200 }],
            },
          },
        ],
        connections: [],
      }),
    });
    const flow = (await created.body.json()) as { success: boolean; data: { id: string }; error?: unknown };
    if (!flow.success) throw new Error(`creating the benchmark flow failed: ${JSON.stringify(flow.error)}`);
    const runBody = JSON.stringify({ env: { baseUrl: options.demoUrl } });
    const run = async () => {
      const response = await request(`${serve.url}/api/gateway/flows/${flow.data.id}/run`, {
        method: 'POST',
        headers,
        body: runBody,
        dispatcher: agent,
      });
      const answer = (await response.body.json()) as { success: boolean; data?: { status: string }; error?: unknown };
      if (response.statusCode !== 200 || answer.data?.status !== 'Completed') {
        throw new Error(`run answered ${response.statusCode}: ${JSON.stringify(answer.error ?? answer.data)}`);
      }
    };
    const plain = async () => {
      const response = await request(`${options.demoUrl}/health`, { dispatcher: agent });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`/health answered ${response.statusCode}`);
    };
    await measure(100, options.concurrency, run);
    await measure(100, options.concurrency, plain);
    const plainRates: number[] = [];
    const serveRates: number[] = [];
    for (let round = 0; round < options.rounds; round += 1) {
      plainRates.push((await measure(options.runs, options.concurrency, plain)).rate);
      serveRates.push((await measure(options.runs, options.concurrency, run)).rate);
    }
    return { plainRate: median(plainRates), serveRate: median(serveRates) };
  } finally {
    await agent.close();
    await serve.stop();
  }
}
