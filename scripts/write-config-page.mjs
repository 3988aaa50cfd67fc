// Writes docs/configuration.md from the configuration schema (`npm run docs:config`, after a build).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderConfigPage } from '../packages/engine/dist/config/config-page.js';

const target = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));
writeFileSync(target, renderConfigPage());
process.stdout.write(`wrote ${target}\n`);
