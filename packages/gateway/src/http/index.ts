export { parseRequest, type RequestProblem } from './validate.js';
export * from './schemas.js';
export { publicJob, type PublicJob } from './public-job.js';
