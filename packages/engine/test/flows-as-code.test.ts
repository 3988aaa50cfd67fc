import { createEngine, isSvcError, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const T = 'tenant-as-code';
const flow = (name: string, duration: number | string = 1) => ({
  name,
  nodes: [{ id: 'a', name: 'Pause', type: 'delay', config: { duration } }],
});

describe('flows.upsertAll and suites.upsert (flows and suites as code)', () => {
  let store: ReturnType<typeof openSqliteStore>;
  let engine: Engine;
  beforeAll(async () => {
    store = openSqliteStore({ path: ':memory:' });
    engine = await createEngine({ store });
  });
  afterAll(async () => {
    await engine.stop();
    await store.close();
  });

  it('saves every document by name, and again without a new version when nothing changed', async () => {
    const first = await engine.flows.upsertAll(T, [flow('a'), flow('b')]);
    expect(first.map((saved) => [saved.name, saved.version])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    const again = await engine.flows.upsertAll(T, [flow('a'), flow('b', 2)]);
    expect(again.map((saved) => [saved.id, saved.version])).toEqual([
      [first[0]!.id, 1],
      [first[1]!.id, 2],
    ]);
  });

  it('saves none when one does not validate, and answers every problem with its document', async () => {
    let caught: unknown;
    try {
      await engine.flows.upsertAll(T, [
        flow('c'),
        flow('d', 'soon'),
        { name: 'e', nodes: [{ id: 'x', name: 'X', type: 'warp' }] },
        flow('c'),
      ]);
    } catch (error) {
      caught = error;
    }
    expect(isSvcError(caught) && caught.code).toBe('VALIDATION_ERROR');
    const problems = (caught as { details: { problems: { document: number; path: string; code: string }[] } }).details
      .problems;
    expect(problems.map(({ document, path }) => [document, path])).toEqual([
      [1, 'nodes[0].config.duration'],
      [2, 'nodes[0].type'],
      [3, 'name'],
    ]);
    expect(problems[2]!.code).toBe('DUPLICATE_FLOW');
    const listed = await engine.flows.list(T, { search: 'c' });
    expect(listed.items.filter((item) => ['c', 'd', 'e'].includes(item.name))).toEqual([]);
  });

  it('saves none of two documents that choose one trigger path', async () => {
    const hook = (name: string) => ({
      name,
      nodes: [
        {
          id: 't',
          name: 'Hook',
          type: 'component-webhook',
          config: { mode: 'trigger', path: 'orders-in', verification: { method: 'None' } },
        },
      ],
    });
    await expect(engine.flows.upsertAll(T, [hook('hook-a'), hook('hook-b')])).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { problems: [{ code: 'WEBHOOK_PATH_TAKEN', path: 'nodes[0].config.path', document: 1 }] },
    });
    const listed = await engine.flows.list(T, { search: 'hook-' });
    expect(listed.items).toEqual([]);
  });

  it('saves a suite by name, writing it again only when its definition changed', async () => {
    const [a, b] = await engine.flows.upsertAll(T, [flow('a'), flow('b', 2)]);
    const created = await engine.suites.upsert(T, { name: 'gate', flowIds: [a!.id] });
    expect(created.created).toBe(true);
    const same = await engine.suites.upsert(T, { name: 'gate', flowIds: [a!.id] });
    expect(same).toMatchObject({ created: false, suite: { id: created.suite.id, updatedAt: created.suite.updatedAt } });
    const changed = await engine.suites.upsert(T, { name: 'gate', flowIds: [a!.id, b!.id], mode: 'parallel' });
    expect(changed.suite).toMatchObject({ id: created.suite.id, flowIds: [a!.id, b!.id], mode: 'parallel' });
    await expect(engine.suites.upsert(T, { name: 'gate', flowIds: ['flw_nope'] })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    expect((await engine.suites.get(T, created.suite.id)).flowIds).toEqual([a!.id, b!.id]);
  });
});
