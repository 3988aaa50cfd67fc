// Prints what a first visit downloads: index.html and the files it loads at once (its script,
// the chunks that script imports statically, its styles), raw and gzipped, and fails the build
// when that passes the budget, or when any script is React's development build (`jsxDEV`, which
// also carries the source files' paths on this machine).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_GZIP_BYTES = 400 * 1024;
const dist = new URL('../dist/', import.meta.url);
const read = (name) => readFileSync(new URL(name, dist));
const html = read('index.html').toString('utf8');

const firstLoad = new Set(['index.html']);
for (const [, href] of html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)) firstLoad.add(href);
// Static imports of the entry chunk load with it (Vite lists them as modulepreload links too).
const pending = [...firstLoad].filter((name) => name.endsWith('.js'));
while (pending.length > 0) {
  const source = read(pending.pop()).toString('utf8');
  for (const [, file] of source.matchAll(/(?:^|[;\n])import[^'"]*?from\s*["']\.\/([^"']+\.js)["']/g)) {
    const name = `assets/${file}`;
    if (!firstLoad.has(name)) {
      firstLoad.add(name);
      pending.push(name);
    }
  }
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
let raw = 0;
let gzip = 0;
for (const name of [...firstLoad].sort()) {
  const bytes = read(name);
  const zipped = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gzip += zipped;
  console.log(`  ${name.padEnd(40)} ${kib(bytes.length).padStart(11)}  gzip ${kib(zipped).padStart(10)}`);
}
const lazy = readdirSync(join(dist.pathname, 'assets')).filter((name) => !firstLoad.has(`assets/${name}`));
console.log(
  `web: first load ${kib(raw)}, gzipped ${kib(gzip)} (budget ${kib(BUDGET_GZIP_BYTES)}); ${lazy.length} files load later`,
);
if (gzip > BUDGET_GZIP_BYTES) {
  console.error(`web: the first load is over its budget of ${kib(BUDGET_GZIP_BYTES)} gzipped`);
  process.exit(1);
}
const development = readdirSync(join(dist.pathname, 'assets')).filter(
  (name) => name.endsWith('.js') && read(`assets/${name}`).includes('jsxDEV'),
);
if (development.length > 0) {
  console.error(`web: ${development.join(', ')} hold React's development build: build with NODE_ENV=production`);
  process.exit(1);
}
