// Writes docs/configuration.md from the configuration schema (`npm run docs:config`).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderConfigPage } from '../packages/engine/src/config/config-page.js';

const target = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));
writeFileSync(target, renderConfigPage());
process.stdout.write(`wrote ${target}\n`);
