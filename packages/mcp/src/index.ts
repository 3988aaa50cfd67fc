/**
 * @svc/mcp: `svc-mcp`, the Model Context Protocol tool server. The server is built over an
 * `SvcApi` (the engine in this process, or the REST gateway) apart from its stdio entry, so a
 * test or another host can connect any transport.
 */
export { buildServer, SERVER_NAME, SERVER_VERSION, type BuildServerOptions } from './build-server.js';
export type {
  SvcApi,
  ListFlowsRequest,
  FlowList,
  RunFlowRequest,
  RunSuiteRequest,
  ImportOpenApiRequest,
  ListEndpointsRequest,
  EndpointList,
  SaveOptions,
  UpdateFlowOptions,
  ExecutionList,
  RunSuiteHooks,
} from './api/svc-api.js';
export { createLocalApi, openLocalApi, LOCAL_TENANT, type LocalApiOptions } from './api/local-api.js';
export { createRemoteApi, type RemoteApiOptions } from './api/remote-api.js';
export { openSvcApi } from './api/open-api.js';
