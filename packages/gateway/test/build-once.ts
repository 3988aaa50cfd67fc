import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Tests that spawn the `svc` binary need it built; `tsc -b` is incremental, so this is quick when up to date. */
export default function setup(): void {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  execFileSync(
    process.execPath,
    [`${root}node_modules/typescript/bin/tsc`, '-b', 'packages/engine', 'packages/gateway'],
    { cwd: root, stdio: 'inherit' },
  );
}
