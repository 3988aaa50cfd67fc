import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createNodeRegistry, createStderrLogger, type Logger, type NodeRegistry } from '@svc/engine';
import { DEFAULT_RUN_WAIT_MS, type SvcApi } from './api/svc-api.js';
import { registerCreateFlow } from './tools/create-flow.js';
import { registerGetExecution } from './tools/get-execution.js';
import { registerGetFlow } from './tools/get-flow.js';
import { registerImportOpenApi } from './tools/import-openapi.js';
import { registerListEndpoints } from './tools/list-endpoints.js';
import { MAX_TOOL_INPUT_ELEMENTS } from './tools/limits.js';
import { registerListFlows } from './tools/list-flows.js';
import { registerRunFlow } from './tools/run-flow.js';
import { registerGenerateTestSuite } from './tools/generate-test-suite.js';
import { registerGetJob } from './tools/get-job.js';
import { registerListSuites } from './tools/list-suites.js';
import { registerPlanRoadmap } from './tools/plan-roadmap.js';
import { registerRunSuite } from './tools/run-suite.js';
import { registerListEnvironments } from './tools/list-environments.js';
import { registerSetEnvironment } from './tools/set-environment.js';
import { registerSuiteHealth } from './tools/suite-health.js';
import { registerScaffoldFlow } from './tools/scaffold-flow.js';
import type { ToolContext } from './tools/tool-context.js';
import { registerCancelExecution } from './tools/cancel-execution.js';
import { registerDeleteFlow } from './tools/delete-flow.js';
import { registerListExecutions } from './tools/list-executions.js';
import { registerUpdateFlow } from './tools/update-flow.js';
import { registerValidateFlow } from './tools/validate-flow.js';
import { registerListSchedules } from './tools/list-schedules.js';
import { registerCreateSchedule } from './tools/create-schedule.js';
import { registerUpdateSchedule } from './tools/update-schedule.js';
import { registerDeleteSchedule } from './tools/delete-schedule.js';
import { registerPrompts } from './prompts/register-prompts.js';
import { registerResources } from './resources/register-resources.js';

export const SERVER_NAME = 'svc-mcp';
export const SERVER_VERSION = '0.1.0';

export interface BuildServerOptions {
  /** Node types the flow tools describe (default: the engine's built-in types). */
  nodeTypes?: NodeRegistry;
  /** How long svc_run_flow waits for a run's end (default 30 s, as the REST run endpoint). */
  runWaitMs?: number;
  /** Where unexpected tool failures are logged (default: JSON lines on stderr). */
  logger?: Logger;
  /** Filled with the tool calls not yet answered (default: a set of the server's own). */
  inFlight?: Set<Promise<unknown>>;
}

const INSTRUCTIONS =
  'svc runs API flows: DAGs of HTTP calls passing values with {{…}} templates; each run is an execution with a per-step trace. ' +
  'Edit loop: svc_list_flows / svc_get_flow, svc_create_flow or svc_update_flow (svc_validate_flow checks without saving), svc_run_flow, ' +
  'then svc_get_execution / svc_list_executions; svc_cancel_execution stops a run. From an API: svc_import_openapi, svc_list_endpoints, ' +
  'svc_plan_roadmap, svc_scaffold_flow. Tests: svc_generate_test_suite (poll svc_get_job), svc_list_suites, svc_run_suite (svc_suite_health: checks and alerts). ' +
  'Cron: svc_list_schedules, svc_create_schedule, svc_update_schedule, svc_delete_schedule. ' +
  'Node types and expressions: resource svc://reference/node-types. Prompts: create-flow-from-openapi, debug-failed-execution.';

/**
 * The MCP server with the svc tools, over whichever API it is given. No transport is attached:
 * `main.ts` connects stdio, tests connect an in-memory client.
 * @example
 * const server = buildServer(createLocalApi({ engine }));
 * const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 * await server.connect(serverSide);
 */
export function buildServer(api: SvcApi, options: BuildServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      instructions: INSTRUCTIONS,
      maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS,
      capabilities: { resources: {}, prompts: {} },
    },
  );
  const context: ToolContext = {
    server,
    api,
    nodeTypes: options.nodeTypes ?? createNodeRegistry(),
    logger: options.logger ?? createStderrLogger('warn'),
    inFlight: options.inFlight ?? new Set(),
  };
  registerListFlows(context);
  registerGetFlow(context);
  registerCreateFlow(context);
  registerRunFlow(context, options.runWaitMs ?? DEFAULT_RUN_WAIT_MS);
  registerGetExecution(context);
  registerImportOpenApi(context);
  registerListEndpoints(context);
  registerListSuites(context);
  registerRunSuite(context);
  registerGenerateTestSuite(context);
  registerGetJob(context);
  registerPlanRoadmap(context);
  registerScaffoldFlow(context);
  registerUpdateFlow(context);
  registerDeleteFlow(context);
  registerValidateFlow(context);
  registerListExecutions(context);
  registerCancelExecution(context);
  registerListEnvironments(context);
  registerSetEnvironment(context);
  registerListSchedules(context);
  registerCreateSchedule(context);
  registerUpdateSchedule(context);
  registerDeleteSchedule(context);
  registerSuiteHealth(context);
  registerResources(context);
  registerPrompts(context);
  return server;
}
