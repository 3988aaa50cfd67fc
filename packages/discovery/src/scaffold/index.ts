export { scaffoldFlow, type ScaffoldOptions, type ScaffoldEndpoints } from './scaffold-flow.js';
export type { ScaffoldProblem } from './check-roadmap.js';
export type { BaseUrlOptions } from './base-url.js';
export { BASE_URL_ENV } from './base-url.js';
