import { fileURLToPath } from 'node:url';
import { defineWorkspace } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Tests import workspace packages from source, so a test run needs no build of its own. */
const alias = {
  '@svc/engine/text-table': source('./packages/engine/src/render/text-table.ts'),
  '@svc/engine/sqlite': source('./packages/engine/src/store/sqlite/index.ts'),
  '@svc/engine/postgres': source('./packages/engine/src/store/postgres/index.ts'),
  '@svc/engine/open-store': source('./packages/engine/src/store/open-configured-store.ts'),
  '@svc/engine': source('./packages/engine/src/index.ts'),
  '@svc/discovery': source('./packages/discovery/src/index.ts'),
  '@svc/gateway': source('./packages/gateway/src/index.ts'),
  '@svc/mcp': source('./packages/mcp/src/index.ts'),
};

export default defineWorkspace(
  ['engine', 'discovery', 'gateway', 'mcp'].map((name) => ({
    resolve: { alias },
    test: {
      name,
      root: `./packages/${name}`,
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: 20_000,
      hookTimeout: 20_000,
      ...(name === 'gateway' ? { globalSetup: ['./test/build-once.ts'] } : {}),
    },
  })),
);
