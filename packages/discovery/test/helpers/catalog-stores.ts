import type { Clock } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { afterEach } from 'vitest';
import { createCatalogService } from '../../src/index.js';

/**
 * For a test file: a function that opens a store in memory with a catalog service over it, each
 * closed after its test. Call it once, at the file's top level (it registers the `afterEach`).
 */
export function catalogStores(options: { clock?: Clock } = {}) {
  const stores: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });
  return () => {
    const store = openSqliteStore({ path: ':memory:' });
    stores.push(store);
    const catalog = createCatalogService({
      repository: store.catalog,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
    });
    return { store, catalog };
  };
}
