import { fileURLToPath } from 'node:url';
import { defineWorkspace } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Tests import workspace packages from source, so a test run needs no build of its own. */
const alias = {
  '@svc/engine/text-table': source('./packages/engine/src/render/text-table.ts'),
  '@svc/engine/flow-files': source('./packages/engine/src/flow-files.ts'),
  '@svc/engine/bounded-file': source('./packages/engine/src/read-bounded-file.ts'),
  '@svc/engine/sqlite': source('./packages/engine/src/store/sqlite/index.ts'),
  '@svc/engine/postgres': source('./packages/engine/src/store/postgres/index.ts'),
  '@svc/engine/open-store': source('./packages/engine/src/store/open-configured-store.ts'),
  '@svc/engine': source('./packages/engine/src/index.ts'),
  '@svc/discovery': source('./packages/discovery/src/index.ts'),
  '@svc/gateway': source('./packages/gateway/src/index.ts'),
  '@svc/mcp': source('./packages/mcp/src/index.ts'),
};

/** The web app reads the browser-safe parts of the packages through their subpaths. */
const webAlias = {
  '@svc/engine/flow-model': source('./packages/engine/src/model/flow-model.ts'),
  '@svc/engine/rename-node': source('./packages/engine/src/model/rename-flow-node.ts'),
  '@svc/gateway/client-schemas': source('./packages/gateway/src/auth/client-schemas.ts'),
  '@svc/discovery/wire-schemas': source('./packages/discovery/src/wire-schemas.ts'),
};

export default defineWorkspace([
  ...['engine', 'discovery', 'gateway', 'mcp'].map((name) => ({
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
  // The web app's pieces with logic, rendered in a DOM of their own.
  {
    resolve: { alias: { ...webAlias, ...alias } },
    test: {
      name: 'web',
      root: './packages/web',
      include: ['src/**/*.test.{ts,tsx}'],
      environment: 'happy-dom',
    },
  },
  // The built app in headless Chromium against a real `svc serve` and the demo API.
  {
    resolve: { alias },
    test: {
      name: 'web-e2e',
      root: './packages/web',
      include: ['test/**/*.test.ts'],
      testTimeout: 90_000,
      hookTimeout: 60_000,
    },
  },
]);
