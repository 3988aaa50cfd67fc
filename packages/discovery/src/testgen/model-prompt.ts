import type { CatalogEndpoint } from '../catalog/types.js';
import { credentialsFor, requiresCredentials } from './credentials.js';
import { describeStatus, successStatus, unauthorisedStatus, validationFailureStatus } from './expected-status.js';
import type { GenerateOptions } from './generator.js';
import { TEST_CATEGORIES } from './test-case.js';

/** What a model engine sends: one system prompt and the conversation so far. */
export interface ModelPrompt {
  systemPrompt: string;
  messages: Array<{ role: 'user' | 'assistant'; content: string }>;
  maxTokens: number;
}

/** How many cases a model is asked for when the options do not say. */
export const DEFAULT_MODEL_CASES = 20;
export const DEFAULT_MAX_TOKENS = 8_192;
/** The endpoint description is cut past this many characters, so a huge schema cannot fill the context. */
const MAX_ENDPOINT_CHARS = 24_000;

export const TESTGEN_SYSTEM_PROMPT = `You write API test cases from an OpenAPI operation.
Answer with one JSON array and nothing else. Each element is an object:
{
  "name": "short, unique, e.g. \\"missing body.customerId\\"",
  "category": "positive" | "negative" | "boundary" | "security",
  "description": "one sentence: what is sent and why that answer is expected",
  "request": {
    "pathParams": { "<name>": "<value>" },
    "query": { "<name>": "<value>" },
    "headers": { "<name>": "<string>" },
    "body": <the JSON body; leave the key out to send no body>,
    "rawBody": "<text sent exactly as written, only for a body that must not be valid JSON>",
    "omitAuth": true,   // only to send no credentials at all
    "badAuth": true     // only to send credentials no server accepts
  },
  "expect": {
    "status": 201 | [400, 422] | "4XX",
    "assertions": [ { "target": "body.id", "operator": "is_not_empty" } ]
  }
}
Rules:
- Credentials are added by the test runner from the security schemes: never write Authorization or API key headers yourself; use omitAuth or badAuth for security cases.
- Take expected statuses from the declared responses. A list means "any of these"; "4XX" means any code of the class.
- Assertion targets: "body", "body.<path>" (e.g. "body.items[0].id"), "headers.<name>", "latencyMs". Operators: == != > < >= <= contains not_contains starts_with ends_with is_empty is_not_empty. Do not assert on statusCode there: it goes in expect.status.
- Values must be concrete and must not contain "{{".
- Cover valid requests, each required field missing, wrong types, values outside enums, limits (at and one past minimum/maximum, minLength/maxLength, minItems/maxItems) and, when the operation has security, missing and bad credentials.`;

/** The endpoint as the model sees it: what to call, what it takes, what it answers, how it is secured. */
export function describeEndpointForModel(endpoint: CatalogEndpoint): string {
  const credentials = credentialsFor(endpoint, 'valid');
  const description = {
    operationId: endpoint.operationId ?? endpoint.id,
    method: endpoint.method,
    path: endpoint.path,
    summary: endpoint.summary || undefined,
    description: endpoint.description.slice(0, 2_000) || undefined,
    parameters: endpoint.parameters.map((parameter) => ({
      name: parameter.name,
      in: parameter.in,
      required: parameter.required,
      schema: parameter.schema,
    })),
    requestBody: endpoint.requestBody,
    responses: endpoint.responses,
    security: {
      required: requiresCredentials(endpoint),
      schemes: endpoint.securitySchemes,
      sentByRunner: { headers: Object.keys(credentials.headers), query: Object.keys(credentials.query) },
    },
    expectedStatuses: {
      valid: describeStatus(successStatus(endpoint)),
      invalid: describeStatus(validationFailureStatus(endpoint)),
      unauthorised: describeStatus(unauthorisedStatus()),
    },
  };
  const full = JSON.stringify(description, null, 1);
  if (full.length <= MAX_ENDPOINT_CHARS) return full;
  // Response bodies matter least for building requests: they go first.
  const lean = JSON.stringify(
    {
      ...description,
      responses: Object.fromEntries(
        Object.entries(endpoint.responses).map(([code, response]) => [code, { description: response.description }]),
      ),
    },
    null,
    1,
  );
  return lean.length <= MAX_ENDPOINT_CHARS ? lean : `${lean.slice(0, MAX_ENDPOINT_CHARS)}\n… (cut)`;
}

/**
 * The prompt both model engines send for one endpoint.
 * @example buildTestGenerationPrompt(createOrder, { maxCases: 10 }).messages[0].content // 'Write up to 10 test cases …'
 */
export function buildTestGenerationPrompt(endpoint: CatalogEndpoint, options: GenerateOptions = {}): ModelPrompt {
  const count = options.maxCases ?? DEFAULT_MODEL_CASES;
  const categories =
    options.categories !== undefined && options.categories.length > 0 ? options.categories : TEST_CATEGORIES;
  const lines = [
    `Write up to ${count} test cases for this operation, in the categories: ${categories.join(', ')}.`,
    options.instructions !== undefined && options.instructions.trim() !== ''
      ? `Also: ${options.instructions.trim()}`
      : '',
    'The operation:',
    describeEndpointForModel(endpoint),
    'Answer with the JSON array only.',
  ].filter((line) => line !== '');
  return {
    systemPrompt: TESTGEN_SYSTEM_PROMPT,
    messages: [{ role: 'user', content: lines.join('\n') }],
    maxTokens: DEFAULT_MAX_TOKENS,
  };
}
