import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isSvcError } from '@svc/engine';
import { planRoadmap, type PlannerIndex } from '@svc/discovery';
import { plannerIndexOfText } from './spec-index.js';

/**
 * `node examples/dist/eval/sweep-specs.js <folder>`: imports every OpenAPI document (`.json`) under
 * a folder as `svc catalog import` reads it and plans a few requirements any API could be asked on
 * it, to find what real documents do to the importer and the planner: a document refused says
 * why (a clear error, counted by code); anything else thrown, and any plan slower than 100 ms, is
 * listed. Documents over 8 MB are skipped (the REST door takes at most that much).
 */
const folder = process.argv[2];
if (folder === undefined) {
  console.error('usage: sweep-specs <folder of OpenAPI documents>');
  process.exit(2);
}
const REQUIREMENTS = [
  'list all items',
  'create a new one named "Test" and then delete it',
  'show the details of the first result of the search for "abc"',
  'update the latest entry and add a comment to it',
];
const SLOW_MS = 100;

const files: string[] = [];
const walk = (dir: string): void => {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.json')) files.push(path);
  }
};
walk(folder);

let imported = 0;
let plans = 0;
let crashed = 0;
let slow = 0;
const refused = new Map<string, number>();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  if (text.length > 8_000_000) continue;
  let index: PlannerIndex;
  try {
    index = plannerIndexOfText(text, file, 'api');
  } catch (error) {
    if (isSvcError(error)) refused.set(error.code, (refused.get(error.code) ?? 0) + 1);
    else {
      crashed += 1;
      console.log(`crash importing ${file}: ${error instanceof Error ? error.stack : String(error)}`);
    }
    continue;
  }
  imported += 1;
  for (const requirement of REQUIREMENTS) {
    const started = performance.now();
    try {
      planRoadmap(requirement, index);
      plans += 1;
    } catch (error) {
      crashed += 1;
      console.log(
        `crash planning "${requirement}" on ${file}: ${error instanceof Error ? error.stack : String(error)}`,
      );
    }
    const ms = performance.now() - started;
    if (ms > SLOW_MS) {
      slow += 1;
      console.log(`slow: ${ms.toFixed(0)} ms, ${index.profiles.length} operations, ${file}: "${requirement}"`);
    }
  }
}
console.log(
  `${files.length} documents: ${imported} imported, ${[...refused].map(([code, count]) => `${count} refused (${code})`).join(', ') || 'none refused'}; ` +
    `${plans} plans, ${slow} slower than ${SLOW_MS} ms, ${crashed} crashes`,
);
process.exitCode = crashed > 0 ? 1 : 0;
