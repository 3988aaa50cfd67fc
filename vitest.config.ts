import { defineConfig } from 'vitest/config';

// Projects are in vitest.workspace.ts; this file holds options for the whole run.
export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-line-reporter.ts'],
  },
});
