/**
 * Builds the memory-mapping addon of the execution log (`native/mapped_file.c`) with node-gyp,
 * from source, at install time. Without a C toolchain the store still works: its execution log
 * then writes with write(2) instead of through a mapping, which is slower but just as durable,
 * so a failed build warns and does not fail the install.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (process.platform === 'win32') {
  process.stderr.write('@svc/engine: no memory-mapped execution log on Windows; the log writes with write(2)\n');
  process.exit(0);
}
const result = spawnSync('node-gyp', ['rebuild'], { cwd: root, stdio: 'inherit', shell: false });
if (result.status !== 0) {
  process.stderr.write(
    `@svc/engine: building native/mapped_file.c failed (${result.error?.message ?? `exit ${result.status}`}); ` +
      'the execution log falls back to write(2), slower per step but as durable\n',
  );
}
