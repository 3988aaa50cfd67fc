import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { buildPlannerIndex, extractEndpoints, parseOpenApiDocument, planRoadmap } from '@svc/discovery';

/** `node examples/dist/eval/plan-one.js <spec> "<requirement>"`: one plan with every action's candidates, to read why. */
const [specFile, ...rest] = process.argv.slice(2);
if (specFile === undefined || rest.length === 0) {
  console.error('usage: plan-one <spec file> "<requirement>"');
  process.exit(2);
}
const text = readFileSync(specFile, 'utf8');
const document = specFile.endsWith('.json') ? text : JSON.stringify(parse(text));
const index = buildPlannerIndex(
  extractEndpoints(parseOpenApiDocument(document, specFile).resolved).map((endpoint) => ({
    ...endpoint,
    specId: 'api',
  })),
);
for (const requirement of rest) {
  const roadmap = planRoadmap(requirement, index);
  console.log(`\n${requirement}  (confidence ${roadmap.confidence})`);
  for (const step of roadmap.steps)
    console.log(
      `  ${step.role === 'producer' ? '+' : '*'} ${step.method} ${step.path}  ${step.score}  ${step.reason.slice(0, 160)}`,
    );
  for (const action of roadmap.actions) {
    console.log(`  action "${action.phrase}" chosen ${action.chosen}`);
    for (const c of action.candidates)
      console.log(`     ${c.score.toFixed(2)} ${c.method} ${c.path}  ${c.reasons.join('; ').slice(0, 150)}`);
  }
  for (const input of roadmap.inputs) console.log(`  input ${input.name} = ${JSON.stringify(input.example)}`);
}
