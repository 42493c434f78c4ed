import type { LlmClientConfig } from '../llm-client-config.ts';

/** An LLM config for the local chat server: short backoff so retry tests stay fast. */
export function testLlmConfig(baseUrl: string, overrides: Partial<LlmClientConfig> = {}): LlmClientConfig {
  return {
    baseUrl,
    apiKey: 'test-key',
    model: 'test-model',
    timeoutMs: 5_000,
    maxRetries: 2,
    contextTokens: 8_192,
    concurrency: 8,
    retryBaseDelayMs: 10,
    ...overrides,
  };
}
