#!/usr/bin/env node
// Committed, unlike dist/: npm links a workspace's `bin` at install time only when the file exists,
// and a fresh clone has no dist/ until its first build. This launcher is what npm links; it starts
// the bundle that `npm run build` makes (scripts/bundle-cli.mjs, see docs/cli.md).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/bundle/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('svc: the command line is not built yet: run npm run build first (in the repository root)\n');
  process.exit(1);
}
await import(entry.href);
