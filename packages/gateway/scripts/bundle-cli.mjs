// Bundles the built command line (dist/cli/main.js and everything it imports, the workspace
// packages included) into dist/bundle/: one file for `svc` itself and one chunk per lazily loaded
// command group, so that starting `svc` reads a few files instead of hundreds of ES modules.
// `npm run build` runs it after tsc; bin/svc.js starts dist/bundle/main.js.
import { parse } from 'acorn';
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const gateway = fileURLToPath(new URL('..', import.meta.url));

/**
 * The engine's HTTP client takes two names from undici (`Agent`, `buildConnector`); undici's index
 * loads everything else as well (fetch, WebSocket, caches, mocks), about two thirds of its code.
 * In the bundle those two come from their own modules. A release of undici that moves them fails
 * this build, never a run.
 */
const undiciCore = {
  name: 'undici-core',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, (args) =>
      /[\\/]engine[\\/]dist[\\/]http[\\/]/.test(args.importer)
        ? { path: 'undici-core', namespace: 'undici-core' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'undici-core' }, () => ({
      contents:
        "export { default as Agent } from 'undici/lib/dispatcher/agent.js';\n" +
        "export { default as buildConnector } from 'undici/lib/core/connect.js';\n",
      resolveDir: gateway,
      loader: 'js',
    }));
  },
};

/**
 * zod's index offers every locale of its error messages as `z.locales` (about 350 KB, a sixth of
 * what `svc run` loads); svc configures none, and zod's messages are in English by default. In the
 * bundle `z.locales` holds English alone.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer)
        ? { path: 'zod-locales', namespace: 'zod-english-only', pluginData: args.resolveDir }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: "export { default as en } from '../locales/en.js';\n",
      resolveDir: args.pluginData,
      loader: 'js',
    }));
  },
};

// Chunk names carry a hash of their content: clear the last build's, or they pile up.
rmSync(new URL('../dist/bundle', import.meta.url), { recursive: true, force: true });

await build({
  absWorkingDir: gateway,
  // The flow file thread is started by a URL relative to the chunk that starts it, so it sits
  // among the chunks under a name of its own (see flow-file-prefetch.ts).
  entryPoints: { main: 'dist/cli/main.js', 'chunks/flow-file-worker': 'dist/cli/flow-file-worker.js' },
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Left to Node: the native driver finds its addon relative to its own files, and QuickJS is
  // loaded by the sandbox's worker threads from node_modules.
  external: ['better-sqlite3', 'quickjs-emscripten'],
  plugins: [undiciCore, zodEnglishOnly],
  // CommonJS packages in the bundle (undici, yaml) call `require` for Node's built-ins.
  banner: {
    js: "import { createRequire as __svcCreateRequire } from 'node:module';\nconst require = __svcCreateRequire(import.meta.url);",
  },
  chunkNames: 'chunks/[name]-[hash]',
  legalComments: 'none',
  logLevel: 'warning',
});

/*
 * V8 keeps each script's source for as long as its functions live, as one string: Latin-1 when
 * every character fits, two bytes a character otherwise. esbuild writes most code in ASCII but
 * keeps comments and regular expressions as written, and one "—" in a comment doubles the memory
 * the largest chunk's source takes (about 2.4 MB more for `svc serve`). Characters past ASCII in
 * comments, strings and regular expressions are written as `\uXXXX` escapes, which mean the same
 * there (a character past U+FFFF as its two surrogates, which is how a regular expression without
 * the `u` flag reads it anyway); one anywhere else fails the build rather than be changed.
 */
// UTF-16 code units past ASCII, each with the backslashes before it: `\—` (an escaped "—") becomes
// `\u2014`, not `\\u2014`.
const NOT_ASCII = /(\\*)([\u0080-\uffff])/g;
const escapeAll = (text) =>
  text.replace(
    NOT_ASCII,
    (_match, slashes, char) =>
      `${slashes.slice(slashes.length % 2)}\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
const bundleDir = new URL('../dist/bundle/', import.meta.url);
for (const entry of readdirSync(bundleDir, { recursive: true })) {
  if (!String(entry).endsWith('.js')) continue;
  const file = new URL(String(entry), bundleDir);
  const text = readFileSync(file, 'utf8');
  if (!/[\u0080-\uffff]/.test(text)) continue;
  const ranges = [];
  parse(text, {
    ecmaVersion: 'latest',
    sourceType: 'module',
    onComment: (_block, _text, start, end) => ranges.push([start, end]),
    onToken: (token) => {
      if (token.type.label === 'string' || token.type.label === 'regexp') ranges.push([token.start, token.end]);
    },
  });
  ranges.sort((x, y) => x[0] - y[0]);
  let ascii = '';
  let at = 0;
  for (const [start, end] of ranges) {
    ascii += text.slice(at, start) + escapeAll(text.slice(start, end));
    at = end;
  }
  ascii += text.slice(at);
  const left = /[\u0080-\uffff]/.exec(ascii);
  if (left) throw new Error(`${String(entry)}: "${left[0]}" at ${left.index} is in code that cannot be escaped`);
  writeFileSync(file, ascii);
}
