import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from './config-variables.js';
import { renderConfigPage } from './config-page.js';

const PAGE = fileURLToPath(new URL('../../../../docs/configuration.md', import.meta.url));

describe('docs/configuration.md', () => {
  it('is what the configuration schema generates (run `npm run docs:config` after changing a variable)', () => {
    expect(readFileSync(PAGE, 'utf8')).toBe(renderConfigPage());
  });

  it('has a row for every variable with its default', () => {
    const page = renderConfigPage();
    for (const variable of Object.values(CONFIG_VARIABLES)) expect(page).toContain(`| \`${variable.name}\` |`);
    expect(page).toContain('| `SVC_LEASE_MS` | `30000` |');
  });
});
