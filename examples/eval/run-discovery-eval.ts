import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { evaluateArazzo } from './arazzo.js';
import { evaluateRestBench } from './restbench.js';

/**
 * `npm run eval:discovery`: the planner's measured quality on public datasets (RestBench Spotify
 * for choosing and ordering endpoints, the Arazzo examples for bindings). The data folder is
 * `../shared/data` beside the checkout, or `SVC_EVAL_DATA`; `-v` lists every miss.
 */
const dataFolder = resolve(process.env.SVC_EVAL_DATA ?? join(process.cwd(), '..', 'shared', 'data'));
const verbose = process.argv.includes('-v');
const percent = (value: number): string => `${(value * 100).toFixed(1)}%`;
let failed = false;

const restbench = join(dataFolder, 'restbench');
if (existsSync(join(restbench, 'spotify.json'))) {
  const report = evaluateRestBench(restbench);
  const meets = report.inOrder >= 0.7 && report.precision >= 0.7;
  failed ||= !meets;
  console.log(`RestBench Spotify (${report.requests} requests)`);
  console.log(`  gold sequence in order within the plan  ${percent(report.inOrder)}   (target ≥ 70%)`);
  console.log(`  gold endpoints proposed (recall)        ${percent(report.goldRecall)}`);
  console.log(`  precision of proposed endpoints         ${percent(report.precision)}   (target ≥ 70%)`);
  console.log(`  mean extra steps per request            ${report.meanExtraSteps.toFixed(2)}`);
  console.log(`  mean planning time                      ${report.meanPlanMs.toFixed(2)} ms`);
  console.log(`  ${meets ? 'meets' : 'MISSES'} the target`);
  if (verbose)
    for (const miss of report.misses)
      console.log(
        `  ✗ ${miss.query}\n      gold: ${miss.gold.join(' → ')}\n      plan: ${miss.planned.join(' → ') || '(nothing)'}`,
      );
} else {
  console.log(`RestBench skipped: ${restbench} is absent`);
}

const arazzo = join(dataFolder, 'arazzo');
if (existsSync(arazzo)) {
  const report = evaluateArazzo(arazzo);
  const meets = report.recall >= 0.8;
  failed ||= !meets;
  console.log(
    `\nArazzo examples (${report.workflows} workflows with 2+ operations, ${report.goldBindings} gold bindings)`,
  );
  console.log(`  binding recall     ${percent(report.recall)}   (target ≥ 80%)`);
  console.log(`  binding precision  ${percent(report.precision)}   (${report.correct} of ${report.proposed} proposed)`);
  console.log(`  ${meets ? 'meets' : 'MISSES'} the target`);
  for (const skipped of report.skipped) console.log(`  skipped: ${skipped}`);
  if (verbose) for (const miss of report.misses) console.log(`  ✗ ${miss}`);
} else {
  console.log(`Arazzo skipped: ${arazzo} is absent`);
}
process.exitCode = failed ? 1 : 0;
