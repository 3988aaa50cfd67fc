/**
 * @svc/discovery: the OpenAPI catalog (import, endpoints), the requirement → roadmap planner,
 * scaffolding and test generation built on it. Imports `@svc/engine` only.
 */
export * from './catalog/index.js';
export * from './planner/index.js';
export * from './scaffold/index.js';
export * from './testgen/index.js';
export * from './discovery/index.js';
