import { createQuickJsSandbox, type JsSandbox } from '@svc/engine';

/**
 * A JavaScript sandbox that loads QuickJS's WebAssembly on the first evaluation: most flows have
 * no `js` expression, and a command that runs one of them does not pay for the load at start.
 */
export function createLazySandbox(): JsSandbox & { dispose(): Promise<void> } {
  let sandbox: ReturnType<typeof createQuickJsSandbox> | undefined;
  return {
    async evaluateBoolean(code, globals) {
      sandbox ??= createQuickJsSandbox();
      return (await sandbox).evaluateBoolean(code, globals);
    },
    async dispose() {
      if (sandbox !== undefined) (await sandbox).dispose();
    },
  };
}
