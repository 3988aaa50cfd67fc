import { SvcError, timerDelay } from '@svc/engine';
import { request, type Dispatcher } from 'undici';
import { isObject } from '../catalog/json-pointer.js';
import type { TestCaseGenerator } from './generator.js';
import { generateWithModel } from './model-engine.js';
import type { ModelPrompt } from './model-prompt.js';
import {
  chatCompletionsUrl,
  DEFAULT_OPENAI_TIMEOUT_MS,
  OPENAI_ENV,
  type OpenAiTestGenConfig,
} from './openai-config.js';

export interface OpenAiGeneratorOptions {
  config?: OpenAiTestGenConfig | undefined;
  /** An undici dispatcher (an Agent or a MockAgent); the global one by default. */
  dispatcher?: Dispatcher;
}

const ERROR_EXCERPT_CHARS = 300;

/** `choices[0].message.content`, as a string or as text parts. */
function replyText(body: unknown): string | undefined {
  if (!isObject(body) || !Array.isArray(body.choices)) return undefined;
  const first = body.choices[0];
  if (!isObject(first) || !isObject(first.message)) return undefined;
  const content = first.message.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
  }
  return undefined;
}

/** The provider's own error message when it sends one (`{ error: { message } }`), else the text. */
function errorText(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (isObject(parsed) && isObject(parsed.error) && typeof parsed.error.message === 'string')
      return parsed.error.message;
  } catch {
    // not JSON: the text itself says what happened
  }
  return text.length > ERROR_EXCERPT_CHARS ? `${text.slice(0, ERROR_EXCERPT_CHARS)}…` : text;
}

async function complete(
  config: Required<Pick<OpenAiTestGenConfig, 'url' | 'model'>> & OpenAiTestGenConfig,
  prompt: ModelPrompt,
  signal: AbortSignal | undefined,
  dispatcher: Dispatcher | undefined,
): Promise<string> {
  const url = chatCompletionsUrl(config.url);
  const timeoutMs = config.timeoutMs ?? DEFAULT_OPENAI_TIMEOUT_MS;
  // SVC_TESTGEN_OPENAI_TIMEOUT_MS may be any whole number; past a timer's reach it would abort at once.
  const timeout = AbortSignal.timeout(timerDelay(timeoutMs));
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (config.apiKey !== undefined && config.apiKey !== '') headers.authorization = `Bearer ${config.apiKey}`;
  const body = JSON.stringify({
    model: config.model,
    messages: [{ role: 'system', content: prompt.systemPrompt }, ...prompt.messages],
    max_tokens: config.maxTokens ?? prompt.maxTokens,
    temperature: config.temperature ?? 0.2,
  });
  let status: number;
  let text: string;
  try {
    const response = await request(url, {
      method: 'POST',
      headers,
      body,
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
      ...(dispatcher !== undefined ? { dispatcher } : {}),
    });
    status = response.statusCode;
    text = await response.body.text();
  } catch (error) {
    if (timeout.aborted) {
      throw new SvcError('TESTGEN_MODEL_TIMEOUT', `the model service at ${url} did not answer within ${timeoutMs} ms`, {
        retryable: true,
        cause: error,
      });
    }
    if (signal?.aborted === true) throw new SvcError('CANCELLED', 'test generation was cancelled', { cause: error });
    const reason = error instanceof Error ? ((error as { code?: string }).code ?? error.message) : String(error);
    throw new SvcError('TESTGEN_MODEL_UNREACHABLE', `cannot reach the model service at ${url}: ${reason}`, {
      retryable: true,
      cause: error,
    });
  }
  if (status < 200 || status >= 300) {
    const hint =
      status === 401 || status === 403
        ? ` (check ${OPENAI_ENV.apiKey})`
        : status === 404
          ? ` (check ${OPENAI_ENV.url} and ${OPENAI_ENV.model})`
          : '';
    throw new SvcError(
      'TESTGEN_MODEL_HTTP_ERROR',
      `the model service at ${url} answered ${status}: ${errorText(text)}${hint}`,
      {
        retryable: status === 429 || status >= 500,
        details: { status },
      },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const reply = replyText(parsed);
  if (reply === undefined) {
    throw new SvcError(
      'TESTGEN_MODEL_OUTPUT_INVALID',
      `the model service at ${url} did not answer in the chat-completions format (choices[0].message.content)`,
      {
        details: { excerpt: errorText(text) },
      },
    );
  }
  return reply;
}

/**
 * The `openai` engine: any OpenAI-compatible chat-completions service (OpenAI, Azure OpenAI's
 * compatible endpoint, Ollama, vLLM, LM Studio, …) writes the cases.
 * @example
 * const generator = createOpenAiTestCaseGenerator({ config: openAiConfigOf(loadConfig(process.env)) });
 * const cases = await generator.generate(endpoint, { maxCases: 10 });
 */
export function createOpenAiTestCaseGenerator(options: OpenAiGeneratorOptions = {}): TestCaseGenerator {
  return {
    name: 'openai',
    async generate(endpoint, generateOptions = {}) {
      const config = options.config ?? {};
      const { url, model } = config;
      if (url === undefined || url === '' || model === undefined || model === '') {
        const missing = [
          url === undefined || url === '' ? OPENAI_ENV.url : '',
          model === undefined || model === '' ? OPENAI_ENV.model : '',
        ].filter((name) => name !== '');
        throw new SvcError(
          'TESTGEN_NOT_CONFIGURED',
          `the "openai" engine is not configured: set ${missing.join(' and ')} (and ${OPENAI_ENV.apiKey} when the service needs a key) where the service runs, or use the "schema" engine`,
        );
      }
      return generateWithModel(
        endpoint,
        generateOptions,
        (prompt, signal) => complete({ ...config, url, model }, prompt, signal, options.dispatcher),
        `the model ${model}`,
      );
    },
  };
}
