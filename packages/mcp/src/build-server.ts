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
import { registerScaffoldFlow } from './tools/scaffold-flow.js';
import type { ToolContext } from './tools/tool-context.js';

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
  'svc runs API flows: DAGs of HTTP calls whose steps pass values to each other with {{…}} expressions, and records each run as an ' +
  'execution with a per-step trace. Find flows with svc_list_flows, read one with svc_get_flow, build one with svc_create_flow ' +
  '(every validation problem comes back with its path), run it with svc_run_flow (pass the base URL and other settings in env), ' +
  'and read a run again with svc_get_execution. Import an OpenAPI document into the API catalog with svc_import_openapi and find ' +
  'its endpoints with svc_list_endpoints. svc_generate_test_suite starts generating tests for an endpoint as a ' +
  'job (poll svc_get_job); svc_list_suites and svc_run_suite list and run suites with pass/fail KPIs. ' +
  'svc_plan_roadmap turns a plain-language requirement into a roadmap of catalog endpoints with the bindings between them, and ' +
  'svc_scaffold_flow saves a roadmap as a runnable flow.';

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
    { instructions: INSTRUCTIONS, maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS },
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
  return server;
}
