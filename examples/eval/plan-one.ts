import { planRoadmap } from '@svc/discovery';
import { plannerIndexOfFile } from './spec-index.js';

/** `node examples/dist/eval/plan-one.js <spec> "<requirement>"`: one plan with every action's candidates, to read why. */
const [specFile, ...rest] = process.argv.slice(2);
if (specFile === undefined || rest.length === 0) {
  console.error('usage: plan-one <spec file> "<requirement>"');
  process.exit(2);
}
const index = plannerIndexOfFile(specFile, 'api');
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
