import type { SvcConfig } from '@svc/engine';

/** Where an OpenAI-compatible chat-completions service is, and which model to ask. */
export interface OpenAiTestGenConfig {
  /** Base URL such as `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`; `/chat/completions` is added. */
  url?: string | undefined;
  /** Sent as `Authorization: Bearer <apiKey>`; local servers often need none. */
  apiKey?: string | undefined;
  model?: string | undefined;
  /** Per request; default 120 s (models take their time). */
  timeoutMs?: number | undefined;
  maxTokens?: number | undefined;
  /** Default 0.2: test cases should be sober. */
  temperature?: number | undefined;
}

/** The environment variables of the `openai` engine, as its messages name them (read by `loadConfig`). */
export const OPENAI_ENV = {
  url: 'SVC_TESTGEN_OPENAI_URL',
  apiKey: 'SVC_TESTGEN_OPENAI_KEY',
  model: 'SVC_TESTGEN_OPENAI_MODEL',
  timeoutMs: 'SVC_TESTGEN_OPENAI_TIMEOUT_MS',
} as const;

export const DEFAULT_OPENAI_TIMEOUT_MS = 120_000;

/** The settings of the `openai` engine in svc's loaded configuration (`loadConfig`). */
export type OpenAiSettings = Pick<
  SvcConfig,
  'testgenOpenAiUrl' | 'testgenOpenAiKey' | 'testgenOpenAiModel' | 'testgenOpenAiTimeoutMs'
>;

/**
 * The `openai` engine's configuration from the service's configuration. Only a process that
 * runs the service reads this; flows never see it.
 * @example openAiConfigOf(loadConfig(process.env)) // { url: 'http://127.0.0.1:11434/v1', model: 'llama3.1', … }
 */
export function openAiConfigOf(config: OpenAiSettings): OpenAiTestGenConfig {
  return {
    url: config.testgenOpenAiUrl,
    apiKey: config.testgenOpenAiKey,
    model: config.testgenOpenAiModel,
    timeoutMs: config.testgenOpenAiTimeoutMs,
  };
}

/** `…/v1` → `…/v1/chat/completions`; a URL that already ends so is kept. */
export function chatCompletionsUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/chat\/completions$/.test(trimmed) ? trimmed : `${trimmed}/chat/completions`;
}
