import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, TENANT, type Harness } from './helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('runFlow waitMs', () => {
  it('answers at the bound with the running execution, not after twice the bound', async () => {
    const flow = await h.engine.flows.create(TENANT, {
      name: 'long-pause',
      nodes: [{ id: 'p', name: 'Pause', type: 'delay', config: { duration: '20s' } }],
    });
    const started = Date.now();
    const execution = await h.engine.runFlow({ tenantId: TENANT, flowId: flow.id, waitMs: 2_000 });
    const elapsed = Date.now() - started;
    expect(['Running', 'Waiting']).toContain(execution.status);
    // Generous on the late side for a loaded machine; the old behaviour took 4 s.
    expect(elapsed).toBeGreaterThanOrEqual(1_900);
    expect(elapsed).toBeLessThan(3_900);
    await h.engine.cancelExecution(TENANT, execution.executionId);
  });
});
