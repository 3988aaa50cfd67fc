/** @svc/gateway: the REST gateway (arriving) and the `svc` command line. */
export { renderTrace } from './cli/render-trace.js';
