import { CONFIG_VARIABLES } from './config-variables.js';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * `docs/configuration.md`, generated from `CONFIG_VARIABLES` (`npm run docs:config` writes it; a
 * test fails when the committed page differs), so the page cannot drift from what svc reads.
 */
export function renderConfigPage(): string {
  const rows = Object.values(CONFIG_VARIABLES).map(
    (variable) =>
      `| \`${variable.name}\` | ${'default' in variable ? `\`${variable.default}\`` : '(unset)'} | ${variable.readBy.map((reader) => `\`${reader}\``).join(', ')} | ${cell(variable.description)} |`,
  );
  return [
    '# Configuration',
    '',
    '<!-- Generated from packages/engine/src/config/config-variables.ts by `npm run docs:config`; edit that file, not this one. -->',
    '',
    '`svc`, `svc serve` and `svc-mcp` read these environment variables, all in one place when they',
    'start. A blank value counts as unset. A value that cannot be used stops the start with',
    '`CONFIG_ERROR` naming the variable and what it takes (e.g. `SVC_LEASE_MS must be a whole number',
    'of milliseconds (1 or more), not "soon"`); values of secrets are never echoed.',
    '',
    '| variable | default | read by | meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
    'Flows never see these variables: a flow reads only the environment a run is given.',
    '',
  ].join('\n');
}
