import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeRegistry, loadConfig, validateFlow } from '@svc/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOpenAiTestCaseGenerator,
  createSamplingTestCaseGenerator,
  openAiConfigOf,
  resolveTestCaseGenerator,
  testCaseToFlow,
  type ModelPrompt,
  type RejectedTestCase,
} from '../src/index.js';
import { fixtureEndpoints } from './helpers/roadmaps.js';

const createOrder = fixtureEndpoints('orders-testgen.openapi.yaml').find((entry) => entry.id === 'createOrder')!;

const GOOD_CASES = [
  {
    name: 'valid order',
    category: 'positive',
    description: 'A complete order',
    request: {
      headers: { 'X-Request-Id': 'req-00001' },
      body: { customerId: 'cus_1', currency: 'EUR', items: [{ sku: 'A', quantity: 1 }] },
    },
    expect: { status: 201 },
  },
  {
    name: 'unknown currency',
    category: 'negative',
    request: {
      headers: { 'X-Request-Id': 'req-00002' },
      body: { customerId: 'cus_1', currency: 'JPY', items: [{ sku: 'A', quantity: 1 }] },
    },
    expect: {
      status: '4xx',
      assertions: [
        { target: 'statusCode', operator: '>=', value: 400 },
        { target: 'body.code', operator: '==', value: 'INVALID_REQUEST' },
      ],
    },
  },
];
const BAD_CASE = { name: 'no expectation', category: 'negative', request: {} };
const fenced = (value: unknown) =>
  `Here are the tests:\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`\nGood luck.`;

describe('sampling engine', () => {
  it("asks the client's model with the endpoint in the prompt, keeps the valid cases and reports the others", async () => {
    const prompts: ModelPrompt[] = [];
    const rejected: RejectedTestCase[] = [];
    const generator = createSamplingTestCaseGenerator({
      sample: async (prompt) => {
        prompts.push(prompt);
        return fenced([...GOOD_CASES, BAD_CASE]);
      },
    });
    const cases = await generator.generate(createOrder, {
      maxCases: 5,
      onRejected: (items) => rejected.push(...items),
    });

    expect(prompts).toHaveLength(1);
    expect(prompts[0]!.systemPrompt).toMatch(/JSON array/);
    expect(prompts[0]!.maxTokens).toBeGreaterThan(1000);
    const question = prompts[0]!.messages[0]!.content;
    expect(question).toContain('Write up to 5 test cases');
    expect(question).toContain('"path": "/orders"');
    expect(question).toContain('customerId');
    expect(question).toContain('bearerAuth');

    expect(cases.map((testCase) => testCase.name)).toEqual(['valid order', 'unknown currency']);
    expect(cases[1]!.expect).toEqual({
      status: '4XX',
      assertions: [{ target: 'body.code', operator: '==', value: 'INVALID_REQUEST' }],
    });
    // A success case written without checks gets the ones the declared response implies.
    expect(cases[0]!.expect.assertions).toContainEqual({
      target: 'body.id',
      operator: 'is_not_empty',
      description: 'required field id is set',
    });
    expect(rejected).toEqual([
      { index: 2, reason: expect.stringContaining('expect'), excerpt: expect.stringContaining('no expectation') },
    ]);
    for (const testCase of cases)
      expect(validateFlow(testCaseToFlow(testCase, createOrder), createNodeRegistry()).problems).toEqual([]);
  });

  it('says the client offers no sampling and names the other engines', async () => {
    const generator = resolveTestCaseGenerator('sampling', {});
    const error = await generator.generate(createOrder).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'SAMPLING_UNAVAILABLE',
      message: expect.stringMatching(/does not offer sampling.*"schema".*"openai"/),
    });
  });

  it('fails clearly when nothing usable comes back', async () => {
    const answer = (text: string) =>
      createSamplingTestCaseGenerator({ sample: async () => text })
        .generate(createOrder)
        .catch((caught: unknown) => caught);
    expect(await answer('I am sorry, I cannot write tests.')).toMatchObject({ code: 'TESTGEN_MODEL_OUTPUT_INVALID' });
    expect(await answer('```json\n[]\n```')).toMatchObject({
      code: 'TESTGEN_MODEL_OUTPUT_INVALID',
      message: expect.stringContaining('empty'),
    });
    expect(
      await answer(JSON.stringify([BAD_CASE, { ...GOOD_CASES[0], request: { query: { q: '{{env.secret}}' } } }])),
    ).toMatchObject({
      code: 'TESTGEN_MODEL_OUTPUT_INVALID',
      details: {
        rejected: [
          expect.objectContaining({ index: 0 }),
          expect.objectContaining({ index: 1, reason: expect.stringContaining('{{') }),
        ],
      },
    });
    const failing = createSamplingTestCaseGenerator({
      sample: async () => {
        throw new Error('client went away');
      },
    });
    await expect(failing.generate(createOrder)).rejects.toMatchObject({
      code: 'TESTGEN_MODEL_FAILED',
      message: expect.stringContaining('client went away'),
    });
  });

  it('reads a bare array, an object holding the cases, and an array amid prose', async () => {
    const answer = (text: string) =>
      createSamplingTestCaseGenerator({ sample: async () => text }).generate(createOrder);
    expect(await answer(JSON.stringify(GOOD_CASES))).toHaveLength(2);
    expect(await answer(JSON.stringify({ testCases: GOOD_CASES }))).toHaveLength(2);
    expect(await answer(`Sure! ${JSON.stringify(GOOD_CASES)} Those are all.`)).toHaveLength(2);
  });
});

type Mode = 'good' | 'garbage' | 'error' | 'not-chat' | 'slow';

describe('openai engine', () => {
  let server: Server;
  let baseUrl: string;
  let mode: Mode = 'good';
  const seen: Array<{ url: string; authorization: string | undefined; body: any }> = [];

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      request.on('end', () => {
        seen.push({ url: request.url ?? '', authorization: request.headers.authorization, body: JSON.parse(text) });
        const reply = (status: number, body: unknown) => {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(body));
        };
        const chat = (content: string) =>
          reply(200, {
            id: 'c1',
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          });
        if (mode === 'good') chat(fenced(GOOD_CASES));
        else if (mode === 'garbage') chat('As an AI model I would test the happy path first.');
        else if (mode === 'error') reply(500, { error: { message: 'the model is overloaded', type: 'server_error' } });
        else if (mode === 'not-chat') reply(200, { result: 'ok' });
        else setTimeout(() => chat('[]'), 2_000);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const generator = (config: Record<string, unknown> = {}) =>
    createOpenAiTestCaseGenerator({ config: { url: baseUrl, apiKey: 'sk-test-123', model: 'tiny-model', ...config } });

  it('posts the prompt to {url}/chat/completions with the key and the model, and reads the cases from the reply', async () => {
    mode = 'good';
    seen.length = 0;
    const cases = await generator().generate(createOrder, { maxCases: 10 });
    expect(cases.map((testCase) => testCase.name)).toEqual(['valid order', 'unknown currency']);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      url: '/v1/chat/completions',
      authorization: 'Bearer sk-test-123',
      body: { model: 'tiny-model', max_tokens: expect.any(Number) },
    });
    expect(seen[0]!.body.messages.map((message: { role: string }) => message.role)).toEqual(['system', 'user']);
    expect(seen[0]!.body.messages[1].content).toContain('Write up to 10 test cases');
  });

  it('answers a reply without test cases as TESTGEN_MODEL_OUTPUT_INVALID', async () => {
    mode = 'garbage';
    await expect(generator().generate(createOrder)).rejects.toMatchObject({
      code: 'TESTGEN_MODEL_OUTPUT_INVALID',
      message: expect.stringContaining('tiny-model'),
    });
    mode = 'not-chat';
    await expect(generator().generate(createOrder)).rejects.toMatchObject({
      code: 'TESTGEN_MODEL_OUTPUT_INVALID',
      message: expect.stringContaining('chat-completions'),
    });
  });

  it("answers a non-2xx status with the service's own message, without the key", async () => {
    mode = 'error';
    const error = await generator()
      .generate(createOrder)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'TESTGEN_MODEL_HTTP_ERROR',
      retryable: true,
      message: expect.stringContaining('answered 500: the model is overloaded'),
    });
    expect(JSON.stringify(error) + String((error as Error).message)).not.toContain('sk-test-123');
  });

  it('gives up after its timeout, and says when the service cannot be reached', async () => {
    mode = 'slow';
    await expect(generator({ timeoutMs: 200 }).generate(createOrder)).rejects.toMatchObject({
      code: 'TESTGEN_MODEL_TIMEOUT',
      retryable: true,
    });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(generator({ url: `http://127.0.0.1:${port}/v1` }).generate(createOrder)).rejects.toMatchObject({
      code: 'TESTGEN_MODEL_UNREACHABLE',
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('names the settings it lacks when it is not configured', async () => {
    const config = openAiConfigOf(loadConfig({ SVC_TESTGEN_OPENAI_KEY: 'sk-x' }));
    const error = await resolveTestCaseGenerator('openai', { openai: config })
      .generate(createOrder)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'TESTGEN_NOT_CONFIGURED',
      message: expect.stringContaining('SVC_TESTGEN_OPENAI_URL and SVC_TESTGEN_OPENAI_MODEL'),
    });
    expect(
      openAiConfigOf(
        loadConfig({
          SVC_TESTGEN_OPENAI_URL: ' http://x/v1 ',
          SVC_TESTGEN_OPENAI_MODEL: 'm',
          SVC_TESTGEN_OPENAI_TIMEOUT_MS: '5000',
        }),
      ),
    ).toEqual({
      url: 'http://x/v1',
      apiKey: undefined,
      model: 'm',
      timeoutMs: 5000,
    });
  });
});
