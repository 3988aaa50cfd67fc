import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApi, type DemoApi } from '../../../examples/demo-api/server.js';
import { spawnSvc } from './cli.js';

type Json = Record<string, any>;

const demoSpec = fileURLToPath(new URL('../../../examples/demo-api/openapi.yaml', import.meta.url));
const REQUIREMENT = 'create an order for a new customer, then ship it';

/*
 * From a plain-language requirement to a run, all through the built `svc`:
 *   svc catalog import examples/demo-api/openapi.yaml
 *   svc discover "<requirement>" --scaffold --json   → roadmap + flowId
 *   svc run flow <flowId> --env baseUrl=<demo API>    → Completed, ids chained
 */
describe('requirement to a running flow through svc', () => {
  let dir: string;
  let env: Record<string, string>;
  let demo: DemoApi;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-requirement-'));
    env = { SVC_DB: join(dir, 'svc.db') };
    demo = await startDemoApi({ port: 0 });
  });
  afterAll(async () => {
    await demo.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('plans, scaffolds and runs the demo API flow: customer, order for that customer, shipment of that order', async () => {
    const imported = await spawnSvc(['catalog', 'import', demoSpec], env).done;
    expect(imported.code, imported.stderr).toBe(0);

    const discovered = await spawnSvc(['discover', REQUIREMENT, '--scaffold', '--json'], env).done;
    expect(discovered.code, discovered.stderr).toBe(0);
    const roadmap = JSON.parse(discovered.stdout) as Json;
    expect(roadmap.steps.map((step: Json) => `${step.method} ${step.path}`)).toEqual([
      'POST /customers',
      'POST /orders',
      'POST /orders/{orderId}/ship',
    ]);
    expect(roadmap.flowId).toMatch(/^flw_/);

    const ran = await spawnSvc(['run', 'flow', roadmap.flowId, '--env', `baseUrl=${demo.url}`, '--json'], env).done;
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    const execution = JSON.parse(ran.stdout) as Json;
    expect(execution.status).toBe('Completed');
    const [customer, order, shipment] = execution.steps as Json[];
    // The order is for the customer the first step created, and the shipment is of that order.
    expect(order!.request.body).toMatchObject({ customerId: customer!.response.body.id });
    expect(shipment!.request.url).toBe(`${demo.url}/orders/${order!.response.body.id}/ship`);
    expect(shipment!.response.body).toEqual({ id: order!.response.body.id, status: 'shipped' });
  });

  it('says so (exit 2) when the argument is neither a flow file nor a saved flow', async () => {
    const missing = await spawnSvc(['run', 'flow', 'no-such-flow'], env).done;
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('neither a flow file nor the id or name of a saved flow');
  });
});
