import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { PAIRS } from './chain-workload.js';

/**
 * The chain of the whole-process suite benchmark, once, as data: PAIRS × (POST /orders with the
 * previous order as its parent, then GET /orders/{id} of the order just created), each with a
 * status check. The svc suite file, the Step CI workflow and the Newman collection are all written
 * from it, so the three tools make the same requests and check the same things.
 */
export interface ChainStep {
  name: string;
  method: 'GET' | 'POST';
  /** Path on the base URL; `{id}` is the id the step before read from its response. */
  path: string;
  /** JSON body; `parentOrderId` is the id the step before read, or null for the first step. */
  body?: { total: number; parentOrderId: 'previous' | null };
  status: number;
}

export function chainSteps(): ChainStep[] {
  const steps: ChainStep[] = [];
  for (let pair = 1; pair <= PAIRS; pair += 1) {
    steps.push({
      name: `CreateOrder${pair}`,
      method: 'POST',
      path: '/orders',
      body: { total: 10, parentOrderId: pair === 1 ? null : 'previous' },
      status: 201,
    });
    steps.push({ name: `ReadOrder${pair}`, method: 'GET', path: '/orders/{id}', status: 200 });
  }
  return steps;
}

/** The chain as an svc flow: one endpoint node per step, each reading the id of the step before. */
function svcFlow(name: string, steps: ChainStep[]) {
  const nodes = steps.map((step, index) => {
    const previous = index === 0 ? undefined : `{{${steps[index - 1]!.name}.response.body.id}}`;
    return {
      id: `s${index + 1}`,
      name: step.name,
      type: 'endpoint',
      config: {
        method: step.method,
        url: `{{env.baseUrl}}${step.path.replace('{id}', previous ?? '')}`,
        ...(step.body
          ? { body: { total: step.body.total, parentOrderId: step.body.parentOrderId === null ? null : previous } }
          : {}),
        assertions: [{ target: 'statusCode', operator: '==', value: step.status }],
      },
    };
  });
  const connections = steps
    .slice(1)
    .map((_, index) => ({ id: `w${index + 1}`, source: `s${index + 1}`, target: `s${index + 2}` }));
  return { name, nodes, connections };
}

/** Writes the svc suite file and its flow files; answers the suite file's path. */
export function writeSvcSuite(dir: string, chains: number, concurrency: number): string {
  const steps = chainSteps();
  mkdirSync(join(dir, 'flows'), { recursive: true });
  const files: string[] = [];
  for (let chain = 1; chain <= chains; chain += 1) {
    const file = `flows/chain-${chain}.yaml`;
    writeFileSync(join(dir, file), stringify(svcFlow(`chain-${chain}`, steps)));
    files.push(file);
  }
  const suite = join(dir, 'suite.yaml');
  writeFileSync(suite, stringify({ name: 'bench-chains', options: { mode: 'parallel', concurrency }, flows: files }));
  return suite;
}

/** The Step CI workflow (version 1.1): a test per chain, captures passing the id on. */
export function writeStepCiWorkflow(dir: string, chains: number, concurrency: number, baseUrl: string): string {
  const steps = chainSteps();
  const tests: Record<string, unknown> = {};
  for (let chain = 1; chain <= chains; chain += 1) {
    tests[`chain-${chain}`] = {
      steps: steps.map((step, index) => {
        const previous = index === 0 ? undefined : `\${{captures.id${index}}}`;
        return {
          name: step.name,
          http: {
            url: `\${{env.baseUrl}}${step.path.replace('{id}', previous ?? '')}`,
            method: step.method,
            ...(step.body
              ? { json: { total: step.body.total, parentOrderId: step.body.parentOrderId === null ? null : previous } }
              : {}),
            captures: { [`id${index + 1}`]: { jsonpath: '$.id' } },
            check: { status: step.status },
          },
        };
      }),
    };
  }
  const file = join(dir, 'workflow.yml');
  writeFileSync(
    file,
    stringify({ version: '1.1', name: 'bench-chains', env: { baseUrl }, config: { concurrency }, tests }),
  );
  return file;
}

/** The Newman (Postman v2.1) collection: a folder per chain, a test script per request. */
export function writeNewmanCollection(dir: string, chains: number): string {
  const steps = chainSteps();
  const item = Array.from({ length: chains }, (_, chainIndex) => ({
    name: `chain-${chainIndex + 1}`,
    item: steps.map((step, index) => ({
      name: step.name,
      request: {
        method: step.method,
        url: `{{baseUrl}}${step.path.replace('{id}', '{{id}}')}`,
        ...(step.body
          ? {
              header: [{ key: 'content-type', value: 'application/json' }],
              body: {
                mode: 'raw',
                raw: `{"total":${step.body.total},"parentOrderId":${step.body.parentOrderId === null || index === 0 ? 'null' : '"{{id}}"'}}`,
              },
            }
          : {}),
      },
      event: [
        {
          listen: 'test',
          script: {
            type: 'text/javascript',
            exec: [
              `pm.test('status ${step.status}', () => pm.response.to.have.status(${step.status}));`,
              "pm.collectionVariables.set('id', pm.response.json().id);",
            ],
          },
        },
      ],
    })),
  }));
  const file = join(dir, 'collection.json');
  writeFileSync(
    file,
    JSON.stringify({
      info: { name: 'bench-chains', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      variable: [{ key: 'id', value: '' }],
      item,
    }),
  );
  return file;
}
