export { parseRequest, type RequestProblem } from './validate.js';
export * from './schemas.js';
